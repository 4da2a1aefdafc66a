// The request: what `req` holds and answers in every generation.
import type * as http from 'node:http';
import './express-global';
import type { ApplicationOf, DefaultLocals, Generation, LocalsRecord, ResponseOf, RouteOf, Untyped } from './generation';
import type { NextFunction } from './handlers';
import type { RangeOptions } from './options';
import type { ParamsDictionary, ParsedQs } from './params';
import type { CookieJar } from './type-options';

/**
 * What the request of every generation has: node's `IncomingMessage` plus
 * trestle's properties and methods, but content negotiation (`accepts`,
 * `is`), whose answers changed after Express 3.
 */
export interface RequestCore<
  P = ParamsDictionary,
  ResBody = Untyped,
  ReqBody = Untyped,
  ReqQuery = ParsedQs,
  LocalsObj extends LocalsRecord = DefaultLocals,
  G extends Generation = 'v5',
> extends http.IncomingMessage,
    Express.Request {
  /** The application that is handling this request. */
  app: ApplicationOf<G>;
  /**
   * Aborted when the client goes away before the answer is complete (connection
   * closed, HTTP/2 stream reset), with an `AbortError`, or when the request's
   * deadline passes, with a `TimeoutError`. Pass it to `fetch`, database
   * clients, `stream.pipeline`. Made on first read: a request that never
   * reads it pays nothing.
   */
  readonly signal: AbortSignal;
  /** The response that belongs to this request. */
  res?: ResponseOf<G, ResBody, LocalsObj>;
  /** The `next` function of the router currently dispatching. */
  next?: NextFunction;
  /** The URL, rewritten by mounting to strip the mount point; always set on server requests. */
  url: string;
  /** The URL path on which the current router or app was mounted. */
  baseUrl: string;
  /** The URL as it arrived, never rewritten by mounting. */
  originalUrl: string;
  /** Route parameters, percent-decoded. */
  params: P;
  /** The query string, parsed by the `query parser` setting; assignable. */
  query: ReqQuery;
  /** The body, filled by a body parser; `undefined` until one runs. */
  body: ReqBody;
  /** The matched route. */
  route?: RouteOf<G>;
  /** Path part of the URL (mount point stripped). */
  readonly path: string;
  /** `http` or `https` (`X-Forwarded-Proto` when `trust proxy` allows). */
  readonly protocol: string;
  /** `req.protocol === 'https'`. */
  readonly secure: boolean;
  /** Remote address, proxy-aware. */
  readonly ip: string | undefined;
  /** Forwarded addresses, nearest client first, when `trust proxy` allows. */
  readonly ips: string[];
  /** Subdomains of the host, per `subdomain offset`. */
  readonly subdomains: string[];
  /** Host name without port. */
  readonly hostname: string | undefined;
  /** Host with port in v5; without it (as `hostname`) in v4 and legacy. */
  readonly host: string | undefined;
  /** True when the client's cached copy is still fresh. */
  readonly fresh: boolean;
  /** Opposite of `fresh`. */
  readonly stale: boolean;
  /** `X-Requested-With: XMLHttpRequest`. */
  readonly xhr: boolean;
  /** Cookies, once a cookie parser ran: `any`, as `@types/express` has it (the `CookieJar` type of types/type-options.ts). */
  cookies: CookieJar<string>;
  /** Signed cookies, once a cookie parser ran with a secret (`false` for a bad signature). */
  signedCookies: CookieJar<string | false>;
  /** The secret a cookie parser records, used by signed `res.cookie`. */
  secret?: string | undefined;

  /** The `Set-Cookie` header (any case) as an array of its values; `undefined` when absent. */
  get(name: 'set-cookie' | 'Set-Cookie'): string[] | undefined;
  /** A request header, case-insensitive; `Referer`/`Referrer` interchangeable; `undefined` when absent. */
  get(name: string): string | undefined;
  /** Alias of `req.get()`: the `Set-Cookie` header as an array. */
  header(name: 'set-cookie' | 'Set-Cookie'): string[] | undefined;
  /** Alias of `req.get()`: a request header, case-insensitive. */
  header(name: string): string | undefined;
  /** With no charsets: the charsets `Accept-Charset` accepts, best first. */
  acceptsCharsets(): string[];
  /** The best of `charset` (one or an array) per `Accept-Charset`, or `false`. */
  acceptsCharsets(charset: string | string[]): string | false;
  /** The best of `charsets` per `Accept-Charset`, or `false`. */
  acceptsCharsets(...charsets: string[]): string | false;
  /** With no encodings: the encodings `Accept-Encoding` accepts, best first. */
  acceptsEncodings(): string[];
  /** The best of `encoding` (one or an array) per `Accept-Encoding`, or `false`; `identity` is acceptable unless refused. */
  acceptsEncodings(encoding: string | string[]): string | false;
  /** The best of `encodings` per `Accept-Encoding`, or `false`; `identity` is acceptable unless refused. */
  acceptsEncodings(...encodings: string[]): string | false;
  /** With no languages: the languages `Accept-Language` accepts, best first (`['*']` without the header). */
  acceptsLanguages(): string[];
  /** The best of `lang` (one or an array) per `Accept-Language` (`en` matches `en-US`), or `false`. */
  acceptsLanguages(lang: string | string[]): string | false;
  /** The best of `langs` per `Accept-Language` (`en` matches `en-US`), or `false`. */
  acceptsLanguages(...langs: string[]): string | false;
  /** Parses the `Range` header for a body of `size` bytes; `undefined` when the request has none. */
  range(size: number, options?: RangeOptions): RangeResult | undefined;
}

/** The request handlers receive: node's `IncomingMessage` with Express's `req` properties and methods. */
export interface Request<
  P = ParamsDictionary,
  ResBody = Untyped,
  ReqBody = Untyped,
  ReqQuery = ParsedQs,
  LocalsObj extends LocalsRecord = DefaultLocals,
  G extends Generation = 'v5',
> extends RequestCore<P, ResBody, ReqBody, ReqQuery, LocalsObj, G> {
  /** With no types: the types the `Accept` header accepts, best first. */
  accepts(): string[];
  /** The best of `type` (one type, an array, or a list such as `'json, html'`) per `Accept`, as given, or `false`. */
  accepts(type: string | string[]): string | false;
  /** The best of `types` (extensions or media types) per `Accept`, as given, or `false`; without `Accept`, the first. */
  accepts(...types: string[]): string | false;
  /** The matching type as given, `null` without a body, else `false`; with no type, the body's own type. */
  is(type?: string | string[], ...types: string[]): string | false | null;
}

/** One range of `req.range()`. */
export interface ByteRange {
  /** First byte, from 0. */
  start: number;
  /** Last byte, inclusive, at most `size - 1`. */
  end: number;
}

/** The ranges `req.range()` found, with their unit in `type`. */
export interface RequestRanges extends Array<ByteRange> {
  /** The unit, such as `'bytes'`. */
  type: string;
}

/** `-1` unsatisfiable, `-2` malformed, or the ranges. */
export type RangeResult = -1 | -2 | RequestRanges;

/** A media type of an `Accept` header read apart. */
export interface MediaType {
  /** The media type as written, such as `text/html`. */
  value: string;
  /** Its `q`, 1 when absent. */
  quality: number;
  /** The part before the slash, such as `text`. */
  type: string;
  /** The part after the slash, such as `html`. */
  subtype: string;
}
