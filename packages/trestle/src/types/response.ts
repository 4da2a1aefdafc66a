// The response: what `res` holds and does in every generation.
import type * as http from 'node:http';
import './express-global';
import type { ApplicationOf, DefaultLocals, Generation, LocalsRecord, RequestOf, ResponseOf, Untyped } from './generation';
import type { NextFunction } from './handlers';
import type { CookieOptions, DownloadOptions, SendFileOptions } from './options';
import type { RenderCallback } from './settings';

/**
 * What every view sees besides an app's or a handler's own locals: what the
 * global `Express.Locals` declares. No index signature, so typed locals are
 * exact: with `Response<Body, { user: User }>`, reading `res.locals.other` is an error.
 */
export interface Locals extends Express.Locals {}

/** A function that sends a body and returns what it was called on, as `res.send` and `res.json` are. */
export type Send<ResBody = Untyped, This = unknown> = (body?: ResBody) => This;

/** A header value for `res.set()`: a number becomes a string, an array gives one header line per value. */
export type HeaderValue = string | number | readonly string[];

/** The response: node's `ServerResponse` plus trestle's methods. */
export interface Response<
  ResBody = Untyped,
  LocalsObj extends LocalsRecord = DefaultLocals,
  StatusCode extends number = number,
  G extends Generation = 'v5',
> extends http.ServerResponse,
    Express.Response {
  /** The application that is handling this response's request. */
  app: ApplicationOf<G>;
  /** The request this response answers. */
  req: RequestOf<G>;
  /** Variables for views rendered during this request. */
  locals: LocalsObj & Locals;
  /** Sets the status code: an integer from 100 to 999 (else a TypeError or RangeError). */
  status(code: StatusCode): this;
  /** Sets the status and sends its message as `text/plain` (`201` sends `Created`). */
  sendStatus(code: number): this;
  /** Sets a header (an array gives one line per value); `Content-Type` gains its charset. */
  set(field: string, value?: HeaderValue): this;
  /** Sets each header of `fields`. */
  set(fields: Record<string, HeaderValue>): this;
  /** Alias of `res.set()`: sets a header. */
  header(field: string, value?: HeaderValue): this;
  /** Alias of `res.set()`: sets each header of `fields`. */
  header(fields: Record<string, HeaderValue>): this;
  /**
   * A header already set on the response, case-insensitive; `undefined` when
   * unset. Typed `string | undefined` as `@types/express` has it: a header
   * set to a number or an array reads back as that (`res.getHeader()` is typed so).
   */
  get(field: string): string | undefined;
  /** Adds `value` (a string or an array) after the values already set for `field`. */
  append(field: string, value?: HeaderValue): this;
  /** Sets `Content-Type` from an extension (`'json'`, `'.html'`) or a media type; an unknown extension gives `application/octet-stream`. */
  type(type: string): this;
  /** Alias of `res.type()`. */
  contentType(type: string): this;
  /** Sends the body (a string as HTML, bytes as octets, other values as JSON) with `Content-Length` and an `ETag`; 304 when the client's copy is fresh. */
  send(body?: ResBody): this;
  /** Sends `body` as JSON, per the `json replacer`, `json spaces` and `json escape` settings. */
  json(body?: ResBody): this;
  /** `res.json()`, or a JSONP script when the query names a callback (parameter per `jsonp callback name`). */
  jsonp(body?: ResBody): this;
  /** Adds `field` to the `Vary` header unless it is already there. */
  vary(field: string | string[]): this;
  /** Sets `Location` to `url`, percent-encoding what a URL cannot hold. */
  location(url: string): this;
  /** Redirects to `url` with 302 and a short body that follows `Accept`. */
  redirect(url: string): void;
  /** Redirects to `url` with the given status. */
  redirect(status: number, url: string): void;
  /** Adds `<url>; rel="rel"` entries to the `Link` header. */
  links(links: Record<string, string | string[]>): this;
  /** Sets `Content-Disposition: attachment`; with a filename, its last path segment and the `Content-Type` of its extension. */
  attachment(filename?: string): this;
  /** Adds a `Set-Cookie` header; an object value is sent as `j:` and its JSON. */
  cookie(name: string, value: unknown, options?: CookieOptions): this;
  /** Expires the cookie `name`; give the `path` and `domain` it was set with. */
  clearCookie(name: string, options?: CookieOptions): this;
  /** Calls the handler for the best type per Accept (keys: extensions or media types), else `default`, else next(406). */
  format(handlers: Record<string, (req: RequestOf<G>, res: ResponseOf<G>, next: NextFunction) => unknown>): this;
  /** Streams the file at the absolute `path`, with ranges and conditional GET; errors go to `callback` when given, else to `next(err)`. */
  sendFile(path: string, callback?: (err?: Error) => void): void;
  /** Streams the file at `path` (absolute, or relative to `options.root`) with these options. */
  sendFile(path: string, options: SendFileOptions, callback?: (err?: Error) => void): void;
  /** Sends the file as an attachment under its own name. */
  download(path: string, callback?: (err?: Error) => void): void;
  /** Sends the file as an attachment named `filename`. */
  download(path: string, filename: string, callback?: (err?: Error) => void): void;
  /** Sends the file as an attachment under its own name, with `res.sendFile()` options. */
  download(path: string, options: DownloadOptions, callback?: (err?: Error) => void): void;
  /** Sends the file as an attachment named `filename`, with `res.sendFile()` options. */
  download(path: string, filename: string | null | undefined, options: DownloadOptions, callback?: (err?: Error) => void): void;
  /** Renders the view and sends the HTML, or passes the error to `next()`; with a callback nothing is sent, `callback(err, html)` decides. */
  render(view: string, callback?: RenderCallback): void;
  /** Renders the view with `options` as locals over `res.locals` and `app.locals`; sends it unless a callback is given. */
  render(view: string, options?: object, callback?: RenderCallback): void;
}
