// The functions an app is made of: request handlers, error handlers, param
// triggers, and middleware typed for Express. Each is generic in the
// generation `G`, whose request and response it receives.
import type * as http from 'node:http';
import type { DefaultLocals, Generation, LocalsRecord, RequestOf, ResponseOf, Untyped } from './generation';
import type { ParamsDictionary, ParsedQs } from './params';

/** `next()`, `next('route')`, `next('router')` or `next(err)`. */
export interface NextFunction {
  (err?: unknown): void;
  (deferToNext: 'route'): void;
  (deferToNext: 'router'): void;
}

/** A callback told of an error, or of success: `res.sendFile(path, errback)`. */
export type Errback = (err?: Error) => void;

/**
 * What a handler may return: anything. A returned promise that rejects becomes
 * `next(err)`; `unknown` (not `void`) so async handlers type-check without lint noise.
 */
export type HandlerResult = unknown;

/** A middleware or route handler. */
export interface RequestHandler<
  P = ParamsDictionary,
  ResBody = Untyped,
  ReqBody = Untyped,
  ReqQuery = ParsedQs,
  LocalsObj extends LocalsRecord = DefaultLocals,
  G extends Generation = 'v5',
> {
  (req: RequestOf<G, P, ResBody, ReqBody, ReqQuery, LocalsObj>, res: ResponseOf<G, ResBody, LocalsObj>, next: NextFunction): HandlerResult;
}

/**
 * An error handler: recognised by its four parameters. Declared through a
 * method so that handlers annotating `err: Error` (or any type) are accepted.
 */
export type ErrorRequestHandler<
  P = ParamsDictionary,
  ResBody = Untyped,
  ReqBody = Untyped,
  ReqQuery = ParsedQs,
  LocalsObj extends LocalsRecord = DefaultLocals,
  G extends Generation = 'v5',
> = {
  /** Called with what was passed to `next(err)` (or thrown), then the request, response and `next`. */
  handler(err: Untyped, req: RequestOf<G, P, ResBody, ReqBody, ReqQuery, LocalsObj>, res: ResponseOf<G, ResBody, LocalsObj>, next: NextFunction): HandlerResult;
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
export type Handler<P = ParamsDictionary, ResBody = Untyped, ReqBody = Untyped, ReqQuery = ParsedQs, G extends Generation = 'v5'> = RequestHandler<
  P,
  ResBody,
  ReqBody,
  ReqQuery,
  DefaultLocals,
  G
>;

/** Any handler: a request handler, an error handler, or middleware typed for Express. */
export type HandlerOfAnyKind<P = ParamsDictionary, ResBody = Untyped, ReqBody = Untyped, ReqQuery = ParsedQs, G extends Generation = 'v5'> =
  | RequestHandler<P, ResBody, ReqBody, ReqQuery, DefaultLocals, G>
  | ErrorRequestHandler<P, ResBody, ReqBody, ReqQuery, DefaultLocals, G>
  | ForeignHandler;

/** Handlers may be given one by one or in (nested) arrays. */
export type HandlerArg<P = ParamsDictionary, ResBody = Untyped, ReqBody = Untyped, ReqQuery = ParsedQs, G extends Generation = 'v5'> =
  | HandlerOfAnyKind<P, ResBody, ReqBody, ReqQuery, G>
  | ReadonlyArray<HandlerArg<P, ResBody, ReqBody, ReqQuery, G>>;

/**
 * A param trigger: `(req, res, next, value, name)`. `value` is the decoded
 * parameter; for a v5 wildcard (`*name`) it is an array of segments, which a
 * trigger may declare as `value: string[]` (declared as a method for that).
 */
export type ParamHandler<V = string, G extends Generation = 'v5'> = {
  /** Called before the route's handlers with the parameter's value and name. */
  trigger(req: RequestOf<G>, res: ResponseOf<G>, next: NextFunction, value: V, name: string): HandlerResult;
}['trigger'];

/**
 * Handlers of any kind (middleware typed for Express, arrays), then a request
 * handler: `upload.single('file'), (req, res) => ...` types the last one from
 * the path.
 */
export type HandlersEndingInRequestHandler<P = ParamsDictionary, G extends Generation = 'v5'> = [
  ...Array<HandlerArg<P, Untyped, Untyped, ParsedQs, G>>,
  RequestHandler<P, Untyped, Untyped, ParsedQs, DefaultLocals, G>,
];
