// The types of `trestle/legacy` (Express 3's behaviour): the route table
// (`app.routes`, `app.router` placed in the middleware chain),
// `app.configure`, `req.param`, the `req.accepted*` lists, negotiation that
// answers `undefined` and booleans, the old `res.send(status, body)` forms
// without warnings, and the bundled `bodyParser` and `logger`. Fills in the
// legacy row of the generation table.
import type * as http from 'node:http';
import type logline from 'logline-http';
import type { ApplicationCore } from './application';
import type { FactoryMembers, Middleware } from './factory';
import type { DefaultLocals, LocalsRecord, Untyped } from './generation';
import type { NextFunction, ParamHandler } from './handlers';
import type { JsonOptions, UrlencodedOptions } from './options';
import type { ParamsDictionary, ParsedQs } from './params';
import type { MediaType, RequestCore } from './request';
import type { Layer, PathParams, Route, RouteConstructor, RouteMatcher, Router, RouterPrototypeFactory } from './router';
import type { QueryParserFunction } from './settings';
import type { QueryOptions, ServeStaticV4 } from './v4';
import type { ParamFactory, ResponseV4 } from './v4';

declare module './generation' {
  interface GenerationTypes<P, ResBody, ReqBody, ReqQuery, LocalsObj extends LocalsRecord, StatusCode extends number> {
    /** `trestle/legacy`: Express 3's objects. */
    legacy: GenerationRow<
      RequestLegacy<P, ResBody, ReqBody, ReqQuery, LocalsObj>,
      ResponseLegacy<ResBody, LocalsObj, StatusCode>,
      ApplicationLegacy<LocalsObj>,
      Router<'legacy'>,
      LegacyRouteRecord | Route<P, 'legacy'>
    >;
  }
}

/** An entry of `req.accepted`: `text/html;level=1;q=0.8` read apart. */
export interface AcceptedType extends MediaType {
  /** Its other parameters, such as `{ level: '1' }`. */
  params: Record<string, string>;
}

/** The request of `trestle/legacy`: Express 3's negotiation, `req.param` and the `req.accepted*` lists. */
export interface RequestLegacy<
  P = ParamsDictionary,
  ResBody = Untyped,
  ReqBody = Untyped,
  ReqQuery = ParsedQs,
  LocalsObj extends LocalsRecord = DefaultLocals,
> extends RequestCore<P, ResBody, ReqBody, ReqQuery, LocalsObj, 'legacy'> {
  /** With no types: the types the `Accept` header accepts, best first. */
  accepts(): string[];
  /** The best of `type` (one, an array, or a list such as `'json, html'`) per `Accept`, as given, or `undefined`. */
  accepts(type: string | string[]): string | undefined;
  /** The best of `types` per `Accept`, as given, or `undefined`. */
  accepts(...types: string[]): string | undefined;
  /** Whether the body's type matches one of `types`. */
  is(type: string | string[], ...types: string[]): boolean;
  /** The value of `name` in `req.params`, else `req.body`, else `req.query`, else `defaultValue`; typed `string` as Express's types have it. */
  param(name: string, defaultValue?: unknown): string;
  /** Alias of `req.acceptsCharsets()`. */
  acceptsCharset: RequestCore['acceptsCharsets'];
  /** Alias of `req.acceptsEncodings()`. */
  acceptsEncoding: RequestCore['acceptsEncodings'];
  /** Alias of `req.acceptsLanguages()`. */
  acceptsLanguage: RequestCore['acceptsLanguages'];
  /** The media types of `Accept`, best first, read apart (q=0 left out). */
  readonly accepted: AcceptedType[];
  /** The charsets of `Accept-Charset`, best first. */
  readonly acceptedCharsets: string[];
  /** The languages of `Accept-Language`, best first. */
  readonly acceptedLanguages: string[];
  /** The encodings of `Accept-Encoding`, best first. */
  readonly acceptedEncodings: string[];
}

/** The response of `trestle/legacy`: Express 3's forms (`res.send(404, body)`, `res.json(obj, 201)`, `res.sendfile`) without warnings. */
export interface ResponseLegacy<ResBody = Untyped, LocalsObj extends LocalsRecord = DefaultLocals, StatusCode extends number = number>
  extends ResponseV4<ResBody, LocalsObj, StatusCode, 'legacy'> {}

/** A route record of `app.routes`, as Express 3 apps read and remove them. */
export interface LegacyRouteRecord {
  /** The path the route was defined with. */
  path: PathParams;
  /** Its method, lower-case. */
  method: string;
  /** Its handlers. */
  callbacks: Array<(...args: never[]) => unknown>;
  /** The parameters its path declares. */
  keys: Array<{
    /** The parameter's name, or its index. */
    name: string | number;
    /** Whether it may be absent. */
    optional: boolean;
  }>;
  /** The regular expression its path compiled to, when it has one. */
  regexp: RegExp | undefined;
  /** The parameters of its last match. */
  params: Record<string, unknown>;
  /** Its handlers as layers, as routes of every generation have them. */
  stack: Layer[];
  /** `{ [method]: true }`. */
  methods: Record<string, boolean>;
  /** Matches `path`, filling `params`. */
  match(path: string): boolean;
}

/** The route table: the middleware that runs the app's routes where `app.use(app.router)` placed it. */
export interface LegacyRouteTable {
  (req: http.IncomingMessage, res: http.ServerResponse, next: NextFunction): void;
  /** Every route by lower-case method. */
  map: Record<string, LegacyRouteRecord[]>;
  /** The param triggers, by parameter name. */
  params: Record<string, Array<ParamHandler<string, 'legacy'>>>;
}

/** The application of `trestle/legacy`. */
export interface ApplicationLegacy<L extends LocalsRecord = DefaultLocals> extends ApplicationCore<L, 'legacy'> {
  /** The route table: `app.use(app.router)` decides where the routes run (after the middleware before it); otherwise the first route mounts it. */
  readonly router: LegacyRouteTable;
  /** Every route by lower-case method; remove a record to remove the route. */
  readonly routes: Record<string, LegacyRouteRecord[]>;
  /** The application's middleware router once middleware created it (`lazyrouter()`). */
  _router: Router<'legacy'> | undefined;
  /** Creates the middleware router if it does not exist yet; it returns nothing: read `app._router` after. */
  lazyrouter(): void;
  /** Calls `fn` (with the app as `this`) when no environment is named, or when the `env` setting is one of those named. */
  configure(...envsThenFn: [...envs: string[], fn: (this: this) => void]): this;
  /** Alias of `app.delete()`. */
  del: RouteMatcher<this, 'legacy'>;
  /** Adds a param trigger for `:name` (or each of several names). */
  param(name: string | string[], handler: ParamHandler<string, 'legacy'>): this;
  /** A param trigger declaring its value as `string[]`, as the methods every generation shares allow. */
  param(name: string | string[], handler: ParamHandler<string[], 'legacy'>): this;
  /** Adds a factory of param triggers. */
  param(factory: ParamFactory<'legacy'>): this;
}

/** The multipart options of the legacy `bodyParser()`. */
export interface MultipartOptions {
  /** Where uploads are written. Default: the OS temporary directory. */
  uploadDir?: string;
  /** Keep the uploaded file's extension on the temporary file. */
  keepExtensions?: boolean;
  /** Compute a digest of each file into `file.hash`. */
  hash?: 'md5' | 'sha1' | false;
}

/** The options of the legacy `bodyParser()`: those of `json()` and `urlencoded()`, and the multipart ones. */
export type LegacyBodyParserOptions = JsonOptions & UrlencodedOptions & MultipartOptions;

/** The factory `require('trestle/legacy')` returns, with its members. */
export interface TrestleLegacy extends FactoryMembers<'legacy'>, BundledMiddleware {
  /** Creates a router: `trestle.Router({ mergeParams: true })` or `new trestle.Router()`. */
  Router: RouterPrototypeFactory<'legacy'>;
  /** The route class: `new trestle.Route(path)`. */
  Route: RouteConstructor<'legacy'>;
  /** Creates an application; `L` types `app.locals`. Its paths use the v4 path syntax. */
  <L extends LocalsRecord = DefaultLocals>(): ApplicationLegacy<L>;
  /** JSON, urlencoded (extended) and multipart bodies in one middleware: `req.body` and `req.files` are at least `{}` after it. */
  bodyParser(options?: LegacyBodyParserOptions): Middleware;
  /** The request logger (logline, morgan-compatible), as Express 3 bundled it. */
  logger: typeof logline;
  /** Parses the query string into `req.query` when nothing has yet: with `qs` and `options`, or with a parser function. */
  query(options?: QueryOptions | QueryParserFunction<unknown>): Middleware;
  /** Serves the files under `root`; `trestle.static.mime` is the table it types them by. */
  static: ServeStaticV4;
}

/** A middleware factory Express 3 bundled from Connect, typed loosely: its options are those of the package that serves it. */
export type BundledFactory = (...args: unknown[]) => Middleware;

/**
 * The middleware Express 3 bundled, each served by the maintained package that
 * replaced it, resolved from the app when called (`cookieParser` by
 * `cookie-parser`, `session` by `express-session`, ...). When the package is
 * not installed, the call throws `TRESTLE_ERR_MIDDLEWARE_NOT_INSTALLED`
 * naming it.
 */
export interface BundledMiddleware {
  /** Served by `basic-auth-connect`. */
  basicAuth: BundledFactory;
  /** Served by `compression`. */
  compress: BundledFactory;
  /** Served by `cookie-parser`. */
  cookieParser: BundledFactory;
  /** Served by `cookie-session`. */
  cookieSession: BundledFactory;
  /** Served by `csurf`. */
  csrf: BundledFactory;
  /** Served by `serve-index`. */
  directory: BundledFactory;
  /** Served by `errorhandler`. */
  errorHandler: BundledFactory;
  /** Served by `serve-favicon`. */
  favicon: BundledFactory;
  /** Served by `method-override` (and Connect's `_method` in the body). */
  methodOverride: BundledFactory;
  /** Served by `response-time`. */
  responseTime: BundledFactory;
  /** express-session, with its `Cookie`, `MemoryStore`, `Session` and `Store` classes. */
  session: BundledFactory & {
    /** express-session's `Cookie` class. */
    readonly Cookie: unknown;
    /** express-session's `MemoryStore` class. */
    readonly MemoryStore: unknown;
    /** express-session's `Session` class. */
    readonly Session: unknown;
    /** express-session's `Store` class. */
    readonly Store: unknown;
  };
  /** Served by `connect-timeout`. */
  timeout: BundledFactory;
  /** Served by `vhost`. */
  vhost: BundledFactory;
}
