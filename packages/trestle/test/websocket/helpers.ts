// Shared by the WebSocket tests: a real `ws` client on 127.0.0.1, and waits
// that each fail with what did not happen.
import type * as http from 'node:http';
import type { AddressInfo, Socket } from 'node:net';
import WebSocket from 'ws';

export { WebSocket };

export function portOf(server: { address(): unknown }): number {
  return (server.address() as AddressInfo).port;
}

/** Resolves with `promise`, or rejects naming `what` after `ms`. */
export function within<T>(promise: Promise<T>, ms: number, what: string): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`${what} within ${ms} ms`)), ms);
  });
  return Promise.race([promise, timeout]).finally(() => clearTimeout(timer));
}

/** A client connected and open, or the refusal's status and body. */
export function open(url: string, options: WebSocket.ClientOptions = {}): Promise<WebSocket> {
  const ws = new WebSocket(url, options);
  // A message sent on open can arrive with the 101: kept until read.
  const inbox: string[] = [];
  inboxes.set(ws, inbox);
  ws.on('message', (data) => inbox.push(String(data)));
  return within(
    new Promise((resolve, reject) => {
      ws.once('open', () => resolve(ws));
      ws.once('error', reject);
      ws.once('unexpected-response', (_req, res) => {
        let body = '';
        res.setEncoding('utf8');
        res.on('data', (c: string) => (body += c));
        res.on('end', () => reject(Object.assign(new Error(`refused ${res.statusCode}`), { status: res.statusCode, body })));
      });
    }),
    3000,
    `no 'open' (nor refusal) for ${url}`,
  );
}

const inboxes = new WeakMap<WebSocket, string[]>();

/** The next message on `ws`, as text. */
export function nextMessage(ws: WebSocket, what = 'no message'): Promise<string> {
  const inbox = inboxes.get(ws);
  if (inbox !== undefined && inbox.length > 0) return Promise.resolve(inbox.shift()!);
  return within(
    new Promise((resolve) =>
      ws.once('message', () => {
        if (inbox !== undefined) resolve(inbox.shift()!);
      }),
    ),
    3000,
    what,
  );
}

/** Sends `text` and waits for the reply. */
export async function ask(ws: WebSocket, text: string): Promise<string> {
  const reply = nextMessage(ws, `no reply to "${text}"`);
  ws.send(text);
  return reply;
}

/** The close code the client sees. */
export function closed(ws: WebSocket, ms = 3000, what = "no 'close'"): Promise<{ code: number; reason: string }> {
  if (ws.readyState === WebSocket.CLOSED) return Promise.resolve({ code: -1, reason: 'already closed' });
  return within(new Promise((resolve) => ws.once('close', (code, reason) => resolve({ code, reason: String(reason) }))), ms, what);
}

const connections = new WeakMap<object, Set<Socket>>();

/** Remembers the server's connections, upgraded ones included (node's own list lets those go), for stop(). */
export function track<S extends http.Server>(server: S): S {
  const set = new Set<Socket>();
  connections.set(server, set);
  server.on('connection', (socket: Socket) => {
    set.add(socket);
    socket.once('close', () => set.delete(socket));
  });
  return server;
}

/** Listens on an ephemeral port of 127.0.0.1. */
export function listen(server: http.Server): Promise<number> {
  track(server);
  return within(new Promise((resolve) => server.listen(0, '127.0.0.1', () => resolve(portOf(server)))), 3000, "no 'listening'");
}

/** `app.listen()` on an ephemeral port of 127.0.0.1, once listening. */
export async function serve(app: { listen(port: number, host: string): http.Server }): Promise<{ server: http.Server; port: number }> {
  const server = track(app.listen(0, '127.0.0.1'));
  await within(new Promise((r) => server.once('listening', r)), 3000, "no 'listening'");
  return { server, port: portOf(server) };
}

export async function stop(server: http.Server): Promise<void> {
  for (const socket of connections.get(server) ?? []) socket.destroy();
  server.closeAllConnections?.();
  await within(new Promise((resolve) => server.close(resolve)), 3000, "server did not 'close'");
}
