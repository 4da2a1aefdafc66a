// Node's HTTP/1.1 seam: the server's 'upgrade' event. The upgrade request
// goes through `app.handle` as any request does, with a response that
// writes onto the raw socket; a `ws` route's last step hands the socket to
// the `ws` package for the handshake. Until then any middleware can refuse
// the upgrade by answering (the client sees that status and body).
import { ServerResponse, type IncomingMessage, type Server } from 'node:http';
import type { Socket } from 'node:net';
import type { Duplex } from 'node:stream';
import { kUpgrade, type PendingUpgrade } from './marker';
import { hasWebSocketRoute, hasWebSocketRoutes } from './table';
import { trackSocket } from './connections';
import { handshakeServer, type NodeWebSocket } from './ws-library';
import { runHandler } from './handler';
import { maxPayloadOf, refusedHandshake } from './handshake';

type Next = (err?: unknown) => void;

/** What the seam needs of an app. */
export interface UpgradeApp {
  handle(req: IncomingMessage, res: ServerResponse, next?: Next): void;
  settings: Record<string, unknown>;
  /** The app's own response class (trestle apps have one), so the upgrade's `res` needs no prototype swap. */
  _classes?: { ServerResponse?: unknown };
}

const kAttached = Symbol('trestle.websocket.attached');
type AttachedServer = Server & { [kAttached]?: UpgradeApp };

/**
 * Serves `app`'s `ws` routes on `server` (http or https): what `app.listen()`
 * does by itself, and what a server made with `http.createServer(app)` needs
 * (upgrades never reach a server's 'request' listener). Once per server.
 */
export function attachWebSockets<S extends Server>(server: S, app: UpgradeApp): S {
  const target = server as AttachedServer;
  if (target[kAttached] !== undefined) return server;
  target[kAttached] = app;
  // An HTTP/2 server keeps 'upgrade' for its HTTP/1.1 clients (allowHTTP1).
  if (isHttp2Server(server)) {
    // node's HTTP/2 compat server emits CONNECT requests as 'connect' (405 without a listener): RFC 8441 arrives there.
    server.on('connect', (req: IncomingMessage, res: ServerResponse) => app.handle(req, res, (err?: unknown) => answerConnect(res, err)));
  }
  server.on('upgrade', (req: IncomingMessage, socket: Duplex, head: Buffer) => onUpgrade(target, app, req, socket, head));
  return server;
}

/**
 * The end of an extended CONNECT no route took: answered at once, since
 * the final handler would first wait for the request to end, and a CONNECT
 * stream ends only when the client closes it.
 */
function answerConnect(res: ServerResponse, err: unknown): void {
  if (res.headersSent) return;
  const status = (err as { status?: unknown } | undefined)?.status;
  res.statusCode = err === undefined || err === null ? 404 : typeof status === 'number' && status >= 400 && status < 600 ? status : 500;
  res.setHeader('Content-Type', 'text/plain; charset=utf-8');
  res.end(res.statusCode === 404 ? 'Not Found' : 'Internal Server Error');
}

/** node's HTTP/2 servers (cleartext or secure), told apart without loading node:http2. */
function isHttp2Server(server: Server): boolean {
  const name = server.constructor?.name;
  return name === 'Http2Server' || name === 'Http2SecureServer';
}

/** `app.listen()`'s server: attached when the app has `ws` routes by then. */
export function attachOnListen(server: Server, app: UpgradeApp): void {
  if (hasWebSocketRoutes(app)) attachWebSockets(server, app);
}

function isWebSocket(req: IncomingMessage): boolean {
  const upgrade = req.headers.upgrade;
  return typeof upgrade === 'string' && upgrade.toLowerCase() === 'websocket';
}

function pathOf(url: string | undefined): string {
  const u = url ?? '/';
  const q = u.indexOf('?');
  return q === -1 ? u : u.slice(0, q);
}

/**
 * Alone on the server, trestle answers every upgrade (404 when no route
 * takes it). Beside other 'upgrade' listeners (socket.io, express-ws, a
 * proxy), it lets them go first and takes only a socket none of them wrote
 * to, for a path it has a `ws` route for.
 */
function onUpgrade(server: Server, app: UpgradeApp, req: IncomingMessage, socket: Duplex, head: Buffer): void {
  // A client that goes away before the handshake must not take the process down.
  socket.on('error', () => socket.destroy());
  if (server.listenerCount('upgrade') === 1) {
    handleUpgrade(server, app, req, socket, head);
    return;
  }
  setImmediate(() => {
    const untouched = !socket.destroyed && (socket as Socket).bytesWritten === 0;
    if (untouched && isWebSocket(req) && hasWebSocketRoute(app, pathOf(req.url))) handleUpgrade(server, app, req, socket, head);
  });
}

/** Runs the upgrade request through the app with a response written onto the raw socket. */
function handleUpgrade(server: Server, app: UpgradeApp, req: IncomingMessage, socket: Duplex, head: Buffer): void {
  const Response = (app._classes?.ServerResponse ?? ServerResponse) as typeof ServerResponse;
  const res = new Response(req);
  res.shouldKeepAlive = false;
  res.assignSocket(socket as Socket);
  // An answer instead of the handshake (a refusal, a 404) ends the connection.
  res.once('finish', () => {
    if (res.socket === socket) socket.end();
  });
  if (isWebSocket(req)) (req as IncomingMessage & { [kUpgrade]?: PendingUpgrade })[kUpgrade] = pendingUpgrade(server, app, socket, head);
  app.handle(req, res);
}

function pendingUpgrade(server: Server, app: UpgradeApp, socket: Duplex, head: Buffer): PendingUpgrade {
  return {
    accept(req, res, handler, next) {
      const request = req as IncomingMessage;
      const response = res as ServerResponse;
      if (refusedHandshake(request, response)) return;
      const wss = handshakeServer(app, maxPayloadOf(app.settings));
      response.detachSocket(socket as Socket);
      wss.handleUpgrade(request, socket, head, (ws) => {
        opened(server, request, response, ws);
        runHandler(handler, ws, request, next, app.settings.env);
      });
    },
  };
}

/**
 * The socket is open: the response reads as a finished 101 (request loggers
 * write their line now, as morgan does for express-ws), and closes with the
 * socket (so `req.signal` aborts then).
 */
function opened(server: Server, req: IncomingMessage, res: ServerResponse, ws: NodeWebSocket): void {
  trackSocket(server, ws);
  // A bad frame, an oversized message or a client gone mid-message makes `ws`
  // emit 'error' and close the socket (1002, 1009, 1006): without a listener
  // that error would end the process.
  ws.on('error', () => {});
  res.statusCode = 101;
  res.writeHead(101);
  res.emit('finish');
  ws.once('close', () => res.emit('close'));
  // The request stays the one handlers saw; nothing more is read from it.
  req.socket.setTimeout(0);
}
