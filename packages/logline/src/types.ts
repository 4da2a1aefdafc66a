/**
 * Public types of logline. Everything a user writes against (options, token
 * callbacks, format functions, the middleware) is named here, so that both the
 * CommonJS and the ESM entry can re-export one set of declarations: import
 * them from `logline-http` (`logger.LoggerOptions`, or by name from the ESM entry).
 *
 * @module logline/types
 */
import type { IncomingMessage, ServerResponse } from 'node:http';

/**
 * The request as logline reads it: node's IncomingMessage plus the optional
 * fields that frameworks add (`originalUrl`, `ip`) and the `_remoteAddress`
 * field that morgan-era code sets and reads.
 */
export interface LoglineRequest extends IncomingMessage {
  /** The URL as it arrived, set by frameworks that rewrite `url`; `:url` prefers it. */
  originalUrl?: string;
  /** The client address a framework computed (proxy-aware); `:remote-addr` prefers it. */
  ip?: string;
  /** The socket address, recorded when the request arrives (as morgan does); `:remote-addr` reads it when `ip` is unset. */
  _remoteAddress?: string;
  /** When the logger ran, as `process.hrtime()` gives it; morgan's field, set by each logger mounted. */
  _startAt?: HrTime;
  /** When the logger ran, as a Date; morgan's field, set by each logger mounted. */
  _startTime?: Date;
}

/** A `process.hrtime()` reading: seconds and nanoseconds. */
export type HrTime = [number, number];

/** The response as logline reads it: node's ServerResponse and morgan's timing field. */
export interface LoglineResponse extends ServerResponse {
  /** When the headers were written, as `process.hrtime()` gives it; morgan's field. */
  _startAt?: HrTime;
  /** When the headers were written, as a Date; morgan's field. */
  _startTime?: Date;
}

/** What a token returns. A falsy value is shown as `-` in format strings. */
export type TokenValue = string | number | null | undefined;

/**
 * A token: called as `fn(req, res)`, or `fn(req, res, arg)` when the format
 * string gives a bracket argument (`:name[arg]`).
 */
export type TokenCallback<Req = LoglineRequest, Res = LoglineResponse> = (
  req: Req,
  res: Res,
  arg?: string,
) => TokenValue;

/** Every defined token, by name; handed to format functions. */
export interface TokenIndexer<Req = LoglineRequest, Res = LoglineResponse> {
  [name: string]: TokenCallback<Req, Res>;
}

/**
 * A format function: returns the log line (without its newline), or
 * `undefined`/`null` to write nothing for this request.
 */
export type FormatFn<Req = LoglineRequest, Res = LoglineResponse> = (
  tokens: TokenIndexer<Req, Res>,
  req: Req,
  res: Res,
) => string | null | undefined;

/** Anything with a `write(string)` method, such as a Writable stream. */
export interface LogStream {
  /** Receives each line, with its trailing newline. */
  write(line: string): unknown;
}

/** The options of `logger(format, options)`. */
export interface LoggerOptions<Req = LoglineRequest, Res = LoglineResponse> {
  /** Write the line when the request arrives instead of when the response ends. */
  immediate?: boolean;
  /** Called as `skip(req, res)` when the line is due; truthy means no line. */
  skip?: ((req: Req, res: Res) => unknown) | false | null;
  /** Where lines go; standard output by default. */
  stream?: LogStream | null;
  /**
   * @deprecated Buffer lines and write them together every `buffer`
   * milliseconds (1000 when `true`).
   */
  buffer?: boolean | number;
}

/** @deprecated The options-object form `logger({ format, ... })`. */
export interface LegacyLoggerOptions<Req = LoglineRequest, Res = LoglineResponse>
  extends LoggerOptions<Req, Res> {
  /** The format, as `logger()`'s first argument takes it; `default` when absent. */
  format?: string | FormatFn<Req, Res>;
}

/** The `next` callback the middleware calls to continue the chain. */
export type NextFunction = (err?: unknown) => void;

/** The middleware `logger()` returns. */
export type LoglineMiddleware<Req = LoglineRequest, Res = LoglineResponse> = (
  req: Req,
  res: Res,
  next: NextFunction,
) => void;
