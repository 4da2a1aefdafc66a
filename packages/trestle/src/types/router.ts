// Routing: routers, routes, their layers, and the methods apps and routers
// share (`use`, `route`, `param`, one per HTTP method), typed from the path.
import type * as http from 'node:http';
import type { ApplicationOf, DefaultLocals, Generation, LocalsRecord, Untyped } from './generation';
import type { ErrorRequestHandler, HandlerArg, HandlerOfAnyKind, HandlersEndingInRequestHandler, NextFunction, ParamHandler, RequestHandler } from './handlers';
import type { RouterOptions } from './options';
import type { ParamsDictionary, ParamsOfSyntax, ParsedQs } from './params';
import type { ValidatedHandler, ValidateMiddleware, ValidateSchemas } from './validate';

/** A path a route or a middleware can be defined on. */
export type PathParams = string | RegExp | Array<string | RegExp>;

/**
 * `app.get('/users/:id', handler)`: the path's parameters reach `req.params`.
 * The overloads taking only request handlers come first so that inline
 * handlers get their parameter types from the path; next, any handlers
 * ending in a request handler, which is typed from the path too.
 */
export interface RouteMatcher<This, G extends Generation = 'v5'> {
  /** After `trestle.validate(schemas)`, the handlers see the schemas' output types (validate.ts). */
  <Path extends string, S extends ValidateSchemas, L extends LocalsRecord = DefaultLocals>(path: Path, validator: ValidateMiddleware<S>, ...handlers: [ValidatedHandler<ParamsOfSyntax<Path, G>, S, L, G>, ...Array<ValidatedHandler<ParamsOfSyntax<Path, G>, S, L, G>>]): This;
  <Path extends string, P = ParamsOfSyntax<Path, G>, ResBody = Untyped, ReqBody = Untyped, ReqQuery = ParsedQs, L extends LocalsRecord = DefaultLocals>(
    path: Path,
    ...handlers: [RequestHandler<P, ResBody, ReqBody, ReqQuery, L, G>, ...Array<RequestHandler<P, ResBody, ReqBody, ReqQuery, L, G>>]
  ): This;
  <Path extends string>(path: Path, ...handlers: HandlersEndingInRequestHandler<ParamsOfSyntax<Path, G>, G>): This;
  <Path extends string, P = ParamsOfSyntax<Path, G>, ResBody = Untyped, ReqBody = Untyped, ReqQuery = ParsedQs>(
    path: Path,
    ...handlers: [HandlerArg<P, ResBody, ReqBody, ReqQuery, G>, ...Array<HandlerArg<P, ResBody, ReqBody, ReqQuery, G>>]
  ): This;
  <P = ParamsDictionary, ResBody = Untyped, ReqBody = Untyped, ReqQuery = ParsedQs, L extends LocalsRecord = DefaultLocals>(
    path: PathParams,
    ...handlers: [RequestHandler<P, ResBody, ReqBody, ReqQuery, L, G>, ...Array<RequestHandler<P, ResBody, ReqBody, ReqQuery, L, G>>]
  ): This;
  (path: PathParams, ...handlers: HandlersEndingInRequestHandler<ParamsDictionary, G>): This;
  <P = ParamsDictionary, ResBody = Untyped, ReqBody = Untyped, ReqQuery = ParsedQs>(
    path: PathParams,
    ...handlers: [HandlerArg<P, ResBody, ReqBody, ReqQuery, G>, ...Array<HandlerArg<P, ResBody, ReqBody, ReqQuery, G>>]
  ): This;
  /** `trestle/v4` and `trestle/legacy` only: a path without handlers adds a route that never answers, as Express 4 does. */
  (path: G extends 'v5' ? never : PathParams): This;
}

/** `router.use([path], ...handlers)`; error handlers have their own overloads. */
export interface UseMatcher<This, G extends Generation = 'v5'> {
  (...handlers: Array<RequestHandler<ParamsDictionary, Untyped, Untyped, ParsedQs, DefaultLocals, G>>): This;
  (...handlers: Array<ErrorRequestHandler<ParamsDictionary, Untyped, Untyped, ParsedQs, DefaultLocals, G>>): This;
  (...handlers: HandlersEndingInRequestHandler<ParamsDictionary, G>): This;
  (...handlers: Array<HandlerArg<ParamsDictionary, Untyped, Untyped, ParsedQs, G>>): This;
  <Path extends string>(path: Path, ...handlers: Array<RequestHandler<ParamsOfSyntax<Path, G>, Untyped, Untyped, ParsedQs, DefaultLocals, G>>): This;
  <Path extends string>(path: Path, ...handlers: Array<ErrorRequestHandler<ParamsOfSyntax<Path, G>, Untyped, Untyped, ParsedQs, DefaultLocals, G>>): This;
  <Path extends string>(path: Path, ...handlers: HandlersEndingInRequestHandler<ParamsOfSyntax<Path, G>, G>): This;
  <Path extends string>(path: Path, ...handlers: Array<HandlerArg<ParamsOfSyntax<Path, G>, Untyped, Untyped, ParsedQs, G>>): This;
  (path: PathParams, ...handlers: Array<RequestHandler<ParamsDictionary, Untyped, Untyped, ParsedQs, DefaultLocals, G>>): This;
  (path: PathParams, ...handlers: Array<ErrorRequestHandler<ParamsDictionary, Untyped, Untyped, ParsedQs, DefaultLocals, G>>): This;
  (path: PathParams, ...handlers: HandlersEndingInRequestHandler<ParamsDictionary, G>): This;
  (path: PathParams, ...handlers: Array<HandlerArg<ParamsDictionary, Untyped, Untyped, ParsedQs, G>>): This;
}

/** The methods routers and apps share: `use`, `all`, `route`, `param` and one per HTTP method. */
export interface RouterMethods<G extends Generation = 'v5'> {
  /** Adds middleware (or mounts a router or app) on a path, `/` by default; while it runs, the mount point moves from `req.url` to `req.baseUrl`. */
  use: UseMatcher<this, G>;
  /** Routes requests of every method on a path to the handlers. */
  all: RouteMatcher<this, G>;
  /** Routes ACL requests on a path to the handlers. */
  acl: RouteMatcher<this, G>;
  /** Routes BIND requests on a path to the handlers. */
  bind: RouteMatcher<this, G>;
  /** Routes CHECKOUT requests on a path to the handlers. */
  checkout: RouteMatcher<this, G>;
  /** Routes CONNECT requests on a path to the handlers. */
  connect: RouteMatcher<this, G>;
  /** Routes COPY requests on a path to the handlers. */
  copy: RouteMatcher<this, G>;
  /** Routes DELETE requests on a path to the handlers. */
  delete: RouteMatcher<this, G>;
  /** Routes GET requests (and HEAD, unless HEAD has its own handler) on a path to the handlers. */
  get: RouteMatcher<this, G>;
  /** Routes HEAD requests on a path to the handlers. */
  head: RouteMatcher<this, G>;
  /** Routes LINK requests on a path to the handlers. */
  link: RouteMatcher<this, G>;
  /** Routes LOCK requests on a path to the handlers. */
  lock: RouteMatcher<this, G>;
  /** Routes M-SEARCH requests on a path to the handlers. */
  'm-search': RouteMatcher<this, G>;
  /** Routes MERGE requests on a path to the handlers. */
  merge: RouteMatcher<this, G>;
  /** Routes MKACTIVITY requests on a path to the handlers. */
  mkactivity: RouteMatcher<this, G>;
  /** Routes MKCALENDAR requests on a path to the handlers. */
  mkcalendar: RouteMatcher<this, G>;
  /** Routes MKCOL requests on a path to the handlers. */
  mkcol: RouteMatcher<this, G>;
  /** Routes MOVE requests on a path to the handlers. */
  move: RouteMatcher<this, G>;
  /** Routes NOTIFY requests on a path to the handlers. */
  notify: RouteMatcher<this, G>;
  /** Routes OPTIONS requests on a path to the handlers. */
  options: RouteMatcher<this, G>;
  /** Routes PATCH requests on a path to the handlers. */
  patch: RouteMatcher<this, G>;
  /** Routes POST requests on a path to the handlers. */
  post: RouteMatcher<this, G>;
  /** Routes PROPFIND requests on a path to the handlers. */
  propfind: RouteMatcher<this, G>;
  /** Routes PROPPATCH requests on a path to the handlers. */
  proppatch: RouteMatcher<this, G>;
  /** Routes PURGE requests on a path to the handlers. */
  purge: RouteMatcher<this, G>;
  /** Routes PUT requests on a path to the handlers. */
  put: RouteMatcher<this, G>;
  /** Routes QUERY requests (on Node versions whose `http.METHODS` has it) on a path to the handlers. */
  query: RouteMatcher<this, G>;
  /** Routes REBIND requests on a path to the handlers. */
  rebind: RouteMatcher<this, G>;
  /** Routes REPORT requests on a path to the handlers. */
  report: RouteMatcher<this, G>;
  /** Routes SEARCH requests on a path to the handlers. */
  search: RouteMatcher<this, G>;
  /** Routes SOURCE requests on a path to the handlers. */
  source: RouteMatcher<this, G>;
  /** Routes SUBSCRIBE requests on a path to the handlers. */
  subscribe: RouteMatcher<this, G>;
  /** Routes TRACE requests on a path to the handlers. */
  trace: RouteMatcher<this, G>;
  /** Routes UNBIND requests on a path to the handlers. */
  unbind: RouteMatcher<this, G>;
  /** Routes UNLINK requests on a path to the handlers. */
  unlink: RouteMatcher<this, G>;
  /** Routes UNLOCK requests on a path to the handlers. */
  unlock: RouteMatcher<this, G>;
  /** Routes UNSUBSCRIBE requests on a path to the handlers. */
  unsubscribe: RouteMatcher<this, G>;
  /** A new route on `path`, to chain `.get()`, `.post()` ... on; its handlers' `req.params` come from the path. */
  route<Path extends string>(path: Path): Route<ParamsOfSyntax<Path, G>, G>;
  /** A new route on a regular expression or an array of paths. */
  route(path: PathParams): Route<ParamsDictionary, G>;
  /** Adds a param trigger for `:name` (or each of several names), run once per request and value before the matching routes' handlers. */
  param(name: string | string[], handler: ParamHandler<string, G>): this;
  /** A param trigger for a v5 wildcard (`*name`), whose value is an array of segments. */
  param(name: string | string[], handler: ParamHandler<string[], G>): this;
}

/**
 * `route.get(...handlers)`: plain request handlers first, for inline typing;
 * type arguments as on `app.get<Params, ResBody, ReqBody, Query, Locals>()`.
 */
export interface RouteMethod<P, This, G extends Generation = 'v5'> {
  /** After `trestle.validate(schemas)`, the handlers see the schemas' output types (validate.ts). */
  <S extends ValidateSchemas, L extends LocalsRecord = DefaultLocals>(validator: ValidateMiddleware<S>, ...handlers: [ValidatedHandler<P, S, L, G>, ...Array<ValidatedHandler<P, S, L, G>>]): This;
  <P2 = P, ResBody = Untyped, ReqBody = Untyped, ReqQuery = ParsedQs, L extends LocalsRecord = DefaultLocals>(
    ...handlers: [RequestHandler<P2, ResBody, ReqBody, ReqQuery, L, G>, ...Array<RequestHandler<P2, ResBody, ReqBody, ReqQuery, L, G>>]
  ): This;
  (...handlers: HandlersEndingInRequestHandler<P, G>): This;
  <P2 = P, ResBody = Untyped, ReqBody = Untyped, ReqQuery = ParsedQs>(
    ...handlers: [HandlerArg<P2, ResBody, ReqBody, ReqQuery, G>, ...Array<HandlerArg<P2, ResBody, ReqBody, ReqQuery, G>>]
  ): This;
  /** `trestle/v4` and `trestle/legacy` only: no handler at all, which Express 4 accepts. */
  (...none: G extends 'v5' ? [never] : []): This;
}

/** A route: chain `.get()`, `.post()` ... on one path. */
export interface Route<P = ParamsDictionary, G extends Generation = 'v5'> extends RouteMethods<P, G> {
  /** The path the route was created on. */
  path: PathParams;
  /** The route's handlers, one layer each, in the order they were added. */
  stack: Layer[];
  /** The methods that have handlers, lower-case (`{ get: true }`); `_all` after `.all()`. */
  methods: Record<string, boolean | undefined>;
}

/** The methods every route inherits from `Route.prototype`, where tools patch them: `.all()` and one per HTTP method. */
export interface RouteMethods<P = ParamsDictionary, G extends Generation = 'v5'> {
  /** Adds handlers for requests of every method to this route. */
  all: RouteMethod<P, this, G>;
  /** Adds handlers for ACL requests to this route. */
  acl: RouteMethod<P, this, G>;
  /** Adds handlers for BIND requests to this route. */
  bind: RouteMethod<P, this, G>;
  /** Adds handlers for CHECKOUT requests to this route. */
  checkout: RouteMethod<P, this, G>;
  /** Adds handlers for CONNECT requests to this route. */
  connect: RouteMethod<P, this, G>;
  /** Adds handlers for COPY requests to this route. */
  copy: RouteMethod<P, this, G>;
  /** Adds handlers for DELETE requests to this route. */
  delete: RouteMethod<P, this, G>;
  /** Adds handlers for GET requests (and HEAD, unless HEAD has its own handler) to this route. */
  get: RouteMethod<P, this, G>;
  /** Adds handlers for HEAD requests to this route. */
  head: RouteMethod<P, this, G>;
  /** Adds handlers for LINK requests to this route. */
  link: RouteMethod<P, this, G>;
  /** Adds handlers for LOCK requests to this route. */
  lock: RouteMethod<P, this, G>;
  /** Adds handlers for M-SEARCH requests to this route. */
  'm-search': RouteMethod<P, this, G>;
  /** Adds handlers for MERGE requests to this route. */
  merge: RouteMethod<P, this, G>;
  /** Adds handlers for MKACTIVITY requests to this route. */
  mkactivity: RouteMethod<P, this, G>;
  /** Adds handlers for MKCALENDAR requests to this route. */
  mkcalendar: RouteMethod<P, this, G>;
  /** Adds handlers for MKCOL requests to this route. */
  mkcol: RouteMethod<P, this, G>;
  /** Adds handlers for MOVE requests to this route. */
  move: RouteMethod<P, this, G>;
  /** Adds handlers for NOTIFY requests to this route. */
  notify: RouteMethod<P, this, G>;
  /** Adds handlers for OPTIONS requests to this route. */
  options: RouteMethod<P, this, G>;
  /** Adds handlers for PATCH requests to this route. */
  patch: RouteMethod<P, this, G>;
  /** Adds handlers for POST requests to this route. */
  post: RouteMethod<P, this, G>;
  /** Adds handlers for PROPFIND requests to this route. */
  propfind: RouteMethod<P, this, G>;
  /** Adds handlers for PROPPATCH requests to this route. */
  proppatch: RouteMethod<P, this, G>;
  /** Adds handlers for PURGE requests to this route. */
  purge: RouteMethod<P, this, G>;
  /** Adds handlers for PUT requests to this route. */
  put: RouteMethod<P, this, G>;
  /** Adds handlers for QUERY requests (on Node versions whose `http.METHODS` has it) to this route. */
  query: RouteMethod<P, this, G>;
  /** Adds handlers for REBIND requests to this route. */
  rebind: RouteMethod<P, this, G>;
  /** Adds handlers for REPORT requests to this route. */
  report: RouteMethod<P, this, G>;
  /** Adds handlers for SEARCH requests to this route. */
  search: RouteMethod<P, this, G>;
  /** Adds handlers for SOURCE requests to this route. */
  source: RouteMethod<P, this, G>;
  /** Adds handlers for SUBSCRIBE requests to this route. */
  subscribe: RouteMethod<P, this, G>;
  /** Adds handlers for TRACE requests to this route. */
  trace: RouteMethod<P, this, G>;
  /** Adds handlers for UNBIND requests to this route. */
  unbind: RouteMethod<P, this, G>;
  /** Adds handlers for UNLINK requests to this route. */
  unlink: RouteMethod<P, this, G>;
  /** Adds handlers for UNLOCK requests to this route. */
  unlock: RouteMethod<P, this, G>;
  /** Adds handlers for UNSUBSCRIBE requests to this route. */
  unsubscribe: RouteMethod<P, this, G>;
}

/** One entry of a router's or route's stack. */
export interface Layer {
  /** What the layer runs: a handler, a router or an app. */
  handle: HandlerOfAnyKind | ApplicationOf<Generation> | Router<Generation>;
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
    /** `trestle/v4`: where path-to-regexp 0.1 placed it, as on Express 4's layers. */
    offset?: number;
  }>;
  /** A route's layer: its method, lower-case (`undefined` for `.all()`); `undefined` in a router's stack. */
  method: string | undefined;
  /** The route a router's layer dispatches to. */
  route?: Route<ParamsDictionary, Generation>;
}

/**
 * What every router inherits, where tools patch it: the routing methods and
 * `handle`. In `trestle` it is `Router.prototype`; in `trestle/v4` and
 * `trestle/legacy`, as in Express 4, `Router` itself.
 */
export interface RouterPrototype<G extends Generation = 'v5'> extends RouterMethods<G> {
  /** Runs a request through the stack; `done` is called when no layer answered, or with the error. */
  handle(req: http.IncomingMessage, res: http.ServerResponse, done: NextFunction): void;
}

/** A router: a mini-application of middleware and routes, itself a middleware. */
export interface Router<G extends Generation = 'v5'> extends RouterPrototype<G> {
  (req: http.IncomingMessage, res: http.ServerResponse, next: NextFunction): void;
  /** The middleware and route layers, in the order they were added. */
  stack: Layer[];
  /** The param triggers, by parameter name. */
  params: Record<string, Array<ParamHandler<string, G>>>;
  /** The `caseSensitive` option the router was created with. */
  caseSensitive: boolean;
  /** The `mergeParams` option the router was created with. */
  mergeParams: boolean;
  /** The `strict` option the router was created with. */
  strict: boolean;
}

/** `new trestle.Route(path)`; `Route.prototype` holds the methods every route inherits. */
export interface RouteConstructor<G extends Generation = 'v5'> {
  new (path: PathParams): Route<ParamsDictionary, G>;
  /** The methods every route inherits: a function replaced here applies to every route. */
  readonly prototype: RouteMethods<ParamsDictionary, G>;
}

/** `trestle.Router`: creates a router, called as a function or with `new`. */
export interface RouterConstructor<G extends Generation = 'v5'> {
  (options?: RouterOptions): Router<G>;
  new (options?: RouterOptions): Router<G>;
}

/** `trestle.Router` of Express 5 (router 2): routers inherit `Router.prototype`, and `Router.Route` is the route class. */
export interface RouterClass extends RouterConstructor<'v5'> {
  /** The methods every router (and app) inherits: a function replaced here applies to every router. */
  readonly prototype: RouterPrototype<'v5'>;
  /** The route class, the same as `trestle.Route` (`req.route instanceof Router.Route`). */
  Route: RouteConstructor<'v5'>;
}

/**
 * `trestle.Router` of Express 4 (and of `trestle/legacy`): it is itself the
 * prototype of every router, so its methods are the routers' methods
 * (`trestle.Router.use`); `Router.prototype` is an ordinary function's.
 */
export interface RouterPrototypeFactory<G extends 'v4' | 'legacy'> extends RouterConstructor<G>, RouterPrototype<G> {
  /** An ordinary function's prototype: the routers' methods are on `Router` itself. */
  readonly prototype: object;
}
