// What an HTTP/2 response does differently from node's compatibility layer
// (`Http2ServerResponse`), put on a layer just above node's prototype, below
// every trestle member, so HTTP/1.1 responses pay nothing for it.
//
// - Connection-specific headers (`Connection`, `Keep-Alive`,
//   `Proxy-Connection`, `Transfer-Encoding`, `Upgrade`, `HTTP2-Settings`, a
//   `TE` other than `trailers`) mean nothing on an HTTP/2 stream (RFC 9113
//   8.2.2). node accepts most of them in setHeader and then throws
//   ERR_HTTP2_INVALID_CONNECTION_HEADERS when the head goes out, where no
//   handler can catch it; middleware written for HTTP/1.1 sets them freely.
//   They are dropped here, silently, in every way a header gets in.
// - HTTP/2 has no reason phrase: node warns when one is set or passed to
//   writeHead. It is left out, without a warning (final handlers set it).
import { Http2ServerResponse, type OutgoingHttpHeaders } from 'node:http2';
import { useHttp2RemoveHeader, useHttp2Store } from './header-store';
import { fastRecordType } from '../fast-properties';
import { http2HeadersOf, kHttp2Headers, setHttp2Headers } from '../node-internals';

type HeaderValue = number | string | readonly string[];
type HeaderList = readonly (string | readonly string[])[];

const forbidden = new Set(['connection', 'keep-alive', 'proxy-connection', 'transfer-encoding', 'upgrade', 'http2-settings']);

/** Is this header one an HTTP/2 stream must not carry? */
export function isConnectionHeader(name: unknown, value: unknown): boolean {
  if (typeof name !== 'string') return false;
  const lc = name.trim().toLowerCase();
  return forbidden.has(lc) || (lc === 'te' && value !== 'trailers');
}

/** writeHead's headers (an object, a flat `[name, value, ...]` list or `[name, value]` pairs) without the forbidden ones. */
function allowedHeaders(headers: OutgoingHttpHeaders | HeaderList): OutgoingHttpHeaders | HeaderList {
  if (!Array.isArray(headers)) {
    const object = headers as OutgoingHttpHeaders;
    const names = Object.keys(object);
    if (!names.some((name) => isConnectionHeader(name, object[name]))) return object;
    const kept: OutgoingHttpHeaders = {};
    for (const name of names) if (!isConnectionHeader(name, object[name])) kept[name] = object[name];
    return kept;
  }
  const list = headers as HeaderList;
  if (list.length > 0 && Array.isArray(list[0])) {
    return (list as readonly (readonly string[])[]).filter((pair) => !isConnectionHeader(pair[0], pair[1]));
  }
  const kept: string[] = [];
  for (let i = 0; i + 1 < list.length; i += 2) {
    if (!isConnectionHeader(list[i], list[i + 1])) kept.push(list[i] as string, list[i + 1] as string);
  }
  return kept;
}

function method(fn: (...args: never[]) => unknown): PropertyDescriptor {
  return { configurable: true, enumerable: false, writable: true, value: fn };
}

/** The members of the HTTP/2 layer, wrapping node's own methods of `proto` (Http2ServerResponse.prototype). */
export function http2ResponseMembers(proto: Http2ServerResponse): PropertyDescriptorMap {
  // node's own methods, taken loosely typed: they are handed arguments as given.
  const nodeSetHeader = proto.setHeader as (name: string, value: HeaderValue) => unknown;
  const nodeAppendHeader = proto.appendHeader as (name: string, value: HeaderValue) => unknown;
  const nodeWriteHead = proto.writeHead as (status: number, headers?: unknown) => Http2ServerResponse;
  return {
    setHeader: method(function setHeader(this: Http2ServerResponse, name: string, value: HeaderValue) {
      if (isConnectionHeader(name, value)) return this;
      nodeSetHeader.call(this, name, value);
      return this;
    }),
    appendHeader: method(function appendHeader(this: Http2ServerResponse, name: string, value: HeaderValue) {
      if (isConnectionHeader(name, value)) return this;
      nodeAppendHeader.call(this, name, value);
      return this;
    }),
    writeHead: method(function writeHead(this: Http2ServerResponse, status: number, message?: unknown, headers?: unknown): Http2ServerResponse {
      const given = typeof message === 'string' ? headers : message;
      if (given === undefined || given === null) return nodeWriteHead.call(this, status);
      return nodeWriteHead.call(this, status, allowedHeaders(given as OutgoingHttpHeaders));
    }),
    // Read as '' (node's answer), written to nothing.
    statusMessage: {
      configurable: true,
      enumerable: false,
      get: () => '',
      set: () => undefined,
    },
  };
}

type Http2Store = Record<string, number | string | string[] | undefined>;

/**
 * A header object V8 keeps in fast mode (as header-store.ts's for HTTP/1.1).
 * node's own is a dictionary: every header stored into it, and node's for-in
 * over it when the head goes out (it copies the headers into the object it
 * sends), take V8's slow paths.
 */
const Http2HeaderStore = fastRecordType<Http2Store>();

/**
 * Gives a response node has just made (its header object still empty) a
 * fast-mode header object. Called by the app's own HTTP/2 response class,
 * which an adopted server constructs; other responses keep node's object.
 */
export function useFastHeaders(res: Http2ServerResponse): void {
  setHttp2Headers(res, new Http2HeaderStore());
}

/**
 * Installs the HTTP/2 members on `layer` (above Http2ServerResponse.prototype)
 * and lets the header store write into an HTTP/2 response's headers while its
 * setHeader and getHeader are still these and node's, and the head is not sent.
 */
export function installHttp2Response(layer: object): void {
  const proto = Http2ServerResponse.prototype;
  Object.defineProperties(layer, http2ResponseMembers(proto));
  // trestle's removeHeader (mirrored from the HTTP/1.1 chain) hands HTTP/2 responses to this.
  useHttp2RemoveHeader(proto.removeHeader);
  if (kHttp2Headers() === undefined) return;
  const setHeader = (layer as Http2ServerResponse).setHeader;
  const getHeader = proto.getHeader;
  useHttp2Store((res) => {
    const r = res as Http2ServerResponse;
    return r.setHeader === setHeader && r.getHeader === getHeader && !r.headersSent ? http2HeadersOf(r) : undefined;
  });
}
