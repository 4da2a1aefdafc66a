// The `Response`'s headers for `app.fetch`, taken from what node's
// `writeHead` hands to `_storeHeader` (the response's header store, or the
// object or array given to `writeHead`), rather than from the header block
// node then writes: parsing the block back costs more than the rest of the
// head's work on Bun. node's own `_storeHeader` still runs (its checks, its
// framing decisions and `_header`, which middleware read); this only reads
// its arguments. The block is parsed only when a response's head was stored
// some other way (`headersOf`).
import type { ServerResponse } from 'node:http';
import { kOutHeaders } from '../response/header-store';

export type Pairs = [string, string][];

/** Where the head goes (the FetchSocket): its pairs, and what the body needs to know of them. */
export interface HeadSink {
  head: Pairs | null;
  /** The head has a Content-Type; a Content-Length or Transfer-Encoding. */
  typed: boolean;
  framed: boolean;
}

type HeaderValue = string | number | readonly (string | number)[];

interface Outgoing {
  _storeHeader(firstLine: string, headers: unknown): void;
  _headerSent: boolean;
  sendDate: boolean;
  socket: unknown;
}

/** The headers a `Response` does not carry: node's, for the connection. */
function hopByHop(lower: string): boolean {
  return lower === 'connection' || lower === 'keep-alive' || lower === 'transfer-encoding';
}

/**
 * One header line as node writes it: noted on the sink (node notes the
 * same names to frame the body), and kept unless it concerns the
 * connection. Answers whether it was a Date.
 */
function addLine(pairs: Pairs, sink: HeadSink, lower: string, name: string, value: string | number): boolean {
  if (lower === 'content-type') sink.typed = true;
  else if (lower === 'content-length' || lower === 'transfer-encoding') sink.framed = true;
  if (!hopByHop(lower)) pairs.push([name, typeof value === 'string' ? value : String(value)]);
  return lower === 'date';
}

/** One header: an array is one line per value, as node writes it (`Cookie`, which node joins, aside). */
function addHeader(pairs: Pairs, sink: HeadSink, lower: string, name: string, value: HeaderValue): boolean {
  if (!Array.isArray(value)) return addLine(pairs, sink, lower, name, value as string | number);
  if (lower === 'cookie' && value.length > 1) return addLine(pairs, sink, lower, name, value.join('; '));
  let dated = false;
  for (let i = 0; i < value.length; i++) dated = addLine(pairs, sink, lower, name, value[i]!) || dated;
  return dated;
}

/** The headers `_storeHeader` was given, in each form node takes them, as pairs; whether one was a Date. */
function addAll(pairs: Pairs, sink: HeadSink, headers: unknown, store: unknown): boolean {
  let dated = false;
  if (headers === null || headers === undefined) return false;
  if (headers === store) {
    const entries = headers as Record<string, [string, HeaderValue]>;
    for (const key in entries) {
      const entry = entries[key]!;
      dated = addHeader(pairs, sink, key, entry[0], entry[1]) || dated;
    }
  } else if (Array.isArray(headers)) {
    const list = headers as unknown[];
    if (list.length > 0 && Array.isArray(list[0])) {
      for (const [name, value] of list as [string, HeaderValue][]) dated = addHeader(pairs, sink, String(name).toLowerCase(), name, value) || dated;
    } else {
      for (let i = 0; i < list.length; i += 2) {
        const name = list[i] as string;
        dated = addHeader(pairs, sink, String(name).toLowerCase(), name, list[i + 1] as HeaderValue) || dated;
      }
    }
  } else {
    const object = headers as Record<string, HeaderValue>;
    for (const name in object) {
      if (Object.hasOwn(object, name)) dated = addHeader(pairs, sink, name.toLowerCase(), name, object[name]!) || dated;
    }
  }
  return dated;
}

let dateSecond = -1;
let dateText = '';

/** The Date node adds, kept for the second as node keeps it. */
function utcDate(): string {
  const now = Date.now();
  const second = Math.floor(now / 1000);
  if (second !== dateSecond) {
    dateSecond = second;
    dateText = new Date(now).toUTCString();
  }
  return dateText;
}

/**
 * Installed as a fetch response's own `_storeHeader`: node's runs, then its
 * arguments become the sink's pairs, with the Date node adds. The body then
 * goes to the socket without the header block (node prepends `_header` to
 * the first write until `_headerSent`).
 */
export function captureHead(this: Outgoing, firstLine: string, headers: unknown): void {
  (Object.getPrototypeOf(this) as Outgoing)._storeHeader.call(this, firstLine, headers);
  const sink = this.socket as HeadSink | null;
  if (sink === null || sink.head !== null) return;
  const pairs: Pairs = [];
  const dated = addAll(pairs, sink, headers, (this as unknown as Record<symbol, unknown>)[kOutHeaders!]);
  if (this.sendDate && !dated) pairs.push(['Date', utcDate()]);
  sink.head = pairs;
  this._headerSent = true;
}

/** Can `captureHead` find the header store here (the runtime keeps node's slot)? */
export const capturesHead = kOutHeaders !== undefined;

/**
 * The headers from node's header block, for a head stored without
 * `captureHead`: each line one header, so several Set-Cookie stay several.
 */
export function headersOf(block: string, sink: HeadSink): Pairs {
  const headers: Pairs = [];
  let start = block.indexOf('\r\n') + 2;
  for (;;) {
    const end = block.indexOf('\r\n', start);
    if (end <= start) break;
    const colon = block.indexOf(':', start);
    const name = block.slice(start, colon);
    const lower = name.toLowerCase();
    if (lower === 'content-type') sink.typed = true;
    else if (lower === 'content-length' || lower === 'transfer-encoding') sink.framed = true;
    if (!hopByHop(lower)) headers.push([name, block.slice(colon + 1, end).trim()]);
    start = end + 2;
  }
  return headers;
}

/** Makes `res` hand its head to `captureHead`. */
export function watchHead(res: ServerResponse): void {
  if (capturesHead) (res as unknown as Outgoing)._storeHeader = captureHead;
}
