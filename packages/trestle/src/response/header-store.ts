// The hot path's way of setting response headers whose values the framework
// made itself (X-Powered-By, Content-Type from a validated table,
// Content-Length, a computed ETag).
//
// node keeps a response's headers in an own property under an internal
// symbol, as `{ lowercased-name: [name, value] }`. `setHeader` validates
// name and value with two regular expressions, lower-cases the name and
// stores into an object with a null prototype, which V8 keeps in dictionary
// mode; node then walks it with for-in to write the head. For the four
// headers of an Express-style answer that is a measured ~10% of a hello
// world (docs/PERFORMANCE.md). Writing into the same slot directly, with an
// object V8 keeps in fast mode, gives node the very store it would have
// built, minus the work: getHeader, getHeaders, removeHeader, writeHead and
// every middleware see no difference.
//
// This leans on a node internal (the symbol's description and the entry
// shape, probed when this module loads). If a node lacks it, or a response's
// setHeader/getHeader were replaced by someone (instrumentation does that),
// the public methods are used instead.
import { ServerResponse } from 'node:http';
import { fastRecordType } from '../fast-properties';
import { headerBlockOf, kOutHeaders, outHeadersOf, type OutHeaders, setOutHeaders } from '../node-internals';

type Value = number | string | string[];
type Store = OutHeaders;

interface Outgoing {
  setHeader(name: string, value: Value): unknown;
  getHeader(name: string): Value | undefined;
  removeHeader(name: string): void;
}

// Re-exported for app.fetch's head capture, which reads the same store.
export { kOutHeaders };

const nodeSetHeader = ServerResponse.prototype.setHeader;
const nodeGetHeader = ServerResponse.prototype.getHeader;
const nodeRemoveHeader = ServerResponse.prototype.removeHeader;

/** A header store V8 keeps in fast mode, with no inherited key (the reason node uses a null prototype). */
const HeaderStore = fastRecordType<Store>();

function direct(res: Outgoing): boolean {
  return kOutHeaders !== undefined && res.setHeader === nodeSetHeader && res.getHeader === nodeGetHeader;
}

/**
 * The store to write into, created if need be; undefined when the public
 * methods must be used (see above) or the head is sent (setHeader then
 * throws node's own error).
 */
function writableStore(res: Outgoing): Store | undefined {
  if (!direct(res) || headerBlockOf(res as ServerResponse) !== null) return undefined;
  const store = outHeadersOf(res as ServerResponse);
  if (store) return store;
  const made = new HeaderStore();
  setOutHeaders(res as ServerResponse, made);
  return made;
}

/** The store to read from; null when there is none yet, undefined when getHeader must be used. */
function readableStore(res: Outgoing): Store | null | undefined {
  return direct(res) ? outHeadersOf(res as ServerResponse) : undefined;
}

/**
 * An HTTP/2 response keeps its headers as `{ lowercased-name: value }`;
 * response/http2.ts, loaded with the first HTTP/2 request, says where (or
 * undefined, for the same reasons as above). node's setHeader costs ten
 * times a store there, and an answer sets four headers.
 */
type Http2Store = Record<string, Value | undefined>;
let http2Store: ((res: Outgoing) => Http2Store | undefined) | undefined;

export function useHttp2Store(find: (res: Outgoing) => Http2Store | undefined): void {
  http2Store = find;
}

/** node's removeHeader for HTTP/2 responses (Http2ServerResponse's), set by response/http2.ts. */
let http2RemoveHeader: ((this: Outgoing, name: string) => void) | undefined;

export function useHttp2RemoveHeader(remove: (this: Outgoing, name: string) => void): void {
  http2RemoveHeader = remove;
}

/**
 * `res.removeHeader(name)`, as node does it, but keeping the store in fast
 * mode. node deletes the key from the store, and V8 turns an object from
 * which any but its last-added key is deleted into a dictionary: helmet
 * removes X-Powered-By (set first) after adding a dozen headers, and every
 * later header access of that response, and node's walk of the store to
 * write the head, ran on the dictionary (the api scenario's profile). The
 * store is copied without the key instead (node then deletes a key that is
 * not there: its checks, errors and flags for Connection, Content-Length,
 * Date and Transfer-Encoding stay its own). An HTTP/2 response goes to
 * node's HTTP/2 method.
 */
export function removeHeader(res: Outgoing, name: string): void {
  if (!(res instanceof ServerResponse)) {
    (http2RemoveHeader ?? nodeRemoveHeader).call(res, name);
    return;
  }
  if (typeof name === 'string') dropFromStore(res, name.toLowerCase());
  // Looked up now: a tool that wraps node's method after trestle loaded still sees every call.
  ServerResponse.prototype.removeHeader.call(res, name);
}

/** Replaces the store with a copy lacking `key`, when there is one to copy and the head is not sent. */
function dropFromStore(res: Outgoing, key: string): void {
  const store = readableStore(res);
  if (store === undefined || store === null || headerBlockOf(res as ServerResponse) !== null || store[key] === undefined) return;
  const kept = new HeaderStore();
  for (const other in store) if (other !== key) kept[other] = store[other];
  setOutHeaders(res as ServerResponse, kept);
}

/** `res.setHeader(name, value)` on a response that is not node:http's own (`key` is `name` lower-cased). */
function putOther(res: Outgoing, name: string, key: string, value: string): void {
  const store = http2Store?.(res);
  if (store === undefined) res.setHeader(name, value);
  else store[key] = value;
}

/** `res.getHeader(key)` on a response that is not node:http's own. */
function peekOther(res: Outgoing, key: string): Value | undefined {
  const store = http2Store?.(res);
  return store === undefined ? res.getHeader(key) : store[key];
}

// One function per header, each storing under a literal key: V8 caches a
// property access by its name, and a single function taking the name as an
// argument sees four names and falls back to its slowest, generic lookup
// (the largest share of send()'s own time in a profile).

/** `res.setHeader('X-Powered-By', value)`. */
export function putPoweredBy(res: Outgoing, value: string): void {
  const store = writableStore(res);
  if (store === undefined) putOther(res, 'X-Powered-By', 'x-powered-by', value);
  else store['x-powered-by'] = ['X-Powered-By', value];
}

/** `res.setHeader('Content-Type', value)`. */
export function putContentType(res: Outgoing, value: string): void {
  const store = writableStore(res);
  if (store === undefined) putOther(res, 'Content-Type', 'content-type', value);
  else store['content-type'] = ['Content-Type', value];
}

/** `res.setHeader('Content-Length', value)`. */
export function putContentLength(res: Outgoing, value: string): void {
  const store = writableStore(res);
  if (store === undefined) putOther(res, 'Content-Length', 'content-length', value);
  else store['content-length'] = ['Content-Length', value];
}

/** `res.setHeader('ETag', value)`. */
export function putETag(res: Outgoing, value: string): void {
  const store = writableStore(res);
  if (store === undefined) putOther(res, 'ETag', 'etag', value);
  else store.etag = ['ETag', value];
}

/** `res.getHeader('Content-Type')`. */
export function peekContentType(res: Outgoing): Value | undefined {
  const store = readableStore(res);
  if (store === undefined) return peekOther(res, 'content-type');
  return store === null ? undefined : store['content-type']?.[1];
}

/** `res.getHeader('ETag')`. */
export function peekETag(res: Outgoing): Value | undefined {
  const store = readableStore(res);
  if (store === undefined) return peekOther(res, 'etag');
  return store === null ? undefined : store.etag?.[1];
}

/** `res.getHeader('Transfer-Encoding')`. */
export function peekTransferEncoding(res: Outgoing): Value | undefined {
  const store = readableStore(res);
  if (store === undefined) return res.getHeader('transfer-encoding');
  return store === null ? undefined : store['transfer-encoding']?.[1];
}
