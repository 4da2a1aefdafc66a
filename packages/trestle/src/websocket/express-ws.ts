// express-ws beside trestle's own `ws()`. express-ws adds `ws()` only where
// none exists, so on trestle the routes its users declare are trestle's.
// Its WebSocketServer accepts every upgrade first, then runs the app with
// the URL suffixed `/.websocket` and the socket in `req.ws`. This bridge
// turns such a request back into an upgrade for trestle's routes, so code
// that still calls `expressWs(app, server)` keeps working.
import { kUpgrade, type PendingUpgrade } from './marker';
import { runHandler } from './handler';

interface ExpressWsRequest {
  url: string;
  ws?: unknown;
  wsHandled?: boolean;
  [kUpgrade]?: PendingUpgrade;
}

const SUFFIX = '.websocket';

/** Called by app.handle for a request carrying `req.ws`: true when it was express-ws's. */
export function fromExpressWs(req: ExpressWsRequest): boolean {
  if (req.wsHandled !== false || typeof req.ws !== 'object' || req.ws === null || req[kUpgrade] !== undefined) return false;
  const q = req.url.indexOf('?');
  const path = q === -1 ? req.url : req.url.slice(0, q);
  if (!path.endsWith('/' + SUFFIX)) return false;
  const trimmed = path.slice(0, -SUFFIX.length - 1) || '/';
  req.url = trimmed + (q === -1 ? '' : req.url.slice(q));
  const ws = req.ws as { close(code?: number): void; readyState: number };
  req[kUpgrade] = {
    accept(request, _res, handler, next) {
      (request as ExpressWsRequest).wsHandled = true;
      runHandler(handler, ws, request, next, undefined);
    },
  };
  return true;
}
