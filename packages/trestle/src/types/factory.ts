// What the factory (`require('trestle')`) holds besides being callable:
// its members in every generation.
import type * as http from 'node:http';
import type { Generation, RequestOf, ResponseOf } from './generation';
import type { NextFunction } from './handlers';
import type { FactoryLifecycle } from './lifecycle';
import type { JsonOptions, RawOptions, StaticOptions, TextOptions, UrlencodedOptions } from './options';
import type { RouteTools } from './routes';

/**
 * A middleware the factory makes (a body parser, the static server): a
 * function of node's request and response, as `@types/express` types them, so
 * it goes in any app, of any generation, and in a bare node server.
 */
export type Middleware = (req: http.IncomingMessage, res: http.ServerResponse, next: NextFunction) => void;

/**
 * The members of the factory every generation has: the body parsers,
 * `static`, and the prototypes. `Router` and `Route` are declared by each
 * generation's factory type (v5.ts, v4.ts, legacy.ts): inherited from this
 * generic interface, `import { Router } from 'trestle'` would see them
 * unresolved in `G`.
 */
export interface FactoryMembers<G extends Generation = 'v5'> extends FactoryLifecycle, RouteTools {
  /** The prototype every app's methods come from. */
  application: object;
  /** The prototype every app's `req` inherits from. */
  request: RequestOf<G>;
  /** The prototype every app's `res` inherits from. */
  response: ResponseOf<G>;
  /** Parses JSON bodies into `req.body`. */
  json(options?: JsonOptions): Middleware;
  /** Parses `application/x-www-form-urlencoded` bodies into `req.body`. */
  urlencoded(options?: UrlencodedOptions): Middleware;
  /** Reads bodies into `req.body` as a Buffer. */
  raw(options?: RawOptions): Middleware;
  /** Reads bodies into `req.body` as a string. */
  text(options?: TextOptions): Middleware;
  /** Serves the files under `root`. */
  static(root: string, options?: StaticOptions): Middleware;
}
