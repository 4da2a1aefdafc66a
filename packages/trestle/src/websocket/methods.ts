// `app.ws(path, ...handlers)` and `router.ws(path, ...handlers)`: a route
// whose handlers run for WebSocket upgrades only. Every handler but the last
// is ordinary `(req, res, next)` middleware run before the socket is
// accepted; the last receives `(ws, req)` once it is.
import { createError } from '../errors';
import { flatten } from '../router/methods';
import { kUpgrade, type PendingUpgrade, type WebSocketHandler } from './marker';

type Next = (err?: unknown) => void;

interface RouteLike {
  addMethod(method: string, handlers: unknown[]): unknown;
}
interface RouterLike {
  route(path: unknown): RouteLike;
}

/** Adds a `ws` route for `path` to `router`. */
export function addWebSocketRoute(router: RouterLike, path: unknown, handlers: unknown[]): void {
  const list = flatten<unknown>(handlers);
  const last = list.pop();
  if (typeof last !== 'function') throw createError(TypeError, 'TRESTLE_ERR_MISSING_ARG', 'argument handler is required: the last handler of app.ws() receives (ws, req)');
  router.route(path).addMethod('ws', [...list, acceptWith(last as WebSocketHandler)]);
}

/** `router.ws()`, as every router inherits it. */
export function ws(this: RouterLike, path: unknown, ...handlers: unknown[]): RouterLike {
  addWebSocketRoute(this, path, handlers);
  return this;
}

/** The route's last step: the middleware passed, so the seam accepts the socket and calls `handler`. */
function acceptWith(handler: WebSocketHandler) {
  return function websocket(req: object, res: object, next: Next): void {
    const pending = (req as { [kUpgrade]?: PendingUpgrade })[kUpgrade];
    if (pending === undefined) next();
    else pending.accept(req, res, handler, next);
  };
}
