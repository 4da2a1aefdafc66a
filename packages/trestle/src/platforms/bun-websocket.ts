// The `websocket` handlers Bun.serve needs beside `fetch: app.fetch` for an
// app's `ws` routes: `Bun.serve({ fetch: app.fetch, websocket: trestle.bunWebSocket })`.
// Bun calls them for every socket of its server; each socket trestle
// upgraded carries, in its data, what to call (fetch-websocket.ts puts it
// there). Sockets of other owners (no `trestle` in their data) are left
// alone. No imports: the factory carries this from the start, and nothing
// of the WebSocket support loads until a socket is upgraded.

/** A Bun ServerWebSocket, as these handlers read it. */
export interface BunServerSocket {
  readonly data: unknown;
}

interface Receiver {
  received(data: string | Uint8Array): void;
  closed(code: number, reason: string): void;
  pinged(data: Uint8Array | undefined, event: 'ping' | 'pong'): void;
}

interface Ours {
  open(socket: BunServerSocket): void;
  ws?: Receiver;
}

function ours(socket: BunServerSocket): Ours | undefined {
  const data = socket.data as { trestle?: Ours } | null | undefined;
  return data?.trestle;
}

/** The handlers object for Bun.serve's `websocket` option. */
export interface BunWebSocketHandlers {
  open(socket: BunServerSocket): void;
  message(socket: BunServerSocket, message: string | Uint8Array): void;
  close(socket: BunServerSocket, code: number, reason: string): void;
  ping(socket: BunServerSocket, data: Uint8Array): void;
  pong(socket: BunServerSocket, data: Uint8Array): void;
}

export const bunWebSocket: BunWebSocketHandlers = {
  open(socket) {
    ours(socket)?.open(socket);
  },
  message(socket, message) {
    ours(socket)?.ws?.received(message);
  },
  close(socket, code, reason) {
    ours(socket)?.ws?.closed(code, reason ?? '');
  },
  ping(socket, data) {
    ours(socket)?.ws?.pinged(data, 'ping');
  },
  pong(socket, data) {
    ours(socket)?.ws?.pinged(data, 'pong');
  },
};
