// Every private field and symbol of node's that trestle reads or replaces,
// in one place. node documents none of them; each is here because no public
// way gives the same (why, beside each). A symbol is found by its
// description on a probe object, once, when this module loads, never by
// position. Each accessor answers `undefined` (or does nothing) where the
// field is missing, and its caller then falls back to the public way; the
// self-check test (test/node-internals.test.ts, run on every supported Node)
// names the field when a node release moves one, so an upgrade breaks a test
// rather than turning a feature into a silent hang.
import { EventEmitter } from 'node:events';
import { type IncomingMessage, OutgoingMessage, type Server, ServerResponse } from 'node:http';
import { Http2ServerResponse, type Http2Server, type Http2Stream } from 'node:http2';
import type Module from 'node:module';
import type { Socket } from 'node:net';

/** The symbol under which node keeps `description`'s slot on `object`. */
function symbolOf(object: object, description: string): symbol | undefined {
  return Object.getOwnPropertySymbols(object).find((s) => s.description === description);
}

/** An object's symbol-keyed slots (a type's view). */
function slots(object: object): Record<symbol, unknown> {
  return object as Record<symbol, unknown>;
}

/** The value of node's symbol-keyed slot `description` on `object`. */
function slotOf(object: object, description: string): unknown {
  const symbol = symbolOf(object, description);
  return symbol === undefined ? undefined : slots(object)[symbol];
}

type HeaderValue = number | string | string[];
/** node's store of an HTTP/1.1 response's headers: `{ lowercased-name: [name, value] }`. */
export type OutHeaders = Record<string, [name: string, value: HeaderValue] | undefined>;

/**
 * `kOutHeaders`: an HTTP/1.1 response's header store (header-store.ts writes
 * into it to skip setHeader's validation of values trestle made itself).
 * Probed for its shape too, so a node that keeps the symbol but changes the
 * entries is treated as one without it.
 */
export const kOutHeaders: symbol | undefined = (() => {
  const probe = new ServerResponse({ method: 'GET', httpVersionMajor: 1, httpVersionMinor: 1, headers: {} } as IncomingMessage);
  const sym = symbolOf(probe, 'kOutHeaders');
  if (sym === undefined || slots(probe)[sym] !== null) return undefined;
  probe.setHeader('X-Probe', '1');
  const entry = (slots(probe)[sym] as OutHeaders | null)?.['x-probe'];
  return Array.isArray(entry) && entry[0] === 'X-Probe' && entry[1] === '1' ? sym : undefined;
})();

/** An HTTP/1.1 response's header store: null before the first header, undefined without `kOutHeaders`. */
export function outHeadersOf(res: OutgoingMessage): OutHeaders | null | undefined {
  return kOutHeaders === undefined ? undefined : (slots(res)[kOutHeaders] as OutHeaders | null);
}

/** Replaces the response's header store (only with `kOutHeaders`). */
export function setOutHeaders(res: OutgoingMessage, store: OutHeaders): void {
  if (kOutHeaders !== undefined) slots(res)[kOutHeaders] = store;
}

type Http2Headers = Record<string, HeaderValue | undefined>;

/**
 * An HTTP/2 compatibility response's own header object (response/http2.ts
 * gives it a fast-mode one). Found on first use, not at load: this module
 * loads on Workers, whose node:http2 throws when Http2ServerResponse is read.
 */
let http2HeadersSymbol: symbol | undefined | null = null;
export function kHttp2Headers(): symbol | undefined {
  if (http2HeadersSymbol !== null) return http2HeadersSymbol;
  const probe = new Http2ServerResponse(new EventEmitter() as never);
  const sym = symbolOf(probe, 'headers');
  if (sym !== undefined) probe.setHeader('X-Probe', '1');
  http2HeadersSymbol = sym !== undefined && (slots(probe)[sym] as Http2Headers | undefined)?.['x-probe'] === '1' ? sym : undefined;
  return http2HeadersSymbol;
}

export function http2HeadersOf(res: Http2ServerResponse): Http2Headers | undefined {
  const sym = kHttp2Headers();
  return sym === undefined ? undefined : (slots(res)[sym] as Http2Headers | undefined);
}

export function setHttp2Headers(res: Http2ServerResponse, headers: Http2Headers): void {
  const sym = kHttp2Headers();
  if (sym !== undefined) slots(res)[sym] = headers;
}

/**
 * The flag behind `writableNeedDrain`: a response on a socket that is not a
 * net.Socket (app.fetch's) must clear it and emit 'drain' as node's server
 * does when the socket drains.
 */
export const kNeedDrain: symbol | undefined = symbolOf(new OutgoingMessage(), 'kNeedDrain');

/** `res` was told to wait (its last write returned false) and has not drained. */
export function needsDrain(res: OutgoingMessage): boolean {
  return kNeedDrain !== undefined && slots(res)[kNeedDrain] === true;
}

export function clearNeedDrain(res: OutgoingMessage): void {
  if (kNeedDrain !== undefined) slots(res)[kNeedDrain] = false;
}

/** What node keeps on an outgoing message while it frames it (read by app.fetch, which has no socket to frame for). */
export interface OutgoingFields {
  /** The header block once made (`HTTP/1.1 200 OK\r\n...`); middleware read it too. */
  _header: string | null;
  /** The header block went out with a write. */
  _headerSent: boolean;
  /** Turns the head into `_header`; app.fetch wraps it to take the headers as given. */
  _storeHeader(firstLine: string, headers: unknown): void;
  /** The Content-Length node would add for an answer ended before its head went out. */
  _contentLength: number | null;
  _hasBody: boolean;
  _removedContLen: boolean;
  /** Set once 'close' was emitted. */
  _closed?: boolean;
}

/** The fields above, on a response (a type's view: nothing is read here). */
export function outgoingFields(res: OutgoingMessage): OutgoingMessage & OutgoingFields {
  return res as OutgoingMessage & OutgoingFields;
}

/** The header block node made for `res`, or null before its head is stored. */
export function headerBlockOf(res: OutgoingMessage): string | null {
  return outgoingFields(res)._header ?? null;
}

/** The request's body is being read by someone (node resumes an unread body when the answer ends). */
export function isConsuming(req: IncomingMessage): boolean {
  return (req as IncomingMessage & { _consuming?: boolean })._consuming === true;
}

/** The response in flight on an HTTP/1.1 socket, as node links them (what http-terminator and stoppable read too). */
export function responseOnSocket(socket: Socket): ServerResponse | null | undefined {
  return (socket as Socket & { _httpMessage?: ServerResponse | null })._httpMessage;
}

/** node's count of a server's open connections (net.Server keeps it; `getConnections` only by callback). */
export function connectionCount(server: object): number | undefined {
  const count = (server as Server & { _connections?: unknown })._connections;
  return typeof count === 'number' ? count : undefined;
}

/** The sockets of every connection node's HTTP/1.1 server tracks (the list behind `closeIdleConnections`). */
export function trackedSockets(server: object): Socket[] | undefined {
  const list = slotOf(server, 'http.server.connections') as { all?(): Array<{ socket?: Socket | null }> } | undefined;
  if (typeof list?.all !== 'function') return undefined;
  const sockets: Socket[] = [];
  for (const parser of list.all()) if (parser.socket) sockets.push(parser.socket);
  return sockets;
}

/** node's map of an HTTP/2 session's open streams, kept in its session state (no public list). */
function streamMap(session: object): { size?: unknown; values?(): Iterable<Http2Stream> } | undefined {
  // node's own Map subclass, made from its primordials: not `instanceof Map` here.
  return (slotOf(session, 'state') as { streams?: { size?: unknown; values?(): Iterable<Http2Stream> } } | undefined)?.streams;
}

/** The number of streams open on an HTTP/2 session (node's session state; there is no public count). */
export function openStreamCount(session: object): number | undefined {
  const size = streamMap(session)?.size;
  return typeof size === 'number' ? size : undefined;
}

/** The streams open on an HTTP/2 session (empty where node's session state is missing). */
export function openStreamsOf(session: object): Http2Stream[] {
  const map = streamMap(session);
  return typeof map?.values === 'function' ? [...map.values()] : [];
}

/** A server's request and response classes (undefined: node's own). */
interface ServerClasses {
  IncomingMessage?: unknown;
  ServerResponse?: unknown;
}

/**
 * Gives an HTTP/1.1 server the request and response classes it constructs
 * for each request (node reads them from the options slots `IncomingMessage`
 * and `ServerResponse`, which `createServer` fills; a server already made has
 * no public way to change them). Only slots still holding `from` change.
 */
export function replaceServerClasses(server: Server, from: ServerClasses, to: ServerClasses): void {
  const own = slots(server);
  for (const name of ['IncomingMessage', 'ServerResponse'] as const) {
    const symbol = symbolOf(server, name);
    if (symbol !== undefined && to[name] !== undefined && own[symbol] === from[name]) own[symbol] = to[name];
  }
}

/** The options an HTTP/2 server was made with (`Http1IncomingMessage`/`Http1ServerResponse` of an `allowHTTP1` server are read from here per connection). */
export function http2ServerOptions(server: Http2Server): Record<string, unknown> | undefined {
  const options = slotOf(server, 'options');
  return typeof options === 'object' && options !== null ? (options as Record<string, unknown>) : undefined;
}

type ResolveFilename = (request: string, parent: unknown, isMain: boolean, options?: unknown) => string;

/**
 * From now on `require(request)` loads `target(request)` where it names a
 * file. Through `Module._resolveFilename`, the resolver every `require` goes
 * through: used only on a node older than 22.15, which has no
 * `module.registerHooks` (the upgrade report's `require('express')`).
 * node:module is passed in, not imported: this module also loads on Workers.
 */
export function redirectRequires(module: typeof Module, target: (request: string) => string | undefined): void {
  const modules = module as typeof Module & { _resolveFilename: ResolveFilename };
  const original = modules._resolveFilename;
  modules._resolveFilename = function (this: unknown, request, parent, isMain, options) {
    const file = typeof request === 'string' ? target(request) : undefined;
    return original.call(this, file ?? request, parent, isMain, options);
  };
}
