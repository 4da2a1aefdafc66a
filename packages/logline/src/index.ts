/**
 * The package entry: `require('logline-http')` is the `logger` factory itself, as
 * `require('morgan')` is, with `token`, `format` and `compile` on it, the
 * tokens and named formats as members (`logger.url`, `logger.combined`), and
 * the type names under it (`logger.LoggerOptions`, ...).
 *
 * @module logline
 */
import type { IncomingMessage, ServerResponse } from 'node:http';
import { compile as compileFormat } from './compile.js';
import { defineFormat, formatNames } from './formats.js';
import { createLogger } from './middleware.js';
import { exposeFormat, exposeToken } from './members.js';
import { defineToken, tokens } from './tokens.js';
import type * as types from './types.js';

/**
 * Creates a request-logging middleware `(req, res, next)`.
 *
 * @param format a predefined format name (`combined`, `common`, `dev`,
 *   `short`, `tiny`, `json`), a format string of `:tokens`, or a function
 *   `(tokens, req, res)` returning the line, or `undefined`/`null` for none.
 * @param options `immediate`, `skip`, `stream` (and the deprecated `buffer`).
 * @throws TypeError for a format or options of the wrong type.
 */
function logger<Req extends IncomingMessage = types.LoglineRequest, Res extends ServerResponse = types.LoglineResponse>(
  format: string | types.FormatFn<Req, Res>,
  options?: types.LoggerOptions<Req, Res> | null,
): types.LoglineMiddleware<Req, Res>;
/** @deprecated Give a format: `logger('combined', options)`. */
function logger<Req extends IncomingMessage = types.LoglineRequest, Res extends ServerResponse = types.LoglineResponse>(
  options?: types.LegacyLoggerOptions<Req, Res>,
): types.LoglineMiddleware<Req, Res>;
function logger(format?: unknown, options?: unknown): types.LoglineMiddleware {
  return createLogger(format, options);
}

/**
 * Defines the token `:name` (or replaces it). Its bracket argument, as in
 * `:name[arg]`, reaches the callback as its third argument.
 */
logger.token = function token<Req extends IncomingMessage = types.LoglineRequest, Res extends ServerResponse = types.LoglineResponse>(
  name: string,
  callback: types.TokenCallback<Req, Res>,
): typeof logger {
  defineToken(name, callback as unknown as types.TokenCallback);
  exposeToken(logger, name);
  return logger;
};

/** Names a format (a format string or a function) for `logger(name)`; it is then `logger[name]` too. */
logger.format = function format<Req extends IncomingMessage = types.LoglineRequest, Res extends ServerResponse = types.LoglineResponse>(
  name: string,
  fmt: string | types.FormatFn<Req, Res>,
): typeof logger {
  defineFormat(name, fmt as unknown as types.FormatFn);
  exposeFormat(logger, name);
  return logger;
};

/** Compiles a format string into a format function `(tokens, req, res)`. */
logger.compile = function compile(format: string): types.FormatFn {
  return compileFormat(format);
};

// Every token and every named format is a member of the factory too, as on morgan (see members.ts).
for (const name of Object.keys(tokens)) exposeToken(logger, name);
for (const name of formatNames()) exposeFormat(logger, name);

/** The public types, reachable as `logger.LoggerOptions` and so on, beside the members `token`, `format` and `compile` assigned above. */
// eslint-disable-next-line @typescript-eslint/no-namespace
declare namespace logger {
  /** The request as logline reads it: node's `IncomingMessage` plus `originalUrl`, `ip`, and morgan's `_remoteAddress`, `_startAt` and `_startTime` when set. */
  export type LoglineRequest = types.LoglineRequest;
  /** The response as logline reads it: node's `ServerResponse` plus morgan's `_startAt` and `_startTime` when set. */
  export type LoglineResponse = types.LoglineResponse;
  /** A `process.hrtime()` reading, `[seconds, nanoseconds]`: the type of morgan's `_startAt` fields. */
  export type HrTime = types.HrTime;
  /** What a token returns; a falsy value is shown as `-`. */
  export type TokenValue = types.TokenValue;
  /** A token: `(req, res, arg?)`, `arg` being the bracket argument of `:name[arg]`. */
  export type TokenCallback<Req = LoglineRequest, Res = LoglineResponse> = types.TokenCallback<Req, Res>;
  /** Every defined token, by name, as format functions receive them. */
  export type TokenIndexer<Req = LoglineRequest, Res = LoglineResponse> = types.TokenIndexer<Req, Res>;
  /** A format function `(tokens, req, res)`: the line, or `undefined`/`null` for none. */
  export type FormatFn<Req = LoglineRequest, Res = LoglineResponse> = types.FormatFn<Req, Res>;
  /** Where lines go: anything with `write(string)`. */
  export type LogStream = types.LogStream;
  /** The options of `logger(format, options)`: `immediate`, `skip`, `stream`. */
  export type LoggerOptions<Req = LoglineRequest, Res = LoglineResponse> = types.LoggerOptions<Req, Res>;
  /** The deprecated options-object form `logger({ format, ... })`. */
  export type LegacyLoggerOptions<Req = LoglineRequest, Res = LoglineResponse> = types.LegacyLoggerOptions<Req, Res>;
  /** The `next` callback the middleware calls to continue the chain. */
  export type NextFunction = types.NextFunction;
  /** The middleware `logger()` returns: `(req, res, next)`. */
  export type LoglineMiddleware<Req = LoglineRequest, Res = LoglineResponse> = types.LoglineMiddleware<Req, Res>;

  // The built-in tokens whose names are identifiers, as members (`logger.url(req, res)`).
  // The others are members too at run time (`logger['remote-addr']`); TypeScript
  // reads them through `logger.TokenIndexer`: `(logger as unknown as logger.TokenIndexer)['remote-addr']`.
  /** The `:date[format]` token: `logger.date(req, res, 'clf')`. */
  export const date: TokenCallback;
  /** The `:method` token. */
  export const method: TokenCallback;
  /** The `:pid` token. */
  export const pid: TokenCallback;
  /** The `:referrer` token. */
  export const referrer: TokenCallback;
  /** The `:req[header]` token: `logger.req(req, res, 'accept')`. */
  export const req: TokenCallback;
  /** The `:res[header]` token: `logger.res(req, res, 'content-length')`. */
  export const res: TokenCallback;
  /** The `:status` token. */
  export const status: TokenCallback;
  /** The `:url` token. */
  export const url: TokenCallback;

  // The predefined formats, as members (as on morgan). `default`, deprecated,
  // is one too at run time; its name cannot be declared here.
  /** The `combined` format string (Apache combined log). */
  export const combined: string;
  /** The `common` format string (Apache common log). */
  export const common: string;
  /** The `short` format string. */
  export const short: string;
  /** The `tiny` format string. */
  export const tiny: string;
  /** The `dev` format function: `:method :url :status :response-time ms - :res[content-length]`, the status coloured. */
  export const dev: FormatFn;
  /** The `json` format function: one JSON object per line. */
  export const json: FormatFn;
}

export = logger;
