/**
 * Public types of trestle: the declarations behind the type names that
 * `trestle`, `trestle/v4` and `trestle/legacy` export (`trestle.Request`,
 * `import type { Request } from 'trestle'`, ...). Import them from those
 * entries; this module is not an import path of its own. They are the
 * contract for TypeScript users: the names and generic parameter order follow
 * what Express users import today (`@types/express`), so existing annotations
 * keep compiling.
 *
 * @module trestle/types
 */
import type { EventEmitter } from 'node:events';
import type * as http from 'node:http';
import type { Http2ServerRequest, Http2ServerResponse } from 'node:http2';
import type { ParsedQs } from 'qs';
import type { ParamsDictionary, ParamsOfSyntax, PathSyntax } from './params';

export type { ParsedQs };

/**
 * The ecosystem's extension point. Middleware types add to these global
 * interfaces (`req.user` from passport, `req.session` from express-session, an
 * app's own `req.id`), and trestle's `Request`, `Response` and `Locals` extend
 * them, so such additions appear on trestle's objects too:
 *
 * ```ts
 * declare global {
 *   namespace Express {
 *     interface Request { id: string }
 *   }
 * }
 * ```
 */
declare global {
  // eslint-disable-next-line @typescript-eslint/no-namespace
  namespace Express {
    // eslint-disable-next-line @typescript-eslint/no-empty-object-type
    interface Request {}
    // eslint-disable-next-line @typescript-eslint/no-empty-object-type
    interface Response {}
    // eslint-disable-next-line @typescript-eslint/no-empty-object-type
    interface Locals {}
    // eslint-disable-next-line @typescript-eslint/no-empty-object-type
    interface Application {}
  }
}
export type { ParamsDictionary, ParamsOf, ParamsOfSyntax, PathSyntax, RouteParameters, RouteParametersV4 } from './params';

/** Any value a setting may hold. */
export type SettingValue = unknown;

/** A path a route or a middleware can be defined on. */
export type PathParams = string | RegExp | Array<string | RegExp>;

/** `next()`, `next('route')`, `next('router')` or `next(err)`. */
export interface NextFunction {
  (err?: unknown): void;
  (deferToNext: 'route'): void;
  (deferToNext: 'router'): void;
}

/**
 * What a handler may return: anything. A returned promise that rejects becomes
 * `next(err)`; `unknown` (not `void`) so async handlers type-check without lint noise.
 */
export type HandlerResult = unknown;

/** View locals: anything, plus what `Express.Locals` declares. */
export interface Locals extends Express.Locals {
  [key: string]: unknown;
}

/** The request: node's `IncomingMessage` plus trestle's properties and methods. */
export interface Request<
  P = ParamsDictionary,
  ResBody = unknown,
  ReqBody = unknown,
  ReqQuery = ParsedQs,
  LocalsObj extends Record<string, unknown> = Record<string, unknown>,
> extends http.IncomingMessage,
    Express.Request {
  /** The application that is handling this request. */
  app: Application;
  /** The response that belongs to this request. */
  res?: Response<ResBody, LocalsObj>;
  /** The `next` function of the router currently dispatching. */
  next?: NextFunction;
  /** The URL, rewritten by mounting to strip the mount point; always set on server requests. */
  url: string;
  /** The URL path on which the current router or app was mounted. */
  baseUrl: string;
  /** The URL as it arrived, never rewritten by mounting. */
  originalUrl: string;
  /** Route parameters, percent-decoded. */
  params: P;
  /** The query string, parsed by the `query parser` setting; assignable. */
  query: ReqQuery;
  /** The body, filled by a body parser; `undefined` until one runs. */
  body: ReqBody;
  /** The matched route. */
  route?: Route;
  /** Path part of the URL (mount point stripped). */
  readonly path: string;
  /** `http` or `https` (`X-Forwarded-Proto` when `trust proxy` allows). */
  readonly protocol: string;
  /** `req.protocol === 'https'`. */
  readonly secure: boolean;
  /** Remote address, proxy-aware. */
  readonly ip: string | undefined;
  /** Forwarded addresses, nearest client first, when `trust proxy` allows. */
  readonly ips: string[];
  /** Subdomains of the host, per `subdomain offset`. */
  readonly subdomains: string[];
  /** Host name without port. */
  readonly hostname: string | undefined;
  /** v5: host with port. */
  readonly host: string | undefined;
  /** True when the client's cached copy is still fresh. */
  readonly fresh: boolean;
  /** Opposite of `fresh`. */
  readonly stale: boolean;
  /** `X-Requested-With: XMLHttpRequest`. */
  readonly xhr: boolean;
  /** Cookies, when a cookie parser ran. */
  cookies?: Record<string, string>;
  /** Signed cookies, when a cookie parser ran with a secret. */
  signedCookies?: Record<string, string | false>;
  /** The secret a cookie parser records, used by signed `res.cookie`. */
  secret?: string | undefined;

  /** The `Set-Cookie` header (any case) as an array of its values; `undefined` when absent. */
  get(name: 'set-cookie' | 'Set-Cookie'): string[] | undefined;
  /** A request header, case-insensitive; `Referer`/`Referrer` interchangeable; `undefined` when absent. */
  get(name: string): string | undefined;
  /** Alias of `req.get()`: the `Set-Cookie` header as an array. */
  header(name: 'set-cookie' | 'Set-Cookie'): string[] | undefined;
  /** Alias of `req.get()`: a request header, case-insensitive. */
  header(name: string): string | undefined;
  /** With no types: the types the `Accept` header accepts, best first. */
  accepts(): string[];
  /** The best of `type` (one type, an array, or a list such as `'json, html'`) per `Accept`, as given, or `false`. */
  accepts(type: string | string[]): string | false;
  /** The best of `types` (extensions or media types) per `Accept`, as given, or `false`; without `Accept`, the first. */
  accepts(...types: string[]): string | false;
  /** With no charsets: the charsets `Accept-Charset` accepts, best first. */
  acceptsCharsets(): string[];
  /** The best of `charset` (one or an array) per `Accept-Charset`, or `false`. */
  acceptsCharsets(charset: string | string[]): string | false;
  /** The best of `charsets` per `Accept-Charset`, or `false`. */
  acceptsCharsets(...charsets: string[]): string | false;
  /** With no encodings: the encodings `Accept-Encoding` accepts, best first. */
  acceptsEncodings(): string[];
  /** The best of `encoding` (one or an array) per `Accept-Encoding`, or `false`; `identity` is acceptable unless refused. */
  acceptsEncodings(encoding: string | string[]): string | false;
  /** The best of `encodings` per `Accept-Encoding`, or `false`; `identity` is acceptable unless refused. */
  acceptsEncodings(...encodings: string[]): string | false;
  /** With no languages: the languages `Accept-Language` accepts, best first (`['*']` without the header). */
  acceptsLanguages(): string[];
  /** The best of `lang` (one or an array) per `Accept-Language` (`en` matches `en-US`), or `false`. */
  acceptsLanguages(lang: string | string[]): string | false;
  /** The best of `langs` per `Accept-Language` (`en` matches `en-US`), or `false`. */
  acceptsLanguages(...langs: string[]): string | false;
  /** The matching type as given, `null` without a body, else `false`; with no type, the body's own type. */
  is(type?: string | string[], ...types: string[]): string | false | null;
  /** Parses the `Range` header for a body of `size` bytes; `undefined` when the request has none. */
  range(size: number, options?: RangeOptions): RangeResult | undefined;
}

/** The options of `req.range()`. */
export interface RangeOptions {
  /** Merge overlapping and adjacent ranges. */
  combine?: boolean;
}

/** `-1` unsatisfiable, `-2` malformed, or the ranges with their unit in `type`. */
export type RangeResult =
  | -1
  | -2
  | (Array<{
      /** First byte, from 0. */
      start: number;
      /** Last byte, inclusive, at most `size - 1`. */
      end: number;
    }> & {
      /** The unit, such as `'bytes'`. */
      type: string;
    });

/** The options of `res.cookie()` and `res.clearCookie()`: the attributes of the `Set-Cookie` header. */
export interface CookieOptions {
  /** Lifetime in milliseconds: gives both Max-Age (seconds) and Expires. */
  maxAge?: number | undefined;
  /** Sign the value with `req.secret` (set by cookie-parser given a secret); it reads back in `req.signedCookies`. */
  signed?: boolean | undefined;
  /** The `Expires` date. */
  expires?: Date | undefined;
  /** Add `HttpOnly`: page scripts cannot read the cookie. */
  httpOnly?: boolean | undefined;
  /** The `Path` attribute; default `/`. */
  path?: string | undefined;
  /** The `Domain` attribute. */
  domain?: string | undefined;
  /** Add `Secure`: the cookie is sent over HTTPS only. */
  secure?: boolean | undefined;
  /** Encodes the value; default `encodeURIComponent`. */
  encode?: ((val: string) => string) | undefined;
  /** The `SameSite` attribute: `true` (strict), `'strict'`, `'lax'` or `'none'`. */
  sameSite?: boolean | 'lax' | 'strict' | 'none' | undefined;
  /** The `Priority` attribute. */
  priority?: 'low' | 'medium' | 'high' | undefined;
  /** Add `Partitioned`. */
  partitioned?: boolean | undefined;
}

/** The options of `res.sendFile()` (and `res.download()`). */
export interface SendFileOptions {
  /** Cache-Control max-age, in milliseconds or an `ms` string such as `'1d'`; default 0. */
  maxAge?: number | string;
  /** Directory a relative `path` is resolved in; the path may not leave it. */
  root?: string;
  /** Send Last-Modified (default true). */
  lastModified?: boolean;
  /** Headers to send with the file; they win over the ones computed. */
  headers?: Record<string, string | number | string[]>;
  /** Files and directories starting with a dot: `ignore` (404, default), `deny` (403) or `allow`. */
  dotfiles?: 'allow' | 'deny' | 'ignore';
  /** Honour Range requests (default true). */
  acceptRanges?: boolean;
  /** Send Cache-Control (default true). */
  cacheControl?: boolean;
  /** Add `immutable` to Cache-Control (default false). */
  immutable?: boolean;
  /** Send an ETag; defaults to whether the app's `etag` setting is on. */
  etag?: boolean;
}

/** The options of `res.download()`: those of `res.sendFile()`; a `Content-Disposition` among `headers` is ignored. */
export interface DownloadOptions extends SendFileOptions {}

/** A header value for `res.set()`: a number becomes a string, an array gives one header line per value. */
export type HeaderValue = string | number | readonly string[];

/** The response: node's `ServerResponse` plus trestle's methods. */
export interface Response<ResBody = unknown, LocalsObj extends Record<string, unknown> = Record<string, unknown>>
  extends http.ServerResponse,
    Express.Response {
  /** The application that is handling this response's request. */
  app: Application;
  /** The request this response answers. */
  req: Request;
  /** Variables for views rendered during this request. */
  locals: LocalsObj & Locals;
  /** Sets the status code: an integer from 100 to 999 (else a TypeError or RangeError). */
  status(code: number): this;
  /** Sets the status and sends its message as `text/plain` (`201` sends `Created`). */
  sendStatus(code: number): this;
  /** Sets a header (an array gives one line per value); `Content-Type` gains its charset. */
  set(field: string, value?: HeaderValue): this;
  /** Sets each header of `fields`. */
  set(fields: Record<string, HeaderValue>): this;
  /** Alias of `res.set()`: sets a header. */
  header(field: string, value?: HeaderValue): this;
  /** Alias of `res.set()`: sets each header of `fields`. */
  header(fields: Record<string, HeaderValue>): this;
  /** A header already set on the response, case-insensitive; `undefined` when unset. */
  get(field: string): string | number | string[] | undefined;
  /** Adds `value` (a string or an array) after the values already set for `field`. */
  append(field: string, value?: HeaderValue): this;
  /** Sets `Content-Type` from an extension (`'json'`, `'.html'`) or a media type; an unknown extension gives `application/octet-stream`. */
  type(type: string): this;
  /** Alias of `res.type()`. */
  contentType(type: string): this;
  /** Sends the body (a string as HTML, bytes as octets, other values as JSON) with `Content-Length` and an `ETag`; 304 when the client's copy is fresh. */
  send(body?: ResBody | string | Buffer | Uint8Array | boolean | number | null): this;
  /** Sends `body` as JSON, per the `json replacer`, `json spaces` and `json escape` settings. */
  json(body?: ResBody): this;
  /** `res.json()`, or a JSONP script when the query names a callback (parameter per `jsonp callback name`). */
  jsonp(body?: ResBody): this;
  /** Adds `field` to the `Vary` header unless it is already there. */
  vary(field: string | string[]): this;
  /** Sets `Location` to `url`, percent-encoding what a URL cannot hold. */
  location(url: string): this;
  /** Redirects to `url` with 302 and a short body that follows `Accept`. */
  redirect(url: string): void;
  /** Redirects to `url` with the given status. */
  redirect(status: number, url: string): void;
  /** Adds `<url>; rel="rel"` entries to the `Link` header. */
  links(links: Record<string, string | string[]>): this;
  /** Sets `Content-Disposition: attachment`; with a filename, its last path segment and the `Content-Type` of its extension. */
  attachment(filename?: string): this;
  /** Adds a `Set-Cookie` header; an object value is sent as `j:` and its JSON. */
  cookie(name: string, value: unknown, options?: CookieOptions): this;
  /** Expires the cookie `name`; give the `path` and `domain` it was set with. */
  clearCookie(name: string, options?: CookieOptions): this;
  /** Calls the handler for the best type per Accept (keys: extensions or media types), else `default`, else next(406). */
  format(handlers: Record<string, (req: Request, res: Response, next: NextFunction) => unknown>): this;
  /** Streams the file at the absolute `path`, with ranges and conditional GET; errors go to `callback` when given, else to `next(err)`. */
  sendFile(path: string, callback?: (err?: Error) => void): void;
  /** Streams the file at `path` (absolute, or relative to `options.root`) with these options. */
  sendFile(path: string, options: SendFileOptions, callback?: (err?: Error) => void): void;
  /** Sends the file as an attachment under its own name. */
  download(path: string, callback?: (err?: Error) => void): void;
  /** Sends the file as an attachment named `filename`. */
  download(path: string, filename: string, callback?: (err?: Error) => void): void;
  /** Sends the file as an attachment under its own name, with `res.sendFile()` options. */
  download(path: string, options: DownloadOptions, callback?: (err?: Error) => void): void;
  /** Sends the file as an attachment named `filename`, with `res.sendFile()` options. */
  download(path: string, filename: string | null | undefined, options: DownloadOptions, callback?: (err?: Error) => void): void;
  /** Renders the view and sends the HTML, or passes the error to `next()`; with a callback nothing is sent, `callback(err, html)` decides. */
  render(view: string, callback?: RenderCallback): void;
  /** Renders the view with `options` as locals over `res.locals` and `app.locals`; sends it unless a callback is given. */
  render(view: string, options?: object, callback?: RenderCallback): void;
}

/** Receives the rendered HTML, or the error of the lookup, the engine or the template. */
export type RenderCallback = (err: Error | null, html?: string) => void;

/** A middleware or route handler. */
export interface RequestHandler<
  P = ParamsDictionary,
  ResBody = unknown,
  ReqBody = unknown,
  ReqQuery = ParsedQs,
  LocalsObj extends Record<string, unknown> = Record<string, unknown>,
> {
  (req: Request<P, ResBody, ReqBody, ReqQuery, LocalsObj>, res: Response<ResBody, LocalsObj>, next: NextFunction): HandlerResult;
}

/**
 * An error handler: recognised by its four parameters. Declared through a
 * method so that handlers annotating `err: Error` (or any type) are accepted.
 */
export type ErrorRequestHandler<
  P = ParamsDictionary,
  ResBody = unknown,
  ReqBody = unknown,
  ReqQuery = ParsedQs,
  LocalsObj extends Record<string, unknown> = Record<string, unknown>,
> = {
  /** Called with what was passed to `next(err)` (or thrown), then the request, response and `next`. */
  handler(
    err: unknown,
    req: Request<P, ResBody, ReqBody, ReqQuery, LocalsObj>,
    res: Response<ResBody, LocalsObj>,
    next: NextFunction,
  ): HandlerResult;
}['handler'];

/**
 * Middleware or an error handler typed against another declaration of the
 * request and response (`@types/express`, connect, node's own), such as
 * multer's, passport's or compression's. trestle's `req` and `res` are what
 * such middleware reads; declared through methods so that its narrower
 * parameter types are accepted.
 */
export type ForeignHandler =
  | {
      /** Called as any middleware is. */
      handler(req: http.IncomingMessage, res: http.ServerResponse, next: NextFunction): unknown;
    }['handler']
  | {
      /** Called as any error handler is. */
      handler(err: unknown, req: http.IncomingMessage, res: http.ServerResponse, next: NextFunction): unknown;
    }['handler'];

/** A request handler, under the name `@types/express` also gives it: `const h: Handler = (req, res) => ...`. */
export type Handler<P = ParamsDictionary, ResBody = unknown, ReqBody = unknown, ReqQuery = ParsedQs> = RequestHandler<P, ResBody, ReqBody, ReqQuery>;

/** Any handler: a request handler, an error handler, or middleware typed for Express. */
export type HandlerOfAnyKind<P = ParamsDictionary, ResBody = unknown, ReqBody = unknown, ReqQuery = ParsedQs> =
  | RequestHandler<P, ResBody, ReqBody, ReqQuery>
  | ErrorRequestHandler<P, ResBody, ReqBody, ReqQuery>
  | ForeignHandler;

/** Handlers may be given one by one or in (nested) arrays. */
export type HandlerArg<P = ParamsDictionary, ResBody = unknown, ReqBody = unknown, ReqQuery = ParsedQs> =
  | HandlerOfAnyKind<P, ResBody, ReqBody, ReqQuery>
  | ReadonlyArray<HandlerArg<P, ResBody, ReqBody, ReqQuery>>;

/**
 * A param trigger: `(req, res, next, value, name)`. `value` is the decoded
 * parameter; for a v5 wildcard (`*name`) it is an array of segments, which a
 * trigger may declare as `value: string[]` (declared as a method for that).
 */
export type ParamHandler<V = string> = {
  /** Called before the route's handlers with the parameter's value and name. */
  trigger(req: Request, res: Response, next: NextFunction, value: V, name: string): HandlerResult;
}['trigger'];

/**
 * Handlers of any kind (middleware typed for Express, arrays), then a request
 * handler: `upload.single('file'), (req, res) => ...` types the last one from
 * the path.
 */
export type HandlersEndingInRequestHandler<P = ParamsDictionary> = [...Array<HandlerArg<P>>, RequestHandler<P>];

/**
 * `app.get('/users/:id', handler)`: the path's parameters reach `req.params`.
 * The overloads taking only request handlers come first so that inline
 * handlers get their parameter types from the path; next, any handlers
 * ending in a request handler, which is typed from the path too.
 */
export interface RouteMatcher<This, S extends PathSyntax = 'v5'> {
  <Path extends string, P = ParamsOfSyntax<Path, S>, ResBody = unknown, ReqBody = unknown, ReqQuery = ParsedQs, L extends Record<string, unknown> = Record<string, unknown>>(
    path: Path,
    ...handlers: [RequestHandler<P, ResBody, ReqBody, ReqQuery, L>, ...Array<RequestHandler<P, ResBody, ReqBody, ReqQuery, L>>]
  ): This;
  <Path extends string>(path: Path, ...handlers: HandlersEndingInRequestHandler<ParamsOfSyntax<Path, S>>): This;
  <Path extends string, P = ParamsOfSyntax<Path, S>, ResBody = unknown, ReqBody = unknown, ReqQuery = ParsedQs>(
    path: Path,
    ...handlers: [HandlerArg<P, ResBody, ReqBody, ReqQuery>, ...Array<HandlerArg<P, ResBody, ReqBody, ReqQuery>>]
  ): This;
  <P = ParamsDictionary, ResBody = unknown, ReqBody = unknown, ReqQuery = ParsedQs, L extends Record<string, unknown> = Record<string, unknown>>(
    path: PathParams,
    ...handlers: [RequestHandler<P, ResBody, ReqBody, ReqQuery, L>, ...Array<RequestHandler<P, ResBody, ReqBody, ReqQuery, L>>]
  ): This;
  (path: PathParams, ...handlers: HandlersEndingInRequestHandler): This;
  <P = ParamsDictionary, ResBody = unknown, ReqBody = unknown, ReqQuery = ParsedQs>(
    path: PathParams,
    ...handlers: [HandlerArg<P, ResBody, ReqBody, ReqQuery>, ...Array<HandlerArg<P, ResBody, ReqBody, ReqQuery>>]
  ): This;
}

/** `router.use([path], ...handlers)`; error handlers have their own overloads. */
export interface UseMatcher<This, S extends PathSyntax = 'v5'> {
  (...handlers: Array<RequestHandler>): This;
  (...handlers: Array<ErrorRequestHandler>): This;
  (...handlers: HandlersEndingInRequestHandler): This;
  (...handlers: Array<HandlerArg>): This;
  <Path extends string>(path: Path, ...handlers: Array<RequestHandler<ParamsOfSyntax<Path, S>>>): This;
  <Path extends string>(path: Path, ...handlers: Array<ErrorRequestHandler<ParamsOfSyntax<Path, S>>>): This;
  <Path extends string>(path: Path, ...handlers: HandlersEndingInRequestHandler<ParamsOfSyntax<Path, S>>): This;
  <Path extends string>(path: Path, ...handlers: Array<HandlerArg<ParamsOfSyntax<Path, S>>>): This;
  (path: PathParams, ...handlers: Array<RequestHandler>): This;
  (path: PathParams, ...handlers: Array<ErrorRequestHandler>): This;
  (path: PathParams, ...handlers: HandlersEndingInRequestHandler): This;
  (path: PathParams, ...handlers: Array<HandlerArg>): This;
}

/** The methods routers and apps share: `use`, `all`, `route`, `param` and one per HTTP method. */
export interface RouterMethods<S extends PathSyntax = 'v5'> {
  /** Adds middleware (or mounts a router or app) on a path, `/` by default; while it runs, the mount point moves from `req.url` to `req.baseUrl`. */
  use: UseMatcher<this, S>;
  /** Routes requests of every method on a path to the handlers. */
  all: RouteMatcher<this, S>;
  /** Routes ACL requests on a path to the handlers. */
  acl: RouteMatcher<this, S>;
  /** Routes BIND requests on a path to the handlers. */
  bind: RouteMatcher<this, S>;
  /** Routes CHECKOUT requests on a path to the handlers. */
  checkout: RouteMatcher<this, S>;
  /** Routes CONNECT requests on a path to the handlers. */
  connect: RouteMatcher<this, S>;
  /** Routes COPY requests on a path to the handlers. */
  copy: RouteMatcher<this, S>;
  /** Routes DELETE requests on a path to the handlers. */
  delete: RouteMatcher<this, S>;
  /** Routes GET requests (and HEAD, unless HEAD has its own handler) on a path to the handlers. */
  get: RouteMatcher<this, S>;
  /** Routes HEAD requests on a path to the handlers. */
  head: RouteMatcher<this, S>;
  /** Routes LINK requests on a path to the handlers. */
  link: RouteMatcher<this, S>;
  /** Routes LOCK requests on a path to the handlers. */
  lock: RouteMatcher<this, S>;
  /** Routes M-SEARCH requests on a path to the handlers. */
  'm-search': RouteMatcher<this, S>;
  /** Routes MERGE requests on a path to the handlers. */
  merge: RouteMatcher<this, S>;
  /** Routes MKACTIVITY requests on a path to the handlers. */
  mkactivity: RouteMatcher<this, S>;
  /** Routes MKCALENDAR requests on a path to the handlers. */
  mkcalendar: RouteMatcher<this, S>;
  /** Routes MKCOL requests on a path to the handlers. */
  mkcol: RouteMatcher<this, S>;
  /** Routes MOVE requests on a path to the handlers. */
  move: RouteMatcher<this, S>;
  /** Routes NOTIFY requests on a path to the handlers. */
  notify: RouteMatcher<this, S>;
  /** Routes OPTIONS requests on a path to the handlers. */
  options: RouteMatcher<this, S>;
  /** Routes PATCH requests on a path to the handlers. */
  patch: RouteMatcher<this, S>;
  /** Routes POST requests on a path to the handlers. */
  post: RouteMatcher<this, S>;
  /** Routes PROPFIND requests on a path to the handlers. */
  propfind: RouteMatcher<this, S>;
  /** Routes PROPPATCH requests on a path to the handlers. */
  proppatch: RouteMatcher<this, S>;
  /** Routes PURGE requests on a path to the handlers. */
  purge: RouteMatcher<this, S>;
  /** Routes PUT requests on a path to the handlers. */
  put: RouteMatcher<this, S>;
  /** Routes QUERY requests (on Node versions whose `http.METHODS` has it) on a path to the handlers. */
  query: RouteMatcher<this, S>;
  /** Routes REBIND requests on a path to the handlers. */
  rebind: RouteMatcher<this, S>;
  /** Routes REPORT requests on a path to the handlers. */
  report: RouteMatcher<this, S>;
  /** Routes SEARCH requests on a path to the handlers. */
  search: RouteMatcher<this, S>;
  /** Routes SOURCE requests on a path to the handlers. */
  source: RouteMatcher<this, S>;
  /** Routes SUBSCRIBE requests on a path to the handlers. */
  subscribe: RouteMatcher<this, S>;
  /** Routes TRACE requests on a path to the handlers. */
  trace: RouteMatcher<this, S>;
  /** Routes UNBIND requests on a path to the handlers. */
  unbind: RouteMatcher<this, S>;
  /** Routes UNLINK requests on a path to the handlers. */
  unlink: RouteMatcher<this, S>;
  /** Routes UNLOCK requests on a path to the handlers. */
  unlock: RouteMatcher<this, S>;
  /** Routes UNSUBSCRIBE requests on a path to the handlers. */
  unsubscribe: RouteMatcher<this, S>;
  /** A new route on `path`, to chain `.get()`, `.post()` ... on; its handlers' `req.params` come from the path. */
  route<Path extends string>(path: Path): Route<ParamsOfSyntax<Path, S>>;
  /** A new route on a regular expression or an array of paths. */
  route(path: PathParams): Route;
  /** Adds a param trigger for `:name` (or each of several names), run once per request and value before the matching routes' handlers. */
  param(name: string | string[], handler: ParamHandler): this;
  /** A param trigger for a v5 wildcard (`*name`), whose value is an array of segments. */
  param(name: string | string[], handler: ParamHandler<string[]>): this;
}

/** `route.get(...handlers)`: plain request handlers first, for inline typing. */
export interface RouteMethod<P, This> {
  (...handlers: [RequestHandler<P>, ...Array<RequestHandler<P>>]): This;
  (...handlers: HandlersEndingInRequestHandler<P>): This;
  (...handlers: [HandlerArg<P>, ...Array<HandlerArg<P>>]): This;
}

/** A route: chain `.get()`, `.post()` ... on one path. */
export interface Route<P = ParamsDictionary> {
  /** The path the route was created on. */
  path: PathParams;
  /** The route's handlers, one layer each, in the order they were added. */
  stack: Layer[];
  /** The methods that have handlers, lower-case (`{ get: true }`); `_all` after `.all()`. */
  methods: Record<string, boolean | undefined>;
  /** Adds handlers for requests of every method to this route. */
  all: RouteMethod<P, this>;
  /** Adds handlers for ACL requests to this route. */
  acl: RouteMethod<P, this>;
  /** Adds handlers for BIND requests to this route. */
  bind: RouteMethod<P, this>;
  /** Adds handlers for CHECKOUT requests to this route. */
  checkout: RouteMethod<P, this>;
  /** Adds handlers for CONNECT requests to this route. */
  connect: RouteMethod<P, this>;
  /** Adds handlers for COPY requests to this route. */
  copy: RouteMethod<P, this>;
  /** Adds handlers for DELETE requests to this route. */
  delete: RouteMethod<P, this>;
  /** Adds handlers for GET requests (and HEAD, unless HEAD has its own handler) to this route. */
  get: RouteMethod<P, this>;
  /** Adds handlers for HEAD requests to this route. */
  head: RouteMethod<P, this>;
  /** Adds handlers for LINK requests to this route. */
  link: RouteMethod<P, this>;
  /** Adds handlers for LOCK requests to this route. */
  lock: RouteMethod<P, this>;
  /** Adds handlers for M-SEARCH requests to this route. */
  'm-search': RouteMethod<P, this>;
  /** Adds handlers for MERGE requests to this route. */
  merge: RouteMethod<P, this>;
  /** Adds handlers for MKACTIVITY requests to this route. */
  mkactivity: RouteMethod<P, this>;
  /** Adds handlers for MKCALENDAR requests to this route. */
  mkcalendar: RouteMethod<P, this>;
  /** Adds handlers for MKCOL requests to this route. */
  mkcol: RouteMethod<P, this>;
  /** Adds handlers for MOVE requests to this route. */
  move: RouteMethod<P, this>;
  /** Adds handlers for NOTIFY requests to this route. */
  notify: RouteMethod<P, this>;
  /** Adds handlers for OPTIONS requests to this route. */
  options: RouteMethod<P, this>;
  /** Adds handlers for PATCH requests to this route. */
  patch: RouteMethod<P, this>;
  /** Adds handlers for POST requests to this route. */
  post: RouteMethod<P, this>;
  /** Adds handlers for PROPFIND requests to this route. */
  propfind: RouteMethod<P, this>;
  /** Adds handlers for PROPPATCH requests to this route. */
  proppatch: RouteMethod<P, this>;
  /** Adds handlers for PURGE requests to this route. */
  purge: RouteMethod<P, this>;
  /** Adds handlers for PUT requests to this route. */
  put: RouteMethod<P, this>;
  /** Adds handlers for QUERY requests (on Node versions whose `http.METHODS` has it) to this route. */
  query: RouteMethod<P, this>;
  /** Adds handlers for REBIND requests to this route. */
  rebind: RouteMethod<P, this>;
  /** Adds handlers for REPORT requests to this route. */
  report: RouteMethod<P, this>;
  /** Adds handlers for SEARCH requests to this route. */
  search: RouteMethod<P, this>;
  /** Adds handlers for SOURCE requests to this route. */
  source: RouteMethod<P, this>;
  /** Adds handlers for SUBSCRIBE requests to this route. */
  subscribe: RouteMethod<P, this>;
  /** Adds handlers for TRACE requests to this route. */
  trace: RouteMethod<P, this>;
  /** Adds handlers for UNBIND requests to this route. */
  unbind: RouteMethod<P, this>;
  /** Adds handlers for UNLINK requests to this route. */
  unlink: RouteMethod<P, this>;
  /** Adds handlers for UNLOCK requests to this route. */
  unlock: RouteMethod<P, this>;
  /** Adds handlers for UNSUBSCRIBE requests to this route. */
  unsubscribe: RouteMethod<P, this>;
}

/** One entry of a router's or route's stack. */
export interface Layer {
  /** What the layer runs: a handler, a router or an app. */
  handle: HandlerOfAnyKind | Application | Router;
  /** The handler's function name, or `<anonymous>`. */
  name: string;
  /** The parameters of the layer's last match. */
  params: Record<string, unknown> | undefined;
  /** The part of the path the layer's last match consumed. */
  path: string | undefined;
  /** The parameters the layer's path declares. */
  keys: Array<{
    /** The parameter's name, or its index for an unnamed capture. */
    name: string | number;
    /** Whether the parameter may be absent. */
    optional?: boolean;
  }>;
  /** A route's layer: its method, lower-case (`undefined` for `.all()`); `undefined` in a router's stack. */
  method: string | undefined;
  /** The route a router's layer dispatches to. */
  route?: Route;
}

/** The options of `trestle.Router()`; each defaults to false. */
export interface RouterOptions {
  /** Distinguish `/Foo` from `/foo`. */
  caseSensitive?: boolean;
  /** Keep the parent router's `req.params`. */
  mergeParams?: boolean;
  /** Distinguish `/foo` from `/foo/`. */
  strict?: boolean;
}

/** A router: a mini-application of middleware and routes, itself a middleware. */
export interface Router<S extends PathSyntax = 'v5'> extends RouterMethods<S> {
  (req: http.IncomingMessage, res: http.ServerResponse, next: NextFunction): void;
  /** The middleware and route layers, in the order they were added. */
  stack: Layer[];
  /** The param triggers, by parameter name. */
  params: Record<string, ParamHandler[]>;
  /** The `caseSensitive` option the router was created with. */
  caseSensitive: boolean;
  /** The `mergeParams` option the router was created with. */
  mergeParams: boolean;
  /** The `strict` option the router was created with. */
  strict: boolean;
  /** Runs a request through the stack; `done` is called when no layer answered, or with the error. */
  handle(req: http.IncomingMessage, res: http.ServerResponse, done: NextFunction): void;
}

/** A template engine callback: `(path, options, callback)`. */
export type EngineCallback = (path: string, options: object, callback: RenderCallback) => void;

/** Settings Express users read and write, with their value types. */
export interface KnownSettings {
  /** The environment mode; default `NODE_ENV`, else `'development'`. */
  env: string;
  /** Which peers to believe about `X-Forwarded-*`: `true`, a hop count, addresses or subnets (`'loopback'`, a comma list, an array), or `(addr, i) => boolean`. Default false. */
  'trust proxy': boolean | number | string | string[] | ((addr: string, i: number) => boolean);
  /** The query parameter that names the JSONP callback; default `'callback'`. */
  'jsonp callback name': string;
  /** The `JSON.stringify` replacer of `res.json()`. */
  'json replacer': ((this: unknown, key: string, value: unknown) => unknown) | Array<string | number> | null | undefined;
  /** The indentation of `res.json()`. */
  'json spaces': number | string | undefined;
  /** Escape `<`, `>` and `&` in JSON answers. Default false. */
  'json escape': boolean;
  /** `/Foo` and `/foo` differ; read when the app router is created. Default false. */
  'case sensitive routing': boolean;
  /** `/foo` and `/foo/` differ; read when the app router is created. Default false. */
  'strict routing': boolean;
  /** Keep looked-up views and let engines cache templates; default on when `env` is `production`. */
  'view cache': boolean;
  /** The extension a view name without one gets, such as `'ejs'`. */
  'view engine': string | undefined;
  /** The directory of views, or directories searched in order; default `views` in the working directory. */
  views: string | string[];
  /** How `req.query` is parsed: `'simple'` (node's `querystring`; v5's default), `'extended'` (`qs`; v4's default), `false` for `{}`, or a function. */
  'query parser': boolean | 'simple' | 'extended' | ((str: string) => object);
  /** How many labels at the right of the host name `req.subdomains` leaves out; default 2. */
  'subdomain offset': number;
  /** The `ETag` `res.send()` computes: `'weak'` (default, or `true`), `'strong'`, `false` for none, or `(body, encoding) => tag`. */
  etag: boolean | 'weak' | 'strong' | ((body: Buffer | string, encoding?: BufferEncoding) => string | undefined);
  /** Send `X-Powered-By: Trestle`. Default on. */
  'x-powered-by': boolean;
  /** The class views are looked up with; default the built-in one. */
  view: ViewConstructor;
}

/** A setting's name: a known one, or any other string. */
export type SettingName = keyof KnownSettings | (string & {});
/** A setting's value type: the known one for a known name, else `unknown`. */
export type SettingOf<K extends string> = K extends keyof KnownSettings ? KnownSettings[K] : unknown;

/** The variables every template of an app sees; also callable to merge an object in. */
export type AppLocals<L extends Record<string, unknown> = Record<string, unknown>> = L &
  Locals & {
    /** The app's settings, as templates see them. */
    settings: Record<string, unknown>;
  } & ((obj: Record<string, unknown>) => AppLocals<L>);

/** A view class, for `app.set('view', MyView)`. */
export interface ViewConstructor {
  new (name: string, options: { defaultEngine: string | undefined; root: string | string[]; engines: Record<string, EngineCallback> }): ViewInstance;
}

/** A view as a {@link ViewConstructor} makes it for one name. */
export interface ViewInstance {
  /** The file found; falsy when the view does not exist (a lookup error). */
  path?: string | undefined;
  /** The name the view was looked up by. */
  name?: string;
  /** The directory or directories it was looked up in. */
  root?: string | string[];
  /** Renders the view with the merged locals. */
  render(options: object, callback: RenderCallback): void;
}

/** `app.get(name)` reads a setting; `app.get(path, ...handlers)` routes. */
export interface AppGet<This, S extends PathSyntax = 'v5'> extends RouteMatcher<This, S> {
  <const K extends string>(name: K): SettingOf<K>;
}

/** An application: a request handler function with settings, routing and views. */
export interface Application<L extends Record<string, unknown> = Record<string, unknown>, S extends PathSyntax = 'v5'>
  extends EventEmitter,
    RouterMethods<S> {
  /**
   * The request listener of node's HTTP/1.1 and HTTP/2 servers:
   * `http.createServer(app)`, `http2.createSecureServer(options, app)`. One
   * signature taking either, as TypeScript infers from the last overload only.
   */
  (req: http.IncomingMessage | Http2ServerRequest, res: http.ServerResponse | Http2ServerResponse, next?: NextFunction): void;
  /** With one argument, read a setting; with a path and handlers, route GET (and HEAD). */
  get: AppGet<this, S>;
  /** Sets a setting; `etag`, `query parser` and `trust proxy` are compiled here, and an invalid value is a TypeError. */
  set<K extends string>(name: K, value: SettingOf<K>): this;
  /** With one argument, reads a setting, as `app.get(name)` does. */
  set<K extends string>(name: K): SettingOf<K>;
  /** Sets a setting to `true`. */
  enable(name: SettingName): this;
  /** Sets a setting to `false`. */
  disable(name: SettingName): this;
  /** Whether a setting is truthy. */
  enabled(name: SettingName): boolean;
  /** Whether a setting is falsy. */
  disabled(name: SettingName): boolean;
  /** Registers the template engine for an extension (with or without its dot). */
  engine(ext: string, fn: EngineCallback): this;
  /** Renders a view with `app.locals`, without a response: `callback(err, html)`. */
  render(name: string, callback: RenderCallback): void;
  /** Renders a view with `app.locals` and `options` (which win), without a response. */
  render(name: string, options: object, callback: RenderCallback): void;
  /** Creates an `http.Server` for the app and listens as `server.listen()` does; the callback also hears of a listen error. */
  listen(port?: number, hostname?: string, backlog?: number, callback?: (err?: Error) => void): http.Server;
  /** Listens on `port` and `hostname`. */
  listen(port?: number, hostname?: string, callback?: (err?: Error) => void): http.Server;
  /** Listens on `port` (a free one when omitted or 0). */
  listen(port?: number, callback?: (err?: Error) => void): http.Server;
  /** Listens on a Unix socket or Windows pipe path. */
  listen(path: string, callback?: (err?: Error) => void): http.Server;
  /** Listens on a handle (a server, a socket, `{ fd }`) or with a `server.listen()` options object. */
  listen(handle: unknown, listeningListener?: (err?: Error) => void): http.Server;
  /** The absolute mount path of this app. */
  path(): string;
  /** Runs a request through the app's router, then `callback`, or the final handler (the 404 and error pages). */
  handle(req: http.IncomingMessage, res: http.ServerResponse, callback?: NextFunction): void;
  /** Variables every view of the app sees, `settings` among them; callable to merge an object in. */
  locals: AppLocals<L>;
  /** The settings by name; a mounted app inherits those of its parent it did not set. */
  settings: Record<string, unknown>;
  /** The registered template engines, by extension with its dot. */
  engines: Record<string, EngineCallback>;
  /** The path or paths the app was mounted on; `/` when it is not mounted. */
  mountpath: string | string[];
  /** The app this one was mounted on. */
  parent?: Application;
  /** The application router, created on first use. */
  readonly router: Router<S>;
  /** The prototype of this app's `req`: members added here reach the requests of this app and its sub-apps only. */
  request: Request;
  /** The prototype of this app's `res`: members added here reach the responses of this app and its sub-apps only. */
  response: Response;
  /** Sets up a new app's settings, locals and engines; `trestle()` calls it. */
  init(): void;
}

/** `new trestle.Route(path)`. */
export interface RouteConstructor {
  new (path: PathParams): Route;
}

/** The factory `require('trestle')` returns, with its members. */
export interface Trestle<S extends PathSyntax = 'v5'> {
  /** Creates an application. */
  <L extends Record<string, unknown> = Record<string, unknown>>(): Application<L, S>;
  /** The prototype every app's methods come from. */
  application: object;
  /** The prototype every app's `req` inherits from. */
  request: Request;
  /** The prototype every app's `res` inherits from. */
  response: Response;
  /** Creates a router: `trestle.Router({ mergeParams: true })`. */
  Router(options?: RouterOptions): Router<S>;
  /** The route class: `new trestle.Route(path)`. */
  Route: RouteConstructor;
  /** Parses JSON bodies into `req.body`. */
  json(options?: JsonOptions): RequestHandler;
  /** Parses `application/x-www-form-urlencoded` bodies into `req.body`. */
  urlencoded(options?: UrlencodedOptions): RequestHandler;
  /** Reads bodies into `req.body` as a Buffer. */
  raw(options?: RawOptions): RequestHandler;
  /** Reads bodies into `req.body` as a string. */
  text(options?: TextOptions): RequestHandler;
  /** Serves the files under `root`. */
  static(root: string, options?: StaticOptions): RequestHandler;
}

/** Options every body parser (`json`, `urlencoded`, `raw`, `text`) takes. */
export interface BodyParserOptions {
  /** Largest body accepted (after inflating): bytes, or a string such as `'1mb'`. Default `'100kb'`. */
  limit?: number | string | undefined;
  /** Inflate gzip, deflate and br bodies; when false they are refused with 415. Default true. */
  inflate?: boolean | undefined;
  /** Which requests to parse: a type-is pattern (`'json'`, `'text/*'`, `'application/*+json'`), a list, or a predicate. */
  type?: string | string[] | ((req: http.IncomingMessage) => unknown) | undefined;
  /** Sees the raw body before it is parsed; throw to refuse it (403 `entity.verify.failed`). */
  verify?(req: Request, res: Response, buf: Buffer, encoding: string | null): void;
}

/** The options of `trestle.json()`. */
export interface JsonOptions extends BodyParserOptions {
  /** Accept only objects and arrays at the top level. Default true. */
  strict?: boolean | undefined;
  /** Passed to `JSON.parse` as its second argument. */
  reviver?: ((this: unknown, key: string, value: unknown) => unknown) | undefined;
  /** Charset when the request names none. Default `'utf-8'`. */
  defaultCharset?: string | undefined;
}

/** The options of `trestle.urlencoded()`. */
export interface UrlencodedOptions extends BodyParserOptions {
  /** Parse nested objects and arrays (`a[b]=1`) with `qs`. Default false. */
  extended?: boolean | undefined;
  /** Most `&`-separated parameters accepted (413 `parameters.too.many` beyond). Default 1000. */
  parameterLimit?: number | undefined;
  /** Deepest nesting with `extended` (400 beyond). Default 32. */
  depth?: number | undefined;
  /** Charset when the request names none: `'utf-8'` or `'iso-8859-1'`. Default `'utf-8'`. */
  defaultCharset?: 'utf-8' | 'iso-8859-1' | undefined;
  /** Let a `utf8=✓` parameter choose the charset. Default false. */
  charsetSentinel?: boolean | undefined;
  /** Decode `&#9786;`-style entities in iso-8859-1 forms. Default false. */
  interpretNumericEntities?: boolean | undefined;
}

/** The options of `trestle.raw()`: those every body parser takes. */
export interface RawOptions extends BodyParserOptions {}

/** The options of `trestle.text()`. */
export interface TextOptions extends BodyParserOptions {
  /** Charset when the request names none. Default `'utf-8'`. */
  defaultCharset?: string | undefined;
}

/** The options of `trestle.static(root, options)`. */
export interface StaticOptions {
  /** Answer `Range` requests (206/416) and send `Accept-Ranges`. Default true. */
  acceptRanges?: boolean | undefined;
  /** Send `Cache-Control`. Default true. */
  cacheControl?: boolean | undefined;
  /** Paths with a segment starting with a dot: `'ignore'` (404), `'deny'` (403) or `'allow'`. Default `'ignore'`. */
  dotfiles?: 'allow' | 'deny' | 'ignore' | undefined;
  /** Send a weak `ETag`. Default true. */
  etag?: boolean | undefined;
  /** Extensions to try when a file is not found, such as `['html', 'htm']`. Default false. */
  extensions?: string[] | string | false | undefined;
  /** 404/405 and other client errors call `next()` (true) or `next(err)` (false). Default true. */
  fallthrough?: boolean | undefined;
  /** Add `immutable` to `Cache-Control`. Default false. */
  immutable?: boolean | undefined;
  /** The file served for a directory, a list tried in order, or false. Default `'index.html'`. */
  index?: string[] | string | false | undefined;
  /** Send `Last-Modified`. Default true. */
  lastModified?: boolean | undefined;
  /** `Cache-Control` max-age, in milliseconds or an `ms` string such as `'1d'`. Default 0. */
  maxAge?: number | string | undefined;
  /** Redirect a directory to its path with a trailing slash. Default true. */
  redirect?: boolean | undefined;
  /** Called with the file about to be sent, to set headers synchronously. */
  setHeaders?: ((res: Response, path: string, stat: import('node:fs').Stats) => void) | undefined;
}
