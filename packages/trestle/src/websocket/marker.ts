// How the router tells a WebSocket upgrade from an ordinary request: the
// upgrade's seam (node's 'upgrade' event, express-ws's bridge) puts a
// pending upgrade on the request under this symbol. Routes then match the
// upgrade by the method name `ws`, so `app.get('/chat')` and
// `app.ws('/chat')` live side by side on one path. Nothing else lives here,
// so the router can read it without loading the WebSocket support.

export const kUpgrade = Symbol('trestle.websocket.upgrade');

/** What a seam leaves on the request until the route's last handler takes the socket. */
export interface PendingUpgrade {
  /** Hands the connection to `handler(ws, req)`, or refuses it through `next`. */
  accept(req: object, res: object, handler: WebSocketHandler, next: (err?: unknown) => void): void;
}

/** The last handler of a `ws` route: express-ws's `(ws, req)`. */
export type WebSocketHandler = (ws: never, req: never, next: (err?: unknown) => void) => unknown;

/** The method routes match `req` by: `ws` for an upgrade, else its own. */
export function routingMethod(req: { method?: string | undefined }): string | undefined {
  return (req as { [kUpgrade]?: PendingUpgrade })[kUpgrade] === undefined ? req.method : 'ws';
}
