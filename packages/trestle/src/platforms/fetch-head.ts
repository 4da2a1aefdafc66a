// The `Response`'s headers for `app.fetch`, taken from what node's
// `writeHead` hands to `_storeHeader` (the response's header store, or the
// object or array given to `writeHead`), rather than from the header block
// node then writes: parsing the block back costs more than the rest of the
// head's work on Bun. node's own `_storeHeader` still runs (its checks, its
// framing decisions and `_header`, which middleware read); this only reads
// its arguments. The block is parsed only when a response's head was stored
// some other way (`headersOf`).
import type { OutgoingMessage, ServerResponse } from 'node:http';
import { fastRecordType } from '../fast-properties';
import { kOutHeaders, type OutgoingFields, outgoingFields, outHeadersOf } from '../node-internals';

export type Pairs = [string, string][];
/** A Response's headers: a record while no name repeats (a Response takes it faster than pairs), else pairs. */
export type Head = Record<string, string> | Pairs;

/** Where the head goes (the FetchSocket): its headers, and what the body needs to know of them. */
export interface HeadSink {
  head: Head | null;
  /** The head has a Content-Type; a Content-Length or Transfer-Encoding; a Date. */
  typed: boolean;
  framed: boolean;
  dated: boolean;
}

type HeaderValue = string | number | readonly (string | number)[];

/** A response as captureHead sees it: its socket is app.fetch's, which takes the head. */
type Outgoing = Omit<OutgoingMessage, 'socket'> & OutgoingFields & { socket: HeadSink | null };

/** The Response's headers while no name repeats: any name (`__proto__`, `constructor`) an own key. */
const HeadRecord = fastRecordType<Record<string, string>>();

/** Adds a header to the sink's head: a repeated name turns the record into pairs. */
export function putHead(sink: HeadSink, name: string, value: string): void {
  const head = sink.head!;
  if (Array.isArray(head)) {
    head.push([name, value]);
  } else if (head[name] === undefined) {
    head[name] = value;
  } else {
    const pairs = Object.entries(head);
    pairs.push([name, value]);
    sink.head = pairs;
  }
}

/** The headers a `Response` does not carry: node's, for the connection. */
function hopByHop(lower: string): boolean {
  return lower === 'connection' || lower === 'keep-alive' || lower === 'transfer-encoding';
}

/**
 * One header line as node writes it: noted on the sink (node notes the
 * same names to frame the body and to add a Date), and kept unless it
 * concerns the connection.
 */
function addLine(sink: HeadSink, lower: string, name: string, value: string | number): void {
  if (lower === 'content-type') sink.typed = true;
  else if (lower === 'content-length' || lower === 'transfer-encoding') sink.framed = true;
  else if (lower === 'date') sink.dated = true;
  if (!hopByHop(lower)) putHead(sink, name, typeof value === 'string' ? value : String(value));
}

/** One header: an array is one line per value, as node writes it (`Cookie`, which node joins, aside). */
function addHeader(sink: HeadSink, lower: string, name: string, value: HeaderValue): void {
  if (!Array.isArray(value)) addLine(sink, lower, name, value as string | number);
  else if (lower === 'cookie' && value.length > 1) addLine(sink, lower, name, value.join('; '));
  else for (let i = 0; i < value.length; i++) addLine(sink, lower, name, value[i]!);
}

/** The headers `_storeHeader` was given, in each form node takes them. */
function addAll(sink: HeadSink, headers: unknown, store: unknown): void {
  if (headers === null || headers === undefined) return;
  if (headers === store) {
    const entries = headers as Record<string, [string, HeaderValue]>;
    for (const key in entries) {
      const entry = entries[key]!;
      addHeader(sink, key, entry[0], entry[1]);
    }
  } else if (Array.isArray(headers)) {
    const list = headers as unknown[];
    if (list.length > 0 && Array.isArray(list[0])) {
      for (const [name, value] of list as [string, HeaderValue][]) addHeader(sink, String(name).toLowerCase(), name, value);
    } else {
      for (let i = 0; i < list.length; i += 2) {
        const name = list[i] as string;
        addHeader(sink, String(name).toLowerCase(), name, list[i + 1] as HeaderValue);
      }
    }
  } else {
    const object = headers as Record<string, HeaderValue>;
    for (const name in object) {
      if (Object.hasOwn(object, name)) addHeader(sink, name.toLowerCase(), name, object[name]!);
    }
  }
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
 * arguments become the sink's head, with the Date node adds. The body then
 * goes to the socket without the header block (node prepends `_header` to
 * the first write until `_headerSent`).
 */
export function captureHead(this: Outgoing, firstLine: string, headers: unknown): void {
  (Object.getPrototypeOf(this) as Outgoing)._storeHeader.call(this, firstLine, headers);
  const sink = this.socket;
  if (sink === null || sink.head !== null) return;
  sink.head = new HeadRecord();
  addAll(sink, headers, outHeadersOf(this as OutgoingMessage));
  if (this.sendDate && !sink.dated) putHead(sink, 'Date', utcDate());
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
  if (capturesHead) outgoingFields(res)._storeHeader = captureHead;
}
