/**
 * `require('trestle/v4')`: the framework with Express 4's behaviour, for
 * Express 4 apps that change only their `require`.
 *
 * @module trestle/v4
 */
import { createFramework } from './framework';
import { installPlatform } from './platforms/install';
import { v4 } from './generations/v4/index';
import type * as T from './types';

// The platform under the app (what it refuses, app.fetch), installed into the core.
installPlatform();

/**
 * The factory with Express 4's behaviour: `trestle()` creates an application
 * whose paths use the v4 syntax (`:id?`, `:id(\d+)`, `*`) and whose
 * request and response keep Express 4's API.
 */
const trestle = createFramework(v4) as unknown as T.TrestleV4;

// The upgrade report (docs/migrating-v4.md): its checks are installed now or
// never, so with the variable unset nothing of it is loaded or run.
const upgradeReport = process.env.TRESTLE_UPGRADE_REPORT;
if (upgradeReport) (require('./upgrade/enable') as typeof import('./upgrade/enable')).enableFromEnv(trestle as never, upgradeReport);

/** The type names Express users import, with `@types/express`'s parameter order. */
declare namespace trestle {
  /** An application, as `trestle()` returns it; `L` types `app.locals`. Its paths use the v4 path syntax. */
  export interface Application<L extends T.LocalsRecord = T.DefaultLocals> extends T.ApplicationV4<L> {}
  /** The request handlers receive: node's `IncomingMessage` with Express's `req` properties and methods. */
  export interface Request<P = T.ParamsDictionary, ResBody = T.Untyped, ReqBody = T.Untyped, ReqQuery = T.ParsedQs, L extends T.LocalsRecord = T.DefaultLocals> extends T.RequestV4<P, ResBody, ReqBody, ReqQuery, L> {}
  /** The response handlers receive: node's `ServerResponse` with Express's `res` methods; `StatusCode` types `res.status()`. */
  export interface Response<ResBody = T.Untyped, L extends T.LocalsRecord = T.DefaultLocals, StatusCode extends number = number> extends T.ResponseV4<ResBody, L, StatusCode> {}
  /** `next()`, `next('route')`, `next('router')` or `next(err)`. */
  export interface NextFunction extends T.NextFunction {}
  /** A middleware or route handler `(req, res, next)`; a returned promise that rejects becomes `next(err)`. */
  export interface RequestHandler<P = T.ParamsDictionary, ResBody = T.Untyped, ReqBody = T.Untyped, ReqQuery = T.ParsedQs, L extends T.LocalsRecord = T.DefaultLocals> extends T.RequestHandler<P, ResBody, ReqBody, ReqQuery, L, 'v4'> {}
  /** An error handler `(err, req, res, next)`, recognised by its four parameters. */
  export type ErrorRequestHandler<P = T.ParamsDictionary, ResBody = T.Untyped, ReqBody = T.Untyped, ReqQuery = T.ParsedQs, L extends T.LocalsRecord = T.DefaultLocals> = T.ErrorRequestHandler<P, ResBody, ReqBody, ReqQuery, L, 'v4'>;
  /** A request handler, under the name `@types/express` also gives it. */
  export interface Handler<P = T.ParamsDictionary, ResBody = T.Untyped, ReqBody = T.Untyped, ReqQuery = T.ParsedQs> extends T.Handler<P, ResBody, ReqBody, ReqQuery, 'v4'> {}
  /** Middleware typed for Express (`@types/express`) or for node's own request and response: multer's, passport's, compression's. */
  export type ForeignHandler = T.ForeignHandler;
  /** A param trigger `(req, res, next, value, name)` for `app.param()` and `router.param()`. */
  export type ParamHandler<V = string> = T.ParamHandler<V, 'v4'>;
  /** A router, as `trestle.Router()` returns it: middleware and routes, itself a middleware. Its paths use the v4 path syntax. */
  export interface Router extends T.Router<'v4'> {}
  /** A route, as `app.route(path)` returns it: `.get()`, `.post()` ... chained on one path. */
  export interface Route<P = T.ParamsDictionary> extends T.Route<P, 'v4'> {}
  /** The options of `trestle.Router()`: `caseSensitive`, `mergeParams`, `strict`. */
  export interface RouterOptions extends T.RouterOptions {}
  /** The options of `res.cookie()` and `res.clearCookie()`. */
  export interface CookieOptions extends T.CookieOptions {}
  /** The second argument of `app.fetch()`: the client's `remoteAddress` and `remotePort`. */
  export type FetchOptions = T.FetchOptions;
  /** What a Cloudflare Worker's runtime passes `app.fetch()` third (its `ExecutionContext`). */
  export type FetchContext = T.FetchContext;
  /** `req.params` when the path's parameters are not known: strings by name. */
  export type ParamsDictionary = T.ParamsDictionary;
  /** The `req.params` type a path gives in the v4 path syntax: `'/users/:id?'` gives `{ id?: string }`. */
  export type RouteParameters<Path extends string> = T.RouteParametersV4<Path>;
  /** `req.query` as the query parsers give it: strings, arrays and nested objects. */
  export type ParsedQs = T.ParsedQs;
  /** The options of `res.sendFile()` and `res.download()`. */
  export type SendFileOptions = T.SendFileOptions;
  /** A template engine for `app.engine(ext, fn)`: `(path, options, callback)`. */
  export type EngineCallback = T.EngineCallback;
  /** The options every body parser takes: `limit`, `inflate`, `type`, `verify`. */
  export type BodyParserOptions = T.BodyParserOptions;
  /** The options of `trestle.json()`. */
  export type JsonOptions = T.JsonOptions;
  /** The options of `trestle.urlencoded()`. */
  export type UrlencodedOptions = T.UrlencodedOptions;
  /** The options of `trestle.raw()`. */
  export type RawOptions = T.RawOptions;
  /** The options of `trestle.text()`. */
  export type TextOptions = T.TextOptions;
  /** The options of `trestle.static()`. */
  export type StaticOptions = T.StaticOptions;
  /** The application, under the other name `@types/express` gives it. */
  export interface Express<L extends T.LocalsRecord = T.DefaultLocals> extends T.ApplicationV4<L> {}
  /** `req.query` as the query parsers give it, under the name `@types/express` gives it. */
  export type Query = T.ParsedQs;
  /** An object of `V` by name. */
  export type Dictionary<V> = T.Dictionary<V>;
  /** Route parameters by position, as a regular expression's captures give them. */
  export type ParamsFlatDictionary = T.ParamsFlatDictionary;
  /** Route parameters by name or by position. */
  export type Params = T.Params;
  /** What every view sees besides its own locals: what the global `Express.Locals` declares. */
  export interface Locals extends T.Locals {}
  /** A path a route or middleware is defined on: a string, a regular expression, or an array of them. */
  export type PathParams = T.PathParams;
  /** What a route or `use()` takes as handlers: handlers of any kind, or (nested) arrays of them. */
  export type RequestHandlerParams<P = T.ParamsDictionary, ResBody = T.Untyped, ReqBody = T.Untyped, ReqQuery = T.ParsedQs> = T.HandlerArg<P, ResBody, ReqBody, ReqQuery, 'v4'>;
  /** A route method of an app or router (`app.get`, `router.post` ...), returning `This`. */
  export interface IRouterMatcher<This> extends T.RouteMatcher<This, 'v4'> {}
  /** A method of a route (`route.get`, `route.post` ...), returning `This`. */
  export interface IRouterHandler<This> extends T.RouteMethod<T.ParamsDictionary, This, 'v4'> {}
  /** `app.use()` and `router.use()`, returning `This`. */
  export type ApplicationRequestHandler<This> = T.UseMatcher<This, 'v4'>;
  /** A router, under the name `@types/express` gives its interface. */
  export interface IRouter extends T.Router<'v4'> {}
  /** A route, under the name `@types/express` gives its interface. */
  export interface IRoute<P = T.ParamsDictionary> extends T.Route<P, 'v4'> {}
  /** One entry of a router's or route's stack. */
  export type ILayer = T.Layer;
  /** A param trigger, under the name `@types/express` gives it. */
  export type RequestParamHandler = T.ParamHandler<string, 'v4'>;
  /** One range of `req.range()`. */
  export type ByteRange = T.ByteRange;
  /** The ranges `req.range()` found, with their unit in `type`. */
  export type RequestRanges = T.RequestRanges;
  /** A media type of an `Accept` header read apart. */
  export interface MediaType extends T.MediaType {}
  /** A callback told of an error, or of success: `res.sendFile(path, errback)`. */
  export type Errback = T.Errback;
  /** A function that sends a body and returns `This`, as `res.send` is. */
  export type Send<ResBody = T.Untyped, This = Response<ResBody>> = T.Send<ResBody, This>;
  /** The options of `res.download()`. */
  export type DownloadOptions = T.DownloadOptions;
  /** The options of `trestle.shutdown()` and `app.shutdown()`: `timeout`, `readinessDelay`, `idleGrace`, `hooks`, `refuse`, `retryAfter`. */
  export type ShutdownOptions = T.ShutdownOptions;
  /** What a shutdown did: `servers` closed, requests `inFlight` at its start, `answered` and `cut`, connections `closedIdle` and `closedBeforeRequest`, `hookErrors`, `durationMs`. */
  export type ShutdownReport = T.ShutdownReport;
  /** The options of `trestle.shutdownOnSignals()`: the shutdown's, and `signals`, `onReport`, `exit`. */
  export type ShutdownSignalsOptions = T.ShutdownSignalsOptions;
  /** The options of `trestle.deadline()`: `cutStreaming`. */
  export type DeadlineOptions = T.DeadlineOptions;
  /** Limits of node's HTTP server: `keepAliveTimeout`, `headersTimeout`, `requestTimeout`, `maxHeaderSize`, `maxHeadersCount`. */
  export type ServerLimits = T.ServerLimits;
  /** One route as `trestle.routes(app)` lists it (docs/routes.md). */
  export type RouteInfo = T.RouteInfo;
  /** The schemas of `trestle.validate({ params, query, body, headers })`: any Standard Schema. */
  export type ValidateSchemas = T.ValidateSchemas;
  /** One problem of an invalid request, as `trestle.validate()`'s 400 lists it. */
  export type ValidationIssue = T.ValidationIssue;
  /** What `trestle.describe()` says of a route for OpenAPI: summary, tags, responses. */
  export type RouteDescription = T.RouteDescription;
  /** The options of `trestle.openapi(app, options)`. */
  export type OpenApiOptions = T.OpenApiOptions;
  /** The OpenAPI 3.1 document `trestle.openapi()` builds. */
  export type OpenApiDocument = T.OpenApiDocument;
}

export = trestle;
