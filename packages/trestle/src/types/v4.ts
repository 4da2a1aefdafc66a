// The types of `trestle/v4` (Express 4's behaviour): the v4 path syntax, and
// the deprecated forms Express 4 still accepts (`res.send(status, body)`,
// `req.param()`, `app.del`, `res.sendfile`, ...), each warning when used.
// Fills in the v4 row of the generation table.
import type { ApplicationCore } from './application';
import type { FactoryMembers, Middleware } from './factory';
import type { DefaultLocals, LocalsRecord, Untyped } from './generation';
import type { ParamHandler } from './handlers';
import type { SendFileOptions, StaticOptions } from './options';
import type { ParamsDictionary, ParsedQs } from './params';
import type { Request } from './request';
import type { Response } from './response';
import type { QueryParserFunction } from './settings';
import type { Route, RouteConstructor, RouteMatcher, Router, RouterPrototypeFactory } from './router';

declare module './generation' {
  interface GenerationTypes<P, ResBody, ReqBody, ReqQuery, LocalsObj extends LocalsRecord, StatusCode extends number> {
    /** `trestle/v4`: Express 4's objects. */
    v4: GenerationRow<
      RequestV4<P, ResBody, ReqBody, ReqQuery, LocalsObj>,
      ResponseV4<ResBody, LocalsObj, StatusCode>,
      ApplicationV4<LocalsObj>,
      Router<'v4'>,
      Route<P, 'v4'>
    >;
  }
}

/** The request of `trestle/v4`: Express 5's, plus the members Express 4 had and deprecated. */
export interface RequestV4<
  P = ParamsDictionary,
  ResBody = Untyped,
  ReqBody = Untyped,
  ReqQuery = ParsedQs,
  LocalsObj extends LocalsRecord = DefaultLocals,
> extends Request<P, ResBody, ReqBody, ReqQuery, LocalsObj, 'v4'> {
  /**
   * The value of `name` in `req.params`, else `req.body`, else `req.query`,
   * else `defaultValue`; typed `string` as `@types/express` 4 types it (a body
   * or query value may be an object).
   *
   * @deprecated Use `req.params`, `req.body` or `req.query`.
   */
  param(name: string, defaultValue?: unknown): string;
  /** @deprecated Use `req.acceptsCharsets()`. */
  acceptsCharset: Request['acceptsCharsets'];
  /** @deprecated Use `req.acceptsEncodings()`. */
  acceptsEncoding: Request['acceptsEncodings'];
  /** @deprecated Use `req.acceptsLanguages()`. */
  acceptsLanguage: Request['acceptsLanguages'];
}

/** A body `res.send()` takes in `trestle/v4` and `trestle/legacy`. */
export type SendBodyV4<ResBody> = ResBody | string | Buffer | Uint8Array | boolean | number | null;

/**
 * The response of `trestle/v4`: Express 5's, plus the forms Express 4 still
 * accepts with a deprecation warning (`trestle/legacy` has them without one).
 */
export interface ResponseV4<ResBody = Untyped, LocalsObj extends LocalsRecord = DefaultLocals, StatusCode extends number = number, G extends 'v4' | 'legacy' = 'v4'>
  extends Response<ResBody, LocalsObj, StatusCode, G> {
  /** Sends the body (a string as HTML, bytes as octets, other values as JSON); a number alone is a status, sent with its message. */
  send(body?: SendBodyV4<ResBody>): this;
  /** @deprecated Use `res.status(status).send(body)`. */
  send(status: StatusCode, body: SendBodyV4<ResBody>): this;
  /** @deprecated Use `res.status(status).send(body)`. */
  send(body: SendBodyV4<ResBody>, status: StatusCode): this;
  /** Sends `body` as JSON. */
  json(body?: ResBody): this;
  /** @deprecated Use `res.status(status).json(body)`. */
  json(status: StatusCode, body: ResBody): this;
  /** @deprecated Use `res.status(status).json(body)`. */
  json(body: ResBody, status: StatusCode): this;
  /** `res.json()`, or a JSONP script when the query names a callback. */
  jsonp(body?: ResBody): this;
  /** @deprecated Use `res.status(status).jsonp(body)`. */
  jsonp(status: StatusCode, body: ResBody): this;
  /** @deprecated Use `res.status(status).jsonp(body)`. */
  jsonp(body: ResBody, status: StatusCode): this;
  /** Redirects to `url` with 302; `'back'` is the Referrer (deprecated). */
  redirect(url: string): void;
  /** Redirects to `url` with the given status. */
  redirect(status: number, url: string): void;
  /** @deprecated Use `res.redirect(status, url)`. */
  redirect(url: string, status: number): void;
  /** @deprecated Use `res.sendFile()`: a relative `path` is taken from the working directory. */
  sendfile(path: string, callback?: (err?: Error) => void): void;
  /** @deprecated Use `res.sendFile()`. */
  sendfile(path: string, options: SendFileOptions, callback?: (err?: Error) => void): void;
}

/** A param trigger factory, `app.param(fn)`: given a name and the second argument of `app.param(name, arg)`, the trigger to use, or nothing. */
export type ParamFactory<G extends 'v4' | 'legacy' = 'v4'> = (name: string, arg: unknown) => ParamHandler<string, G> | undefined;

/** The application of `trestle/v4`: Express 5's, plus what Express 4 kept of older versions. */
export interface ApplicationV4<L extends LocalsRecord = DefaultLocals> extends ApplicationCore<L, 'v4'> {
  /** Express 4 removed `app.router`: reading it throws an error that says so. */
  readonly router: never;
  /**
   * The application router once a route or middleware created it (`lazyrouter()`), as tools for Express 4 read it; absent before (`'_router' in app` is false).
   * Deleting it (or, as in Express 4, assigning `null`) starts over: the next route makes a new router.
   */
  _router?: Router<'v4'> | undefined;
  /** Creates the application router if it does not exist yet; as in Express 4 it returns nothing: read `app._router` after. */
  lazyrouter(): void;
  /** @deprecated Use `app.delete()`. */
  del: RouteMatcher<this, 'v4'>;
  /** Adds a param trigger for `:name` (or each of several names). */
  param(name: string | string[], handler: ParamHandler<string, 'v4'>): this;
  /** A param trigger declaring its value as `string[]`, as the methods every generation shares allow. */
  param(name: string | string[], handler: ParamHandler<string[], 'v4'>): this;
  /** @deprecated Express 4 accepts a factory of param triggers; refactor to use path params. */
  param(factory: ParamFactory): this;
}

/** Middleware Express 4 stopped bundling: reading one of these throws an error that names its package. */
export interface UnbundledMiddleware {
  /** Throws: use the `body-parser` package. */
  readonly bodyParser: never;
  /** Throws: use the `compression` package. */
  readonly compress: never;
  /** Throws: use the `cookie-session` package. */
  readonly cookieSession: never;
  /** Throws: use the `express-session` package. */
  readonly session: never;
  /** Throws: use the `morgan` (or `logline-http`) package. */
  readonly logger: never;
  /** Throws: use the `cookie-parser` package. */
  readonly cookieParser: never;
  /** Throws: use the `serve-favicon` package. */
  readonly favicon: never;
  /** Throws: use the `response-time` package. */
  readonly responseTime: never;
  /** Throws: use the `errorhandler` package. */
  readonly errorHandler: never;
  /** Throws: use the `connect-timeout` package. */
  readonly timeout: never;
  /** Throws: use the `method-override` package. */
  readonly methodOverride: never;
  /** Throws: use the `vhost` package. */
  readonly vhost: never;
  /** Throws: use the `csurf` package. */
  readonly csrf: never;
  /** Throws: use the `serve-index` package. */
  readonly directory: never;
  /** Throws: use the `raw-body` package. */
  readonly limit: never;
  /** Throws: use `multer` or `busboy`. */
  readonly multipart: never;
  /** Throws: no longer exists. */
  readonly staticCache: never;
}

/** The `mime` 1.x table of Express 4's `express.static.mime`: what the static server types files by. */
export interface MimeTable {
  /** The media type of each extension. */
  types: Record<string, string>;
  /** The default extension of each media type. */
  readonly extensions: Record<string, string>;
  /** The type `lookup` answers for an unknown extension: `application/octet-stream`. */
  default_type: string;
  /** Adds types: `{ 'text/x-foo': ['foo', 'fo'] }`; the first extension becomes the type's default. */
  define(map: Record<string, string[]>): void;
  /** The type of a path or extension, else `fallback`, else `default_type`. */
  lookup(path: string, fallback?: string): string;
  /** The default extension of a media type. */
  extension(mimeType: string): string | undefined;
  /** Charsets by media type. */
  charsets: {
    /** `UTF-8` for text, JavaScript and JSON types, else `fallback`. */
    lookup(mimeType: string, fallback?: string): string | undefined;
  };
}

/** `trestle.static` of `trestle/v4`: the static server, with its `mime` table. */
export interface ServeStaticV4 {
  /** Serves the files under `root`. */
  (root: string, options?: StaticOptions): Middleware;
  /** The table files are typed by; `mime.define()` adds to it. */
  readonly mime: MimeTable;
}

/** The options of `query()`: those of `qs.parse` (`allowPrototypes` defaults to true, as in Express 4). */
export interface QueryOptions {
  /** Deepest nesting of `a[b][c]`. */
  depth?: number;
  /** Most parameters parsed. */
  parameterLimit?: number;
  /** Let keys such as `__proto__`-like names of `Object.prototype` through. */
  allowPrototypes?: boolean;
  /** Other options of `qs.parse`. */
  [option: string]: unknown;
}

/** The factory `require('trestle/v4')` returns, with its members. */
export interface TrestleV4 extends FactoryMembers<'v4'>, UnbundledMiddleware {
  /** Creates a router: `trestle.Router({ mergeParams: true })` or `new trestle.Router()`. */
  Router: RouterPrototypeFactory<'v4'>;
  /** The route class: `new trestle.Route(path)`. */
  Route: RouteConstructor<'v4'>;
  /** Creates an application; `L` types `app.locals`. Its paths use the v4 path syntax. */
  <L extends LocalsRecord = DefaultLocals>(): ApplicationV4<L>;
  /** Parses the query string into `req.query` when nothing has yet (in an app the router already has): with `qs` and `options`, or with a parser function. */
  query(options?: QueryOptions | QueryParserFunction<unknown>): Middleware;
  /** Serves the files under `root`; `trestle.static.mime` is the table it types them by. */
  static: ServeStaticV4;
}
