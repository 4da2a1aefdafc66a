// What json, urlencoded, raw and text share: whether to read a request at
// all, reading its body within the limit (inflating gzip, deflate and br on
// the way, with the limit counted on the inflated bytes so a small compressed
// bomb is stopped early), `verify`, decoding the charset and parsing.
//
// The event listeners are module-level functions that find their request's
// state through a symbol: reading a body allocates one state object, not a
// set of closures.
import { AsyncResource } from 'node:async_hooks';
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { Transform } from 'node:stream';
import bytes from 'bytes';
import * as contentType from 'content-type';
import onFinished from 'on-finished';
import { boundedMemo } from '../memo';
import { lazy } from '../lazy';
import { createError, createHttpError, type HttpError, withStatus } from '../errors';

type Next = (err?: unknown) => void;
type Req = IncomingMessage & { body?: unknown; _body?: boolean; [kState]?: BodyState };
type Inflater = Transform & { [kState]?: BodyState };

export type VerifyFn = (req: IncomingMessage, res: ServerResponse, buf: Buffer, encoding: string | null) => void;
export type TypeOption = string | string[] | ((req: IncomingMessage) => unknown);

/**
 * An option only generations set (v4, legacy): read as body-parser 1.x did.
 * `req._body` marks a request a parser read, and another parser skips it;
 * a stream something else already read is a 500 `stream.not.readable`
 * (body-parser 2.x, and v5, skip any request whose body is over).
 */
export const kBodyParser1 = Symbol('trestle.bodyParser1');

/** The options every body parser takes. */
export interface CommonOptions {
  limit?: number | string | null;
  inflate?: boolean;
  type?: TypeOption;
  verify?: VerifyFn | false | null;
  [kBodyParser1]?: boolean;
}

/** One parser, settled when it is created. */
export interface ParserConfig {
  limit: number;
  inflate: boolean;
  verify: VerifyFn | undefined;
  matches: (req: IncomingMessage) => boolean;
  /** The charset to decode with, `null` to keep the Buffer; throws a 415 error for one it refuses. */
  charsetOf: (req: IncomingMessage) => string | null;
  /** Turns the decoded body into `req.body`; throws for a malformed one. */
  parse: (body: string & Buffer, charset: string | null) => unknown;
  /** See `kBodyParser1`. */
  bodyParser1: boolean;
}

const kState = Symbol('trestle.body');

// Loaded with the first body of a type to check (type-is, and the mime
// database behind it) or of a charset other than UTF-8 (iconv-lite).
const typeis = lazy(() => require('type-is') as typeof import('type-is'));
const iconv = lazy(() => require('iconv-lite') as typeof import('iconv-lite'));
// node's zlib is not loaded at start-up either: only compressed bodies need it.
const zlib = lazy(() => require('node:zlib') as typeof import('node:zlib') & { createZstdDecompress?: () => Transform });

/**
 * As type-is's `hasBody` (a body is announced by Transfer-Encoding or a
 * numeric Content-Length), or an HTTP/2 stream its client did not end with
 * the headers: an HTTP/2 body needs neither header, and clients streaming
 * one send none.
 */
function hasBody(req: IncomingMessage): boolean {
  return (
    req.headers['transfer-encoding'] !== undefined ||
    !Number.isNaN(Number(req.headers['content-length'])) ||
    (req as { stream?: { endAfterHeaders?: boolean } }).stream?.endAfterHeaders === false
  );
}

/** `limit`, `inflate`, `type` and `verify`, checked and compiled once. */
export function commonConfig(options: CommonOptions, defaultType: string): Pick<ParserConfig, 'limit' | 'inflate' | 'verify' | 'matches' | 'bodyParser1'> {
  // As body-parser: only undefined and null mean the default; '' or 'huge' is no byte count.
  const given = options.limit;
  const limit = given === undefined || given === null ? 102400 : bytes.parse(given);
  if (limit === null || Number.isNaN(limit)) throw createError(TypeError, 'TRESTLE_ERR_INVALID_OPTION', `option limit "${String(given)}" is invalid`);
  const verify = options.verify || undefined;
  if (verify !== undefined && typeof verify !== 'function') throw createError(TypeError, 'TRESTLE_ERR_INVALID_OPTION', 'option verify must be function');
  return { limit, inflate: options.inflate !== false, verify, matches: typeMatcher(options.type || defaultType), bodyParser1: options[kBodyParser1] === true };
}

/**
 * Does the request's Content-Type match `type`? Called for requests with a
 * body only. The answer depends on the header's text alone, and clients
 * send the same few values: it is remembered per value.
 */
function typeMatcher(type: TypeOption): (req: IncomingMessage) => boolean {
  if (typeof type === 'function') return (req) => Boolean(type(req));
  const types = Array.isArray(type) ? type : [type];
  const matches = boundedMemo((header) => Boolean(typeis().is(header, types)));
  return (req) => {
    const header = req.headers['content-type'];
    return header !== undefined && matches(header);
  };
}

const charsetOf = boundedMemo((header): string | undefined => {
  try {
    return contentType.parse(header).parameters.charset?.toLowerCase() || undefined;
  } catch {
    return undefined;
  }
});

/** The lower-cased `charset` parameter of `Content-Type`, if it parses. */
export function requestCharset(req: IncomingMessage): string | undefined {
  const header = req.headers['content-type'];
  return header === undefined ? undefined : charsetOf(header);
}

export function unsupportedCharset(charset: string): HttpError {
  return createHttpError(415, 'TRESTLE_ERR_CHARSET_UNSUPPORTED', `unsupported charset "${charset.toUpperCase()}"`, { charset, type: 'charset.unsupported' });
}

/**
 * The middleware: skips requests it should not read, else reads, verifies
 * and parses. It is named as body-parser names it (`jsonParser`, ...), which
 * stack dumps and tracing spans show.
 */
export function createParser(name: string, config: ParserConfig) {
  return named(name, function bodyParser(req: Req, res: ServerResponse, next: Next): void {
    // A body already read (by another parser) leaves the request finished.
    if (config.bodyParser1 ? req._body === true : onFinished.isFinished(req)) {
      next();
      return;
    }
    if (!('body' in req)) req.body = undefined;
    if (!hasBody(req) || !config.matches(req)) {
      next();
      return;
    }
    let charset: string | null;
    try {
      charset = config.charsetOf(req);
    } catch (err) {
      settle(req, err, next);
      return;
    }
    if (config.bodyParser1) req._body = true;
    read(req, res, next, config, charset);
  });
}

/** `fn`, named `name` (a function's name is configurable, not writable). */
export function named<F extends (...args: never[]) => unknown>(name: string, fn: F): F {
  return Object.defineProperty(fn, 'name', { value: name });
}

/** A new inflater for `encoding`, or undefined for one node cannot inflate (zstd exists from Node 22.15 on). */
function inflaterFor(encoding: string): Transform | undefined {
  switch (encoding) {
    case 'gzip': return zlib().createGunzip();
    case 'deflate': return zlib().createInflate();
    case 'br': return zlib().createBrotliDecompress();
    case 'zstd': return zlib().createZstdDecompress?.();
    default: return undefined;
  }
}

/**
 * Per-request reading state; listeners reach it through `source[kState]`.
 * It is an AsyncResource made in the middleware's call, so `next()`, called
 * from a stream event, runs in the request's async context
 * (AsyncLocalStorage stores survive the parser), at no extra allocation.
 */
class BodyState extends AsyncResource {
  chunks: Buffer[] = [];
  /** Bytes of body (after inflating). */
  received = 0;
  /** Bytes on the wire, counted only while inflating. */
  wire = 0;
  settled = false;
  constructor(
    readonly req: Req,
    readonly res: ServerResponse,
    readonly next: Next,
    readonly config: ParserConfig,
    readonly charset: string | null,
    /** The declared `Content-Length` of an uncompressed body. */
    readonly length: number | undefined,
    readonly inflater: Inflater | undefined,
  ) {
    super('trestle.body');
  }

  /** next(err?) in the context the middleware was called in. */
  resume(err?: unknown): void {
    this.runInAsyncScope(this.next, null, err);
  }
}

function read(req: Req, res: ServerResponse, next: Next, config: ParserConfig, charset: string | null): void {
  const encoding = (req.headers['content-encoding'] || 'identity').toLowerCase();
  let inflater: Inflater | undefined;
  if (encoding !== 'identity') {
    if (!config.inflate) {
      settle(req, createHttpError(415, 'TRESTLE_ERR_ENCODING_UNSUPPORTED', 'content encoding unsupported', { encoding, type: 'encoding.unsupported' }), next);
      return;
    }
    inflater = inflaterFor(encoding);
    if (inflater === undefined) {
      const message = `unsupported content encoding "${encoding}"`;
      settle(req, createHttpError(415, 'TRESTLE_ERR_ENCODING_UNSUPPORTED', message, { encoding, type: 'encoding.unsupported' }), next);
      return;
    }
  }
  // The declared length of a compressed body says nothing about its inflated size.
  const length = inflater === undefined ? declaredLength(req) : undefined;
  const error = precheck(req, config, charset, length);
  if (error !== undefined) {
    settle(req, error, next);
    return;
  }
  const state = new BodyState(req, res, next, config, charset, length, inflater);
  req[kState] = state;
  listen(req, requestListeners);
  if (inflater === undefined) {
    listen(req, plainBodyListeners);
    return;
  }
  inflater[kState] = state;
  listen(inflater, inflaterListeners);
  listen(req, compressedBodyListeners);
}

type Listener = (...args: never[]) => void;
type Listeners = ReadonlyArray<readonly [string, Listener]>;

/**
 * The request's end, however it comes. A client that goes away mid-body
 * shows as 'close' before the body is complete (node's deprecated 'aborted'
 * event comes just before it and adds nothing: one listener fewer to add and
 * remove on every body read).
 */
const requestListeners: Listeners = [
  ['close', onClose],
  ['error', onError],
];
/** An uncompressed body is read from the request itself. */
const plainBodyListeners: Listeners = [
  ['data', onData],
  ['end', onEnd],
];
/** A compressed one flows from the request into the inflater, and is read from there. */
const compressedBodyListeners: Listeners = [
  ['data', onWireData],
  ['end', onWireEnd],
];
const inflaterListeners: Listeners = [...plainBodyListeners, ['error', onError], ['drain', onInflaterDrain]];

type EmitterListener = (...args: unknown[]) => void;

function listen(emitter: Req | Inflater, listeners: Listeners): void {
  for (const [event, listener] of listeners) emitter.on(event, listener as EmitterListener);
}

function unlisten(emitter: Req | Inflater, listeners: Listeners): void {
  for (const [event, listener] of listeners) emitter.removeListener(event, listener as EmitterListener);
}

/** What can be refused before a byte is read. */
function precheck(req: Req, config: ParserConfig, charset: string | null, length: number | undefined): HttpError | undefined {
  if (req.readableEncoding) return createHttpError(500, 'TRESTLE_ERR_STREAM_ENCODING_SET', 'stream encoding should not be set', { type: 'stream.encoding.set' });
  if (!req.readable) return createHttpError(500, 'TRESTLE_ERR_STREAM_NOT_READABLE', 'stream is not readable', { type: 'stream.not.readable' });
  if (length !== undefined && length > config.limit) {
    const details = { expected: length, length, limit: config.limit, type: 'entity.too.large' };
    return createHttpError(413, 'TRESTLE_ERR_ENTITY_TOO_LARGE', 'request entity too large', details);
  }
  if (charset !== null && charset !== 'utf-8' && !iconv().encodingExists(charset)) return unsupportedCharset(charset);
  return undefined;
}

function declaredLength(req: IncomingMessage): number | undefined {
  const value = req.headers['content-length'];
  if (value === undefined) return undefined;
  const n = parseInt(value, 10);
  return Number.isNaN(n) ? undefined : n;
}

function onData(this: Req | Inflater, chunk: Buffer): void {
  const state = this[kState]!;
  if (state.settled) return;
  state.received += chunk.length;
  if (state.received > state.config.limit) {
    const details = { limit: state.config.limit, received: state.received, type: 'entity.too.large' };
    fail(state, createHttpError(413, 'TRESTLE_ERR_ENTITY_TOO_LARGE', 'request entity too large', details));
    return;
  }
  state.chunks.push(chunk);
}

/**
 * Compressed bytes, on their way to the inflater. A body whose compressed
 * form is already over the limit is refused too (with room for deflate's
 * small overhead on incompressible data), so a stream of empty gzip members
 * cannot keep the connection reading for ever.
 */
function onWireData(this: Req, chunk: Buffer): void {
  const state = this[kState]!;
  if (state.settled) return;
  state.wire += chunk.length;
  const limit = state.config.limit;
  if (state.wire > limit + Math.ceil(limit / 1024) + 1024) {
    const details = { limit, received: state.wire, type: 'entity.too.large' };
    fail(state, createHttpError(413, 'TRESTLE_ERR_ENTITY_TOO_LARGE', 'request entity too large', details));
    return;
  }
  if (!state.inflater!.write(chunk)) this.pause();
}

function onInflaterDrain(this: Inflater): void {
  const state = this[kState]!;
  if (!state.settled) state.req.resume();
}

function onWireEnd(this: Req): void {
  const state = this[kState]!;
  if (!state.settled) state.inflater!.end();
}

function onEnd(this: Req | Inflater): void {
  const state = this[kState]!;
  if (state.settled) return;
  // An HTTP/2 stream reset by its client ends the request (node pushes its
  // end) after marking it aborted: the body is cut, not complete.
  if ((state.req as { aborted?: boolean }).aborted === true) {
    fail(state, abortedError(state));
    return;
  }
  if (state.length !== undefined && state.received !== state.length) {
    fail(state, createHttpError(400, 'TRESTLE_ERR_REQUEST_SIZE_INVALID', 'request size did not match content length', {
      expected: state.length,
      length: state.length,
      received: state.received,
      type: 'request.size.invalid',
    }));
    return;
  }
  state.settled = true;
  release(state);
  const buf = state.chunks.length === 1 ? state.chunks[0]! : Buffer.concat(state.chunks, state.received);
  state.chunks = [];
  finish(state, buf);
}

/** `close` before the whole body came: the client went away. */
function onClose(this: Req): void {
  const state = this[kState]!;
  if (!state.settled && !this.complete) fail(state, abortedError(state));
}

function onError(this: Req | Inflater, err: Error): void {
  const state = this[kState]!;
  if (state.settled) return;
  if (!state.req.complete && (err as NodeJS.ErrnoException).code === 'ECONNRESET') fail(state, abortedError(state));
  else fail(state, withStatus(err, 400, 'TRESTLE_ERR_BODY_READ_FAILED'));
}

function abortedError(state: BodyState): HttpError {
  // body-parser's code, which Express users test.
  return createHttpError(400, 'ECONNABORTED', 'request aborted', {
    expected: state.length ?? null,
    length: state.length ?? null,
    received: state.received,
    type: 'request.aborted',
  });
}

/** Stops listening; the inflater, if any, is done with. */
function release(state: BodyState): void {
  const { req, inflater } = state;
  unlisten(req, requestListeners);
  req[kState] = undefined;
  if (inflater === undefined) {
    unlisten(req, plainBodyListeners);
    return;
  }
  unlisten(req, compressedBodyListeners);
  unlisten(inflater, inflaterListeners);
  // A late error from the destroyed inflater must find a listener.
  inflater.on('error', ignore);
  inflater.destroy();
}

function ignore(): void {}

function fail(state: BodyState, err: unknown): void {
  state.settled = true;
  state.chunks = [];
  release(state);
  settle(state.req, err, (e) => state.resume(e));
}

/**
 * Hands `err` on once the request is over. The rest of the body is read and
 * dropped, never kept, so the answer to a refused body reaches a client that
 * is still sending and the connection stays usable.
 */
function settle(req: Req, err: unknown, next: Next): void {
  if (onFinished.isFinished(req)) {
    next(err);
    return;
  }
  req.resume();
  onFinished(req, () => next(err));
}

/** verify, decode, parse: the body is complete. */
function finish(state: BodyState, buf: Buffer): void {
  const { req, res, config, charset } = state;
  if (config.verify !== undefined) {
    try {
      config.verify(req, res, buf, charset);
    } catch (err) {
      // An error with its own status and type keeps them, as body-parser does.
      const type = (err as HttpError | null)?.type || 'entity.verify.failed';
      state.resume(withStatus(err, 403, 'TRESTLE_ERR_ENTITY_VERIFY_FAILED', { body: buf, type }));
      return;
    }
  }
  const body = charset === null ? buf : decode(buf, charset);
  try {
    req.body = config.parse(body as string & Buffer, charset);
  } catch (err) {
    const typed = (err as HttpError).type !== undefined;
    state.resume(typed ? err : withStatus(err, 400, 'TRESTLE_ERR_ENTITY_PARSE_FAILED', { body, type: 'entity.parse.failed' }));
    return;
  }
  state.resume();
}

/** UTF-8 without iconv (and without its byte-order mark); other charsets through iconv-lite. */
function decode(buf: Buffer, charset: string): string {
  if (charset === 'utf-8' || charset === 'utf8') {
    const bom = buf.length >= 3 && buf[0] === 0xef && buf[1] === 0xbb && buf[2] === 0xbf;
    return buf.toString('utf8', bom ? 3 : 0);
  }
  return iconv().decode(buf, charset);
}
