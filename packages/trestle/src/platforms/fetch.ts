// `app.fetch(request)`: a WHATWG `Request` answered with a `Response`, for
// tests without a port and for runtimes whose servers speak fetch (Bun,
// Deno, Workers, Lambda adapters build on it). The app sees what it sees
// over a socket: `req` is an IncomingMessage of the app's own class, its
// body fed from `request.body`, and `res` a ServerResponse of the app's
// class, whose socket is a FetchSocket turning what node writes into the
// `Response`. They go in through `app.handle()`, the seam Express has, so
// the router, members, middleware and logline know nothing of this.
import { Buffer } from 'node:buffer';
import { EventEmitter } from 'node:events';
import { IncomingMessage, ServerResponse } from 'node:http';
import { clearNeedDrain, headerBlockOf, isConsuming, outgoingFields } from '../node-internals';
import type { FetchOptions } from '../types/options';
import { Unchunker } from './fetch-chunks';
import { type Head, headersOf, type HeadSink, putHead, watchHead } from './fetch-head';
import { answered, watchLater } from './late-signal';
import { markFetchUpgrade } from './fetch-websocket';
import { setPeer } from './peer';
import { onWorkers } from './platform';
import { adoptOnWorkers, adoptRequestOnWorkers, detachOnWorkers, fixedLength, setCloudflare, workersPeer } from './workers';

/** What this needs of an app (its request and response classes, and its entry), without importing the application. */
interface FetchableApp {
  _classes: { IncomingMessage: unknown; ServerResponse: unknown };
  handle(req: IncomingMessage, res: ServerResponse): void;
}
type AppClasses = { IncomingMessage: new (socket: FetchSocket) => IncomingMessage; ServerResponse: new (req: IncomingMessage) => ServerResponse };
type Resolve = (response: Response) => void;
type Reject = (reason: unknown) => void;

/**
 * What every Response is made with on this runtime. On Workers, a body the
 * app encoded (compression's gzip) is sent as is: workerd would otherwise
 * encode it again for its Content-Encoding.
 */
const RESPONSE_INIT = onWorkers ? { encodeBody: 'manual' } : {};

/** The bodies a `Response` must not have. */
function bodiless(status: number, method: string): boolean {
  return method === 'HEAD' || status === 204 || status === 205 || status === 304;
}

/**
 * The socket-like object under one request and its response: the client's
 * address for `req`, the sink of `res` (node writes the header block, then
 * the body, into `write()`), and the link to the `Request`'s signal and
 * body reader. One per request, with no closures of its own.
 */
class FetchSocket extends EventEmitter implements HeadSink {
  remoteAddress: string | undefined;
  remotePort: number | undefined;
  remoteFamily: string | undefined;
  encrypted: boolean;
  readable = true;
  writable = true;
  destroyed = false;
  /** node's OutgoingMessage resets `_writableState.corked` directly on end(). */
  _writableState = { corked: 0 };
  writableLength = 0;
  writableHighWaterMark = 16384;
  _paused = false;
  _httpMessage: ServerResponse | null = null;
  /** The `Response` once made; before that, the chunks node wrote. */
  response: Response | undefined = undefined;
  chunks: (Buffer | string)[] | null = null;
  /** The bytes (about: text counted in characters) in `chunks`. */
  held = 0;
  /** The idle timeout (setTimeout) in ms, 0 for none, and its timer. */
  idleMs = 0;
  idle: ReturnType<typeof setTimeout> | null = null;
  /** A write answered false: 'drain' is owed when the reader catches up. */
  needDrain = false;
  controller: ReadableStreamDefaultController<Uint8Array> | null = null;
  scheduled = false;
  /** The callback of the write that scheduled the Response (node's 'finish' after `end(data)`), run in the same tick. */
  callback: ((err?: Error) => void) | null = null;
  resolve: Resolve | undefined;
  reject: Reject | undefined;
  req: IncomingMessage | undefined;
  res: ServerResponse | undefined;
  signal: AbortSignal | null = null;
  reader: ReadableStreamDefaultReader<Uint8Array> | null = null;
  /** On Deno, the Request whose signal is read if the answer is late (late-signal.ts). */
  late: Request | null = null;
  /** A short body of declared length, read whole when `req` first asks (see takeBody). */
  whole: Request | null = null;
  reading = false;
  /** The framing to strip when the app set Transfer-Encoding: chunked itself. */
  unchunker: Unchunker | null = null;
  /** The Response's headers, from node's `_storeHeader` (fetch-head.ts); what they have: a Content-Type; a Content-Length or Transfer-Encoding; a Date. */
  head: Head | null = null;
  typed = false;
  framed = false;
  dated = false;

  constructor(encrypted: boolean, request: Request, options: FetchOptions | undefined) {
    super();
    this.encrypted = encrypted;
    // On Workers the second argument is the Worker's env, not a peer.
    if (onWorkers) workersPeer(this, request);
    else setPeer(this, request, options);
  }

  /** node writes the response here: informational heads (before the header is sent) are dropped, the rest kept or streamed. */
  write(data: string | Uint8Array, encoding?: BufferEncoding | ((err?: Error) => void) | null, callback?: (err?: Error) => void): boolean {
    if (typeof encoding === 'function') {
      callback = encoding;
      encoding = undefined;
    }
    const res = this.res!;
    if (res.headersSent && !this.destroyed && this.response === undefined && this.chunks === null) {
      // Unless the head was captured (fetch-head.ts), the first write starts with node's header block, which the Response takes from res._header.
      if (this.head === null) data = (data as string).slice(headerBlockOf(res)?.length ?? 0);
      this.chunks = [];
      this.scheduled = true;
      if (res.chunkedEncoding) this.unchunker = new Unchunker();
      this.callback = callback ?? null;
      callback = undefined;
      process.nextTick(settle, this);
    }
    if (callback) process.nextTick(callback);
    if (this.idle !== null) refreshIdle(this);
    if (!res.headersSent || this.destroyed) return true;
    if (this.unchunker !== null) {
      data = this.unchunker.take(toBytes(data, encoding));
      encoding = undefined;
    }
    if (data.length === 0) return true;
    if (this.controller !== null) {
      this.controller.enqueue(toBytes(data, encoding));
      // The body's queue (in bytes) past its high-water mark: node marks the response as needing a drain, which pull() gives.
      return this.room((this.controller.desiredSize ?? 1) > 0);
    }
    // Text is kept as text (a Response takes a string faster than bytes) when it reads the same in UTF-8.
    const chunk = typeof data === 'string' && sameInUtf8(data, encoding) ? data : toBytes(data, encoding);
    if (this.chunks === null) return true;
    this.chunks.push(chunk);
    // Before the Response is made, what was written waits here: past the mark, the writer is told to wait for 'drain'.
    this.held += typeof chunk === 'string' ? chunk.length : chunk.byteLength;
    return this.room(this.held < this.writableHighWaterMark);
  }

  /** What write() answers: no room means the writer waits for the 'drain' pull() gives. */
  room(ok: boolean): boolean {
    if (!ok) this.needDrain = true;
    return ok;
  }

  get writableCorked(): number {
    return this._writableState.corked;
  }

  cork(): void {
    this._writableState.corked++;
  }

  uncork(): void {
    if (this._writableState.corked > 0) this._writableState.corked--;
  }

  /** The consumer reads on: more request body for `req`. */
  resume(): this {
    if (this.reading) return this;
    if (this.reader !== null) void pump(this);
    else if (this.whole !== null) void readWhole(this);
    return this;
  }

  pause(): this {
    return this;
  }

  /**
   * As a socket's: after `ms` without reading or writing, 'timeout' (and
   * `callback`); then, as node's server does, 'timeout' on `req` (while its
   * body is incomplete) and `res`, and the connection closed if neither had
   * a listener. 0 turns it off. `res.setTimeout()` and `req.setTimeout()`
   * come here, as over a socket.
   */
  setTimeout(ms: number, callback?: () => void): this {
    if (callback !== undefined) {
      if (ms === 0) this.removeListener('timeout', callback);
      else this.once('timeout', callback);
    }
    this.idleMs = ms > 0 && Number.isFinite(ms) ? ms : 0;
    stopIdle(this);
    if (this.idleMs > 0 && !this.destroyed) startIdle(this);
    return this;
  }

  get timeout(): number {
    return this.idleMs;
  }

  setNoDelay(): this {
    return this;
  }

  setKeepAlive(): this {
    return this;
  }

  address(): object {
    return {};
  }

  end(): this {
    return this;
  }

  destroySoon(): void {
    this.destroy();
  }

  /** The client went away (signal, cancelled body) or the app cut the answer short: as a socket closing. */
  destroy(err?: Error): this {
    if (this.destroyed) return this;
    this.destroyed = true;
    stopIdle(this);
    // After a finished exchange, the client leaving is nothing the app hears of.
    if (this.res!.writableFinished) return this;
    this.readable = this.writable = false;
    this.signal?.removeEventListener('abort', this);
    unwatchLate(this);
    if (this.reader !== null) {
      this.reader.cancel().catch(ignore);
      this.reader = null;
    }
    this.whole = null;
    const req = this.req!;
    if (!req.destroyed) req.destroy(connReset());
    if (this.controller !== null) {
      try {
        this.controller.error(err ?? connReset());
      } catch {
        // Already closed or cancelled by the consumer.
      }
      this.controller = null;
    } else if (this.response === undefined && this.reject !== undefined) {
      this.reject(this.signal?.aborted ? this.signal.reason : (err ?? connReset()));
      this.resolve = this.reject = undefined;
    }
    process.nextTick(emitClose, this);
    return this;
  }

  /** `request.signal` aborted (an EventListener object, so no closure per request). */
  handleEvent(): void {
    this.destroy();
  }
}

function ignore(): void {}

function startIdle(socket: FetchSocket): void {
  socket.idle = setTimeout(onIdle, socket.idleMs, socket);
  // As a socket's timer: it does not keep the process alive.
  (socket.idle as { unref?: () => void }).unref?.();
}

function stopIdle(socket: FetchSocket): void {
  if (socket.idle === null) return;
  clearTimeout(socket.idle);
  socket.idle = null;
}

/** Reading or writing: the idle time starts again (a timer that can be refreshed is, else it is set anew: Deno's and workerd's are numbers). */
function refreshIdle(socket: FetchSocket): void {
  const idle = socket.idle as { refresh?: () => unknown } | number | null;
  if (typeof idle === 'object' && idle !== null && typeof idle.refresh === 'function') idle.refresh();
  else {
    stopIdle(socket);
    startIdle(socket);
  }
}

/** The idle time ran out: as node's net.Socket and then its HTTP server. */
function onIdle(socket: FetchSocket): void {
  socket.idle = null;
  if (socket.destroyed || socket.res === undefined || socket.res.writableFinished) return;
  socket.emit('timeout');
  const req = socket.req!;
  const heardByReq = !req.complete && req.emit('timeout', socket);
  const heardByRes = socket.res.emit('timeout', socket);
  if (!heardByReq && !heardByRes) socket.destroy();
}

/** Is `text`, written in `encoding`, the same bytes as in UTF-8 (UTF-8 itself, or ASCII in latin1: Express 5 sends ASCII so)? */
function sameInUtf8(text: string, encoding: BufferEncoding | null | undefined): boolean {
  if (encoding == null || encoding === 'utf8') return true;
  return (encoding === 'latin1' || encoding === 'binary' || encoding === 'ascii') && Buffer.byteLength(text) === text.length;
}

function toBytes(data: string | Uint8Array, encoding: BufferEncoding | null | undefined): Buffer {
  return typeof data === 'string' ? Buffer.from(data, encoding ?? 'utf8') : Buffer.from(data.buffer, data.byteOffset, data.byteLength);
}

/**
 * The whole body written in one turn: one UTF-8 string as is, else the
 * bytes (also for an untyped answer, which a string would make text/plain).
 */
function wholeBody(chunks: (Buffer | string)[], typed: boolean): string | Uint8Array<ArrayBuffer> {
  if (chunks.length === 1) {
    const only = chunks[0]!;
    if (typeof only !== 'string') return only as Uint8Array<ArrayBuffer>;
    if (typed) return only;
  }
  return Buffer.concat(chunks.map((c) => toBytes(c, 'utf8'))) as Uint8Array<ArrayBuffer>;
}

function connReset(): Error {
  return Object.assign(new Error('aborted'), { code: 'ECONNRESET' });
}

function emitClose(socket: FetchSocket): void {
  socket.emit('close', true);
}

/** Feeds the request body to `req` until it is full (node calls `socket.resume()` again from `req._read`). */
async function pump(socket: FetchSocket): Promise<void> {
  socket.reading = true;
  const req = socket.req!;
  try {
    for (;;) {
      const reader = socket.reader;
      if (reader === null) return;
      const { done, value } = await reader.read();
      if (socket.destroyed) return;
      if (done) {
        socket.reader = null;
        req.complete = true;
        req.push(null);
        return;
      }
      if (socket.idle !== null) refreshIdle(socket);
      if (!req.push(value)) return;
    }
  } catch (err) {
    // The body stream failed: as a connection that broke mid-body.
    if (!socket.destroyed) socket.destroy(err as Error);
  } finally {
    socket.reading = false;
  }
}

/** The tick after the first write: the Response, then that write's callback, in one tick. */
function settle(socket: FetchSocket): void {
  answer(socket);
  const callback = socket.callback;
  if (callback !== null) {
    socket.callback = null;
    callback();
  }
}

/** Feeds a short body to `req` in one piece (see takeBody). */
async function readWhole(socket: FetchSocket): Promise<void> {
  const request = socket.whole!;
  socket.whole = null;
  socket.reading = true;
  const req = socket.req!;
  try {
    const bytes = await request.arrayBuffer();
    if (socket.destroyed) return;
    if (bytes.byteLength > 0) req.push(Buffer.from(bytes));
    req.complete = true;
    req.push(null);
  } catch (err) {
    if (!socket.destroyed) socket.destroy(err as Error);
  } finally {
    socket.reading = false;
  }
}

/** Makes the `Response` once node has written the head and what came with it in the same turn. */
function answer(socket: FetchSocket): void {
  if (socket.resolve === undefined) return; // already failed (the client left first)
  const res = socket.res!;
  const req = socket.req!;
  const status = res.statusCode;
  socket.head ??= headersOf(headerBlockOf(res) ?? '', socket);
  const length = impliedLength(res, socket);
  if (length !== undefined) putHead(socket, 'Content-Length', length);
  const init = { status, statusText: res.statusMessage, headers: socket.head, ...RESPONSE_INIT };
  let body: BodyInit | null = null;
  if (!bodiless(status, req.method!)) {
    const chunks = socket.chunks!;
    if (res.writableFinished || res.writableEnded) body = wholeBody(chunks, socket.typed);
    else body = new ReadableStream<Uint8Array>(new ResponseSource(socket), byteQueue(socket.writableHighWaterMark));
    if (onWorkers && body instanceof ReadableStream) body = fixedLength(body, res);
  }
  socket.chunks = null;
  const resolve = socket.resolve!;
  const reject = socket.reject!;
  socket.resolve = socket.reject = undefined;
  try {
    socket.response = new Response(body, init);
  } catch (err) {
    // A status or reason a Response cannot carry (a final 1xx, say).
    reject(err);
    return;
  }
  resolve(socket.response);
}

/** A body queue measured in bytes, so `res.write()` says false once `mark` bytes wait for the reader (a count of chunks would not bound memory). */
function byteQueue(mark: number): QueuingStrategy<Uint8Array> {
  return { highWaterMark: mark, size: byteSize };
}

function byteSize(chunk: Uint8Array): number {
  return chunk.byteLength;
}

/** The `Response` body while the app is still writing: chunks as written, node told to wait while the consumer lags. */
class ResponseSource implements UnderlyingDefaultSource<Uint8Array> {
  constructor(private socket: FetchSocket) {}

  start(controller: ReadableStreamDefaultController<Uint8Array>): void {
    const socket = this.socket;
    for (const chunk of socket.chunks!) controller.enqueue(toBytes(chunk, 'utf8'));
    socket.controller = controller;
  }

  /** The reader took the queue below its mark: a writer told to wait hears 'drain', as from node's server when a socket drains. */
  pull(): void {
    const socket = this.socket;
    if (!socket.needDrain) return;
    socket.needDrain = false;
    const res = socket.res!;
    if (res.writableEnded) return;
    clearNeedDrain(res);
    res.emit('drain');
  }

  /** The consumer stopped reading: the client went away. */
  cancel(): void {
    this.socket.controller = null;
    this.socket.destroy();
  }
}

/**
 * The Content-Length node's server adds to an answer ended before its head
 * went out (`res.end(data)`) and framed no other way, which a `Response`
 * socket (no chunked default) does not make node add.
 */
function impliedLength(res: ServerResponse, socket: FetchSocket): string | undefined {
  const r = outgoingFields(res);
  if (socket.framed || typeof r._contentLength !== 'number' || !r._hasBody || r._removedContLen) return undefined;
  return String(r._contentLength);
}

/** `res` finished: the `Response` ends with it, and req and res close as after a finished exchange on a socket. */
function onFinish(this: ServerResponse): void {
  const socket = this.socket as unknown as FetchSocket | null;
  if (socket === null) return;
  socket.signal?.removeEventListener('abort', socket);
  unwatchLate(socket);
  stopIdle(socket);
  if (socket.response === undefined && !socket.scheduled) {
    // Nothing was written after the head (a bodiless answer): answer now.
    socket.chunks ??= [];
    answer(socket);
  } else if (socket.controller !== null) {
    socket.controller.close();
    socket.controller = null;
  }
  const req = socket.req!;
  // As node's server: a body nobody read is read to the end and dropped.
  if (!req.readableEnded && !isConsuming(req)) req.resume();
  if (onWorkers) detachOnWorkers(this, socket);
  else this.detachSocket(socket as never);
  process.nextTick(closeResponse, this);
}

/**
 * A `ws` route took the request (fetch-websocket.ts): the runtime's answer
 * (Deno's 101 Response; nothing on Bun, whose server answers) settles
 * app.fetch, and the exchange is the WebSocket's from now on.
 */
function handOver(socket: FetchSocket, response: Response | undefined): void {
  socket.signal?.removeEventListener('abort', socket);
  unwatchLate(socket);
  stopIdle(socket);
  // The response's 'finish' (the 101, for loggers) is no longer this socket's to answer.
  socket.res!.removeListener('finish', onFinish);
  socket.res!.detachSocket(socket as never);
  const resolve = socket.resolve;
  socket.resolve = socket.reject = undefined;
  resolve?.(response as Response);
}

function closeResponse(res: ServerResponse): void {
  const r = outgoingFields(res);
  if (r._closed) return;
  r.destroyed = true;
  r._closed = true;
  res.emit('close');
}

/** The request line's path: the URL from its path on (a `Request`'s URL never has a fragment). */
function pathOf(url: string): string {
  const slash = url.indexOf('/', url.indexOf('//') + 2);
  return slash < 0 ? '/' : url.slice(slash);
}

function putHeader(this: IncomingMessage, value: string, name: string): void {
  const headers = this.headers;
  if (name === 'set-cookie') (headers['set-cookie'] ??= []).push(value);
  else headers[name] = value;
  this.rawHeaders.push(name, value);
}

/** `app.fetch(request, options, context)`: the app's answer to `request` as a `Response`. */
export function fetchApp(app: FetchableApp, request: Request, options?: FetchOptions, context?: unknown): Promise<Response> {
  const url = request.url;
  const socket = new FetchSocket(url.charCodeAt(4) === 115 /* https: */, request, options);
  const classes = app._classes as unknown as AppClasses;
  const req = new classes.IncomingMessage(socket);
  if (onWorkers) adoptRequestOnWorkers(req, socket);
  req.httpVersionMajor = 1;
  req.httpVersionMinor = 1;
  req.httpVersion = '1.1';
  req.method = request.method;
  req.url = pathOf(url);
  req.headers = {};
  // A Worker calls fetch(request, env, ctx).
  if (onWorkers) setCloudflare(req, request, options, context);
  else if (options?.platform !== undefined) (req as IncomingMessage & { platform: unknown }).platform = options.platform;
  request.headers.forEach(putHeader, req);
  if (req.headers.host === undefined) {
    // A Request made in code often has no Host: the URL's is the one the client would send.
    const host = url.slice(url.indexOf('//') + 2, url.length - req.url.length);
    req.headers.host = host;
    req.rawHeaders.push('Host', host);
  }
  takeBody(socket, req, request);
  const res = new classes.ServerResponse(req);
  // No chunk framing and no keep-alive: the Response carries the body as is.
  res.useChunkedEncodingByDefault = false;
  res.shouldKeepAlive = false;
  watchHead(res);
  socket.req = req;
  socket.res = res;
  if (onWorkers) adoptOnWorkers(res, socket);
  else res.assignSocket(socket as never);
  res.on('finish', onFinish);
  const promise = new Promise<Response>((resolve, reject) => {
    socket.resolve = resolve;
    socket.reject = reject;
  });
  if (SIGNAL_FIRST && request.signal.aborted) {
    socket.signal = request.signal; // rejects with its reason
    socket.destroy();
    return promise;
  }
  if (req.headers.upgrade !== undefined) markFetchUpgrade(app as FetchableApp & { settings: Record<string, unknown> }, req, request, options, (response) => handOver(socket, response));
  app.handle(req, res);
  // An app that answered (or handed the exchange to a WebSocket) in this turn has nothing left to hear of the client leaving: no listener for it.
  if (res.writableEnded || socket.resolve === undefined) return promise;
  if (SIGNAL_FIRST) {
    watchSignal(socket, request.signal);
  } else {
    socket.late = request;
    watchLater(socket, watchLateSignal);
  }
  return promise;
}

/**
 * Is a Request's signal read before the app runs (one already aborted is
 * answered by a rejection, the app not run), and watched from the turn the
 * app did not answer in? Not on Deno: reading `request.signal` there makes
 * Deno.serve watch that request for an abort, which cost a bare handler more
 * than half its throughput (Deno 2.9: 185k to 70k req/s, by
 * bench/profile/signal-cost.mjs). There the signal is read only of an
 * answer still pending 20-40 ms later (late-signal.ts), so an aborted
 * Request still runs the app (docs/deploy.md).
 */
const SIGNAL_FIRST = process.versions.deno === undefined;

/**
 * Where a body up to this size, of declared length, is read in one call
 * rather than through a reader: Bun and Deno, whose `getReader()` and reads
 * cost more than the whole read (over a microsecond a request); undici's
 * reader, on node, costs less than its `arrayBuffer()`.
 */
const WHOLE_LIMIT = process.versions.bun !== undefined || process.versions.deno !== undefined ? 65536 : 0;

/** The request body for `req`: none, read whole, or pumped from a reader as `req` asks. */
function takeBody(socket: FetchSocket, req: IncomingMessage, request: Request): void {
  const length = req.headers['content-length'];
  if (length !== undefined && WHOLE_LIMIT > 0 && !request.bodyUsed) {
    // Digits only, as node's parser takes a length. A body shorter or longer than declared (a Request made in code)
    // still reaches req whole, so the body parsers answer the mismatch as before; an endless stream under a short length would not end.
    const n = Number(length);
    if (n > 0 && n <= WHOLE_LIMIT && String(n) === length) {
      socket.whole = request;
      return;
    }
  }
  const body = request.body;
  if (body === null) {
    req.complete = true;
    req.push(null);
    return;
  }
  // A body of unknown length comes as a chunked one would over a socket.
  if (length === undefined && req.headers['transfer-encoding'] === undefined) req.headers['transfer-encoding'] = 'chunked';
  socket.reader = body.getReader();
}

/** Deno: the answer is late, so its Request's signal is read now (late-signal.ts). */
function watchLateSignal(socket: FetchSocket): void {
  const request = socket.late!;
  socket.late = null;
  if (!socket.destroyed) watchSignal(socket, request.signal);
}

function unwatchLate(socket: FetchSocket): void {
  if (socket.late === null) return;
  socket.late = null;
  answered(socket);
}

/** `request.signal` aborting from now on (or while the app ran) is the client leaving. */
function watchSignal(socket: FetchSocket, signal: AbortSignal): void {
  socket.signal = signal;
  if (signal.aborted) socket.destroy();
  else signal.addEventListener('abort', socket);
}
