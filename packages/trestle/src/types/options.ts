// Options objects: of the body parsers, `trestle.static()`, `trestle.Router()`,
// cookies, `res.sendFile()`/`res.download()` and `req.range()`.
import type * as http from 'node:http';
import type { RequestOf, ResponseOf } from './generation';

/** The options of `req.range()`. */
export interface RangeOptions {
  /** Merge overlapping and adjacent ranges. */
  combine?: boolean;
}

/** The options of `res.cookie()` and `res.clearCookie()`: the attributes of the `Set-Cookie` header. */
export interface CookieOptions {
  /** Lifetime in milliseconds: gives both Max-Age (seconds) and Expires. */
  maxAge?: number | undefined;
  /** Sign the value with `req.secret` (set by cookie-parser given a secret); it reads back in `req.signedCookies`. */
  signed?: boolean | undefined;
  /** The `Expires` date. */
  expires?: Date | undefined;
  /** Add `HttpOnly`: page scripts cannot read the cookie. */
  httpOnly?: boolean | undefined;
  /** The `Path` attribute; default `/`. */
  path?: string | undefined;
  /** The `Domain` attribute. */
  domain?: string | undefined;
  /** Add `Secure`: the cookie is sent over HTTPS only. */
  secure?: boolean | undefined;
  /** Encodes the value; default `encodeURIComponent`. */
  encode?: ((val: string) => string) | undefined;
  /** The `SameSite` attribute: `true` (strict), `'strict'`, `'lax'` or `'none'`. */
  sameSite?: boolean | 'lax' | 'strict' | 'none' | undefined;
  /** The `Priority` attribute. */
  priority?: 'low' | 'medium' | 'high' | undefined;
  /** Add `Partitioned`. */
  partitioned?: boolean | undefined;
}

/** The options of `res.sendFile()` (and `res.download()`). */
export interface SendFileOptions {
  /** Cache-Control max-age, in milliseconds or an `ms` string such as `'1d'`; default 0. */
  maxAge?: number | string;
  /** Directory a relative `path` is resolved in; the path may not leave it. */
  root?: string;
  /** Send Last-Modified (default true). */
  lastModified?: boolean;
  /** Headers to send with the file; they win over the ones computed. */
  headers?: Record<string, string | number | string[]>;
  /** Files and directories starting with a dot: `ignore` (404, default), `deny` (403) or `allow`. */
  dotfiles?: 'allow' | 'deny' | 'ignore';
  /** Honour Range requests (default true). */
  acceptRanges?: boolean;
  /** Send Cache-Control (default true). */
  cacheControl?: boolean;
  /** Add `immutable` to Cache-Control (default false). */
  immutable?: boolean;
  /** Send an ETag; defaults to whether the app's `etag` setting is on. */
  etag?: boolean;
}

/** The options of `res.download()`: those of `res.sendFile()`; a `Content-Disposition` among `headers` is ignored. */
export interface DownloadOptions extends SendFileOptions {}

/** The options of `trestle.Router()`; each defaults to false. */
export interface RouterOptions {
  /** Distinguish `/Foo` from `/foo`. */
  caseSensitive?: boolean;
  /** Keep the parent router's `req.params`. */
  mergeParams?: boolean;
  /** Distinguish `/foo` from `/foo/`. */
  strict?: boolean;
}

/** Options every body parser (`json`, `urlencoded`, `raw`, `text`) takes. */
export interface BodyParserOptions {
  /** Largest body accepted (after inflating): bytes, or a string such as `'1mb'`. Default `'100kb'`. */
  limit?: number | string | undefined;
  /** Inflate gzip, deflate and br bodies; when false they are refused with 415. Default true. */
  inflate?: boolean | undefined;
  /** Which requests to parse: a type-is pattern (`'json'`, `'text/*'`, `'application/*+json'`), a list, or a predicate. */
  type?: string | string[] | ((req: http.IncomingMessage) => unknown) | undefined;
  /** Sees the raw body before it is parsed; throw to refuse it (403 `entity.verify.failed`). */
  verify?(req: RequestOf<'v5'>, res: ResponseOf<'v5'>, buf: Buffer, encoding: string | null): void;
}

/** The options of `trestle.json()`. */
export interface JsonOptions extends BodyParserOptions {
  /** Accept only objects and arrays at the top level. Default true. */
  strict?: boolean | undefined;
  /** Passed to `JSON.parse` as its second argument. */
  reviver?: ((this: unknown, key: string, value: unknown) => unknown) | undefined;
  /** Charset when the request names none. Default `'utf-8'`. */
  defaultCharset?: string | undefined;
}

/** The options of `trestle.urlencoded()`. */
export interface UrlencodedOptions extends BodyParserOptions {
  /** Parse nested objects and arrays (`a[b]=1`) with `qs`. Default false. */
  extended?: boolean | undefined;
  /** Most `&`-separated parameters accepted (413 `parameters.too.many` beyond). Default 1000. */
  parameterLimit?: number | undefined;
  /** Deepest nesting with `extended` (400 beyond). Default 32. */
  depth?: number | undefined;
  /** Charset when the request names none: `'utf-8'` or `'iso-8859-1'`. Default `'utf-8'`. */
  defaultCharset?: 'utf-8' | 'iso-8859-1' | undefined;
  /** Let a `utf8=✓` parameter choose the charset. Default false. */
  charsetSentinel?: boolean | undefined;
  /** Decode `&#9786;`-style entities in iso-8859-1 forms. Default false. */
  interpretNumericEntities?: boolean | undefined;
}

/** The options of `trestle.raw()`: those every body parser takes. */
export interface RawOptions extends BodyParserOptions {}

/** The options of `trestle.text()`. */
export interface TextOptions extends BodyParserOptions {
  /** Charset when the request names none. Default `'utf-8'`. */
  defaultCharset?: string | undefined;
}

/** The options of `trestle.static(root, options)`. */
export interface StaticOptions {
  /** Answer `Range` requests (206/416) and send `Accept-Ranges`. Default true. */
  acceptRanges?: boolean | undefined;
  /** Send `Cache-Control`. Default true. */
  cacheControl?: boolean | undefined;
  /** Paths with a segment starting with a dot: `'ignore'` (404), `'deny'` (403) or `'allow'`. Default `'ignore'`. */
  dotfiles?: 'allow' | 'deny' | 'ignore' | undefined;
  /** Send a weak `ETag`. Default true. */
  etag?: boolean | undefined;
  /** Extensions to try when a file is not found, such as `['html', 'htm']`. Default false. */
  extensions?: string[] | string | false | undefined;
  /** 404/405 and other client errors call `next()` (true) or `next(err)` (false). Default true. */
  fallthrough?: boolean | undefined;
  /** Add `immutable` to `Cache-Control`. Default false. */
  immutable?: boolean | undefined;
  /** The file served for a directory, a list tried in order, or false. Default `'index.html'`. */
  index?: string[] | string | false | undefined;
  /** Send `Last-Modified`. Default true. */
  lastModified?: boolean | undefined;
  /** `Cache-Control` max-age, in milliseconds or an `ms` string such as `'1d'`. Default 0. */
  maxAge?: number | string | undefined;
  /** Redirect a directory to its path with a trailing slash. Default true. */
  redirect?: boolean | undefined;
  /** Called with the file about to be sent, to set headers synchronously. */
  setHeaders?: ((res: ResponseOf<'v5'>, path: string, stat: import('node:fs').Stats) => void) | undefined;
}

/**
 * The second argument of `app.fetch()`: who the client is, which a `Request`
 * does not say. Given by the caller, or by a runtime's server, which passes
 * its own object there: Deno.serve's handler info (`remoteAddr`), Bun.serve's
 * server (`requestIP()`).
 */
export interface FetchOptions {
  /** The client's address (`req.ip`, `req.socket.remoteAddress`); default none, as a socket that was closed. */
  remoteAddress?: string | undefined;
  /** The client's port (`req.socket.remotePort`). */
  remotePort?: number | undefined;
  /** What the platform gives with the request (Lambda's event and context), set as `req.platform`. */
  platform?: unknown;
  /** Deno.serve's handler info: the client's address when `remoteAddress` is not given. */
  readonly remoteAddr?:
    | {
        /** The client's address. */
        readonly hostname: string;
        /** The client's port. */
        readonly port: number;
      }
    | undefined;
  /** Bun.serve's server: asked for the client's address when `remoteAddress` is not given. */
  requestIP?(request: Request): {
    /** The client's address. */
    address: string;
    /** The client's port. */
    port: number;
  } | null;
}

/** What a Worker's runtime passes `fetch` third (the `ExecutionContext`); `req.cloudflare.ctx` there. */
export interface FetchContext {
  /** Keeps the Worker alive until `promise` settles, after the answer. */
  waitUntil(promise: Promise<unknown>): void;
}
