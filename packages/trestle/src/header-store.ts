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

type Value = number | string | string[];
type Entry = [name: string, value: Value];
type Store = Record<string, Entry | undefined>;

interface Outgoing {
  _header?: string | null;
  setHeader(name: string, value: Value): unknown;
  getHeader(name: string): Value | undefined;
}

/** node's own slot for the outgoing headers, found on a throwaway response. */
const kOutHeaders: symbol | undefined = (() => {
  const probe = new ServerResponse({ method: 'GET', httpVersionMajor: 1, httpVersionMinor: 1, headers: {} } as never);
  const sym = Object.getOwnPropertySymbols(probe).find((s) => s.description === 'kOutHeaders');
  if (sym === undefined || (probe as unknown as Record<symbol, unknown>)[sym] !== null) return undefined;
  probe.setHeader('X-Probe', '1');
  const entry = (probe as unknown as Record<symbol, Store>)[sym]!['x-probe'];
  return Array.isArray(entry) && entry[0] === 'X-Probe' && entry[1] === '1' ? sym : undefined;
})();

const nodeSetHeader = ServerResponse.prototype.setHeader;
const nodeGetHeader = ServerResponse.prototype.getHeader;

/**
 * A header store V8 keeps in fast mode: instances of a constructor whose
 * prototype has no properties, so no lookup ever finds an inherited key
 * (the reason node uses a null prototype).
 */
const HeaderStore = function HeaderStore() {} as unknown as new () => Store;
HeaderStore.prototype = Object.create(null) as Store;

function direct(res: Outgoing): boolean {
  return kOutHeaders !== undefined && res.setHeader === nodeSetHeader && res.getHeader === nodeGetHeader;
}

/**
 * `res.setHeader(name, value)` for a value known to be valid header text;
 * `key` is `name` lower-cased. After the head is sent it throws node's own
 * error, as setHeader does.
 */
export function putHeader(res: Outgoing, key: string, name: string, value: Value): void {
  if (!direct(res) || res._header) {
    res.setHeader(name, value);
    return;
  }
  const slot = res as unknown as Record<symbol, Store | null>;
  let store = slot[kOutHeaders!];
  if (store === null || store === undefined) store = slot[kOutHeaders!] = new HeaderStore();
  store[key] = [name, value];
}

/** `res.getHeader(name)`, `key` being `name` lower-cased. */
export function peekHeader(res: Outgoing, key: string): Value | undefined {
  if (!direct(res)) return res.getHeader(key);
  const store = (res as unknown as Record<symbol, Store | null>)[kOutHeaders!];
  if (store === null || store === undefined) return undefined;
  const entry = store[key];
  return entry === undefined ? undefined : entry[1];
}
