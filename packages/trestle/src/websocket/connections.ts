// The WebSockets open on each server, so a shutdown can say goodbye to them
// (1001, Going Away). Kept on the server under a symbol; nothing is loaded or
// listened to until a socket opens.

/** What shutdown needs of an open WebSocket. */
export interface OpenSocket {
  readyState: number;
  close(code?: number, reason?: string): void;
  terminate(): void;
  once(event: 'close', listener: () => void): unknown;
}

const kSockets = Symbol('trestle.websocket.open');

type Holder = object & { [kSockets]?: Set<OpenSocket> };

/** Remembers `ws` as open on `server` until it closes. */
export function trackSocket(server: object, ws: OpenSocket): void {
  const holder = server as Holder;
  const set = (holder[kSockets] ??= new Set());
  set.add(ws);
  ws.once('close', () => set.delete(ws));
}

/** The WebSockets open on `server`. */
export function openSockets(server: object): ReadonlySet<OpenSocket> {
  return (server as Holder)[kSockets] ?? new Set();
}

const OPEN = 1;

/**
 * Shutdown's part for WebSockets: every socket still open on `server` is
 * sent a close frame with 1001 (Going Away). Those whose client does not
 * finish the closing handshake are ended with the rest when the shutdown's
 * timeout passes. Returns how many were sent 1001.
 */
export function closeWebSockets(server: object): number {
  let count = 0;
  for (const ws of openSockets(server)) {
    if (ws.readyState !== OPEN) continue;
    ws.close(1001, 'Server shutting down');
    count += 1;
  }
  return count;
}
