// Cloudflare Workers (workerd, with `nodejs_compat`). workerd's node:http
// ServerResponse is built for Cloudflare's own bridge (`handleAsNodeRequest`
// of `cloudflare:node`): it takes no socket (`assignSocket` throws), writes
// into a private buffer, and turns that into a Response itself. Through that
// bridge an answer written as express-session writes it (all but the last
// byte, then the last byte with `end()`) loses its last byte, compression's
// answers come empty and the Worker is reported hung, and every status text
// is 'unknown' (docs/deploy.md). So trestle does not use it:
// each fetch response gets here what node's server gives it (the FetchSocket,
// the raw write to it, no reason phrase until the head), and fetch.ts makes
// the Response as on every other runtime.
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { PeerFields } from './peer';

/** The socket fields fetch.ts's FetchSocket has that this reaches. */
interface WorkersSocket extends PeerFields {
  encrypted: boolean;
  _httpMessage: ServerResponse | null;
  destroyed: boolean;
  write(data: string | Uint8Array, encoding?: BufferEncoding | null, callback?: (err?: Error) => void): boolean;
}

/** What `_writeRaw` reads of workerd's OutgoingMessage. */
interface WorkerdResponse {
  socket: WorkersSocket | null;
  destroyed: boolean;
}

/** node's `_writeRaw` with a socket: to the socket, or false once it is gone. */
function writeRaw(this: WorkerdResponse, data: string | Uint8Array, encoding?: BufferEncoding | null | ((err?: Error) => void), callback?: (err?: Error) => void): boolean {
  if (typeof encoding === 'function') {
    callback = encoding;
    encoding = null;
  }
  const socket = this.socket;
  if (this.destroyed || socket === null || socket.destroyed) return false;
  return socket.write(data, encoding, callback);
}

/**
 * Sets `res` on `socket` as node's `assignSocket` would, on workerd: the
 * bridge's listeners (the Response it would make, the close it would emit
 * when the head goes out) removed, the writes sent to the socket, and the
 * reason phrase left to `writeHead` (workerd starts it at 'unknown', which
 * `writeHead` then keeps).
 */
export function adoptOnWorkers(res: ServerResponse, socket: WorkersSocket): void {
  res.removeAllListeners('_headersSent');
  res.removeAllListeners('_dataWritten');
  res.removeAllListeners('error');
  res.setTimeout = setTimeoutOnSocket;
  // Set as properties are (`socket` through workerd's own setter): fields node's types do not have, or type otherwise.
  Object.assign(res, { statusMessage: undefined, _writeRaw: writeRaw, socket });
  socket._httpMessage = res;
  res.emit('socket', socket);
}

/** node's IncomingMessage `_read`: more body is asked of the socket (workerd's reads a stream only its bridge can set). */
function readFromSocket(this: IncomingMessage & { _consuming: boolean; _readableState: { readingMore: boolean } }): void {
  if (!this._consuming) {
    this._readableState.readingMore = false;
    this._consuming = true;
  }
  const socket = this.socket;
  if (socket.readable) socket.resume();
}

/**
 * `req` on its socket as node's server makes it, on workerd: its IncomingMessage
 * takes no socket in its constructor (`connection` sets it), and reads its
 * body from the socket as node's does.
 */
export function adoptRequestOnWorkers(req: IncomingMessage, socket: WorkersSocket): void {
  // `connection` is workerd's setter of the request's socket.
  Object.assign(req, { connection: socket, _read: readFromSocket });
  req.setTimeout = setTimeoutOnSocket;
}

/** node's `req.setTimeout()` and `res.setTimeout()`: the listener, and the socket's timer (workerd's only keep the listener). */
function setTimeoutOnSocket<T extends IncomingMessage | ServerResponse>(this: T, ms: number, callback?: () => void): T {
  if (callback !== undefined) this.on('timeout', callback);
  this.socket?.setTimeout(ms);
  return this;
}

/** node's `detachSocket`, which workerd's ServerResponse refuses. */
export function detachOnWorkers(res: ServerResponse, socket: WorkersSocket): void {
  socket._httpMessage = null;
  Object.assign(res, { socket: null });
}

/** The request's headers as Cloudflare's edge sets them. */
function header(request: Request, name: string): string | null {
  return request.headers.get(name);
}

/**
 * Who the client is on Workers, as Cloudflare's bridge says it: the address
 * from CF-Connecting-IP, and a connection that is TLS when the URL is
 * https or the edge says so in X-Forwarded-Proto.
 */
export function workersPeer(socket: WorkersSocket, request: Request): void {
  const address = header(request, 'cf-connecting-ip') ?? undefined;
  socket.remoteAddress = address;
  socket.remotePort = undefined;
  socket.remoteFamily = address === undefined ? undefined : address.includes(':') ? 'IPv6' : 'IPv4';
  socket.encrypted = socket.encrypted || header(request, 'x-forwarded-proto') === 'https';
}

/** `req.cloudflare`: the Worker's `env`, `ctx` and `request.cf`, as Cloudflare's bridge sets it. */
export function setCloudflare(req: IncomingMessage, request: Request, env: unknown, ctx: unknown): void {
  (req as IncomingMessage & { cloudflare: unknown }).cloudflare = { env, ctx, cf: (request as Request & { cf?: unknown }).cf };
}

/** workerd's stream of a declared length (a Workers global). */
declare const FixedLengthStream: new (length: number) => TransformStream<Uint8Array, Uint8Array>;

/**
 * A streamed body with the Content-Length the app set: workerd sends a
 * stream of unknown length chunked and drops that header, so it goes through
 * a FixedLengthStream, which keeps it (as node's server sends it).
 */
export function fixedLength(body: ReadableStream<Uint8Array>, res: ServerResponse): ReadableStream<Uint8Array> {
  const length = res.getHeader('content-length');
  const n = typeof length === 'string' ? Number(length) : length;
  if (typeof n !== 'number' || !Number.isSafeInteger(n) || n < 0) return body;
  return body.pipeThrough(new FixedLengthStream(n));
}
