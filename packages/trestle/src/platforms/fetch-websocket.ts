// WebSocket upgrades through `app.fetch` on Bun and Deno. A request asking
// for a WebSocket is marked as an upgrade (websocket/marker.ts) when the
// runtime can take it: Bun.serve passes its server as fetch's second
// argument (`server.upgrade()`), Deno has `Deno.upgradeWebSocket()`. The app
// then routes it as on Node: middleware first, which may refuse; a `ws`
// route's last step upgrades with the runtime's own API and calls the
// handler with a `ws`-shaped socket (websocket/runtime-socket.ts) once open.
// `hand` settles app.fetch's promise with the runtime's answer (fetch.ts).
import type { IncomingMessage, ServerResponse } from 'node:http';
import { kUpgrade, type PendingUpgrade, type WebSocketHandler } from '../websocket/marker';
import { runHandler } from '../websocket/handler';
import { maxPayloadOf, refusedHandshake } from '../websocket/handshake';
import { RuntimeWebSocket, type SocketBackend } from '../websocket/runtime-socket';

type Next = (err?: unknown) => void;
/** Settles app.fetch's promise: Deno's 101 Response, or nothing on Bun (its server answers). */
export type HandOver = (response: Response | undefined) => void;

interface Settings {
  settings: Record<string, unknown>;
}

// ── Bun ──

/** Bun's ServerWebSocket, as far as trestle uses it. */
interface BunSocket {
  readonly readyState: number;
  readonly data: BunSocketData;
  sendText(text: string): number;
  sendBinary(bytes: Uint8Array): number;
  close(code?: number, reason?: string): void;
  terminate(): void;
  ping(data?: Uint8Array): number;
  pong(data?: Uint8Array): number;
  getBufferedAmount(): number;
}

interface BunServer {
  upgrade(request: Request, options: { data: BunSocketData }): boolean;
}

/** What trestle gives Bun's `server.upgrade()` as the socket's data: how to go on once it opens (read by bun-websocket.ts). */
interface BunSocketData {
  trestle: { open(socket: BunSocket): void; ws?: RuntimeWebSocket };
}

function bunBackend(socket: BunSocket): SocketBackend {
  return {
    get readyState() {
      return socket.readyState;
    },
    get bufferedAmount() {
      return socket.getBufferedAmount();
    },
    protocol: '',
    sendText: (text) => void socket.sendText(text),
    sendBinary: (bytes) => void socket.sendBinary(bytes),
    close: (code, reason) => socket.close(code, reason),
    terminate: () => socket.terminate(),
    ping: (data) => void socket.ping(data),
    pong: (data) => void socket.pong(data),
  };
}

// ── Deno ──

interface DenoSocket {
  readonly readyState: number;
  readonly bufferedAmount: number;
  readonly protocol: string;
  binaryType: string;
  send(data: string | Uint8Array): void;
  close(code?: number, reason?: string): void;
  onopen: (() => void) | null;
  onmessage: ((event: { data: string | ArrayBuffer }) => void) | null;
  onclose: ((event: { code: number; reason: string }) => void) | null;
  onerror: ((event: { message?: string }) => void) | null;
}

type UpgradeWebSocket = (request: Request) => { socket: DenoSocket; response: Response };

function denoUpgrade(): UpgradeWebSocket | undefined {
  return (globalThis as { Deno?: { upgradeWebSocket?: UpgradeWebSocket } }).Deno?.upgradeWebSocket;
}

function denoBackend(socket: DenoSocket): SocketBackend {
  return {
    get readyState() {
      return socket.readyState;
    },
    get bufferedAmount() {
      return socket.bufferedAmount;
    },
    get protocol() {
      return socket.protocol;
    },
    sendText: (text) => socket.send(text),
    sendBinary: (bytes) => socket.send(bytes),
    close: (code, reason) => socket.close(code, reason),
    // Deno's WebSocket has no abrupt close: a close frame is the nearest.
    terminate: () => socket.close(),
  };
}

// ── the seam ──

function isBunServer(second: unknown): second is BunServer {
  return typeof (second as BunServer | undefined)?.upgrade === 'function' && process.versions.bun !== undefined;
}

function isWebSocket(req: IncomingMessage): boolean {
  const upgrade = req.headers.upgrade;
  return typeof upgrade === 'string' && upgrade.toLowerCase() === 'websocket';
}

/**
 * Marks `req` as a WebSocket upgrade when it asks for one and the runtime
 * can take it (Bun.serve's server as `second`, or Deno); else it stays an
 * ordinary request.
 */
export function markFetchUpgrade(app: Settings, req: IncomingMessage, request: Request, second: unknown, hand: HandOver): void {
  if (!isWebSocket(req)) return;
  const upgrade = isBunServer(second) ? bunAccept(second, request, hand) : denoUpgrade() !== undefined ? denoAccept(request, hand) : undefined;
  if (upgrade === undefined) return;
  (req as IncomingMessage & { [kUpgrade]?: PendingUpgrade })[kUpgrade] = {
    accept(request_, res_, handler, next) {
      const request = request_ as IncomingMessage;
      const res = res_ as ServerResponse;
      if (refusedHandshake(request, res)) return;
      upgrade({ req: request, res, handler, next, maxPayload: maxPayloadOf(app.settings), env: app.settings.env });
    },
  };
}

interface Accepted {
  req: IncomingMessage;
  res: ServerResponse;
  handler: WebSocketHandler;
  next: Next;
  maxPayload: number;
  env: unknown;
}

function bunAccept(server: BunServer, request: Request, hand: HandOver) {
  return (a: Accepted): void => {
    const data: BunSocketData = {
      trestle: {
        open(socket) {
          const ws = new RuntimeWebSocket(bunBackend(socket), a.maxPayload);
          data.trestle.ws = ws;
          ws.once('close', () => a.res.emit('close'));
          runHandler(a.handler, ws, a.req, a.next, a.env);
        },
      },
    };
    let upgraded: boolean;
    try {
      // Throws when Bun.serve was given no `websocket` handlers (trestle.bunWebSocket).
      upgraded = server.upgrade(request, { data });
    } catch (err) {
      a.next(err);
      return;
    }
    if (!upgraded) {
      a.res.statusCode = 400;
      a.res.end('Bad WebSocket handshake');
      return;
    }
    hand(undefined);
    answered(a.res);
  };
}

function denoAccept(request: Request, hand: HandOver) {
  return (a: Accepted): void => {
    let upgrade: ReturnType<UpgradeWebSocket>;
    try {
      upgrade = denoUpgrade()!(request);
    } catch (err) {
      a.next(err);
      return;
    }
    const { socket, response } = upgrade;
    socket.binaryType = 'arraybuffer';
    const ws = new RuntimeWebSocket(denoBackend(socket), a.maxPayload);
    socket.onopen = () => runHandler(a.handler, ws, a.req, a.next, a.env);
    socket.onmessage = (event) => ws.received(event.data);
    socket.onclose = (event) => ws.closed(event.code, event.reason);
    socket.onerror = (event) => ws.failed(new Error(event.message ?? 'WebSocket error'));
    // A socket that never opens (the client left) still closes its request.
    ws.once('close', () => a.res.emit('close'));
    hand(response);
    answered(a.res);
  };
}

/** After the hand-over: the response reads as a finished 101 (request loggers write their line now, as on Node). */
function answered(res: ServerResponse): void {
  res.statusCode = 101;
  res.writeHead(101);
  res.emit('finish');
}
