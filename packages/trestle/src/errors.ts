// Every error trestle makes is made here, in one of two ways: an HTTP error
// (passed to `next(err)`, answered with its status) or any other error (a
// programmer error thrown at the call, or an event such as a client that
// left). Both carry a stable `code` to test instead of the message; the
// messages are Express's own words, so logs and existing tests read the same.
// docs/errors.md lists every code; test/errors.test.ts holds the two together.
import statuses from 'statuses';

/**
 * Every `TRESTLE_ERR_*` code trestle gives an error, with what it means.
 * docs/errors.md lists exactly these (a test compares the two).
 */
export const ERROR_CODES = {
  // HTTP errors from the body parsers (`type` is body-parser's name for them).
  TRESTLE_ERR_BODY_READ_FAILED: '400: the request stream or the inflater failed (their own code is kept)',
  TRESTLE_ERR_CHARSET_UNSUPPORTED: '415: a body charset the parser does not take',
  TRESTLE_ERR_ENCODING_UNSUPPORTED: '415: a Content-Encoding the parser does not take',
  TRESTLE_ERR_ENTITY_PARSE_FAILED: '400: a malformed body',
  TRESTLE_ERR_ENTITY_TOO_LARGE: '413: a body over the limit',
  TRESTLE_ERR_ENTITY_VERIFY_FAILED: '403: the verify option threw',
  TRESTLE_ERR_MULTIPART_PARSE_FAILED: '400: a malformed multipart body (legacy)',
  TRESTLE_ERR_PARAMETERS_TOO_MANY: '413: a form with more fields than parameterLimit',
  TRESTLE_ERR_QUERYSTRING_DEPTH_EXCEEDED: '400: a form nested deeper than depth',
  TRESTLE_ERR_REQUEST_SIZE_INVALID: '400: a body whose size differs from Content-Length',
  TRESTLE_ERR_STREAM_ENCODING_SET: '500: req.setEncoding() was called before the parser',
  TRESTLE_ERR_STREAM_NOT_READABLE: '500: the request stream can no longer be read',
  // HTTP errors from routing and responses.
  TRESTLE_ERR_DEADLINE_EXCEEDED: '503: a request deadline passed before the answer started',
  TRESTLE_ERR_NOT_ACCEPTABLE: '406: res.format() has nothing the client accepts',
  TRESTLE_ERR_PARAM_DECODE_FAILED: '400: a route parameter with malformed percent-encoding',
  TRESTLE_ERR_VALIDATION_FAILED: '400: trestle.validate() found the request\'s params, query, body or headers invalid',
  // Programmer errors, thrown at the call.
  TRESTLE_ERR_COOKIE_SECRET_REQUIRED: 'a signed cookie without a cookieParser secret',
  TRESTLE_ERR_INVALID_ARG_TYPE: 'an argument of the wrong type',
  TRESTLE_ERR_INVALID_ARG_VALUE: 'an argument of the right type with a value that cannot work',
  TRESTLE_ERR_INVALID_OPTION: 'an invalid option given to a middleware factory',
  TRESTLE_ERR_INVALID_SETTING: 'an app setting given a value it cannot take',
  TRESTLE_ERR_INVALID_STATUS_CODE: 'res.status() with a status that is not an integer from 100 to 999',
  TRESTLE_ERR_LAMBDA_EVENT: 'trestle/lambda: the handler was invoked with an event that is not an HTTP event (API Gateway, ALB, function URL)',
  TRESTLE_ERR_LAMBDA_RESULT_TOO_LARGE: 'trestle/lambda: a buffered answer over Lambda\'s 6 MB result limit (the invocation fails instead of a cut body)',
  TRESTLE_ERR_LAMBDA_STREAMING_UNAVAILABLE: 'trestle/lambda: lambda(app, { streaming: true }) outside Lambda\'s Node.js runtime (no awslambda global)',
  TRESTLE_ERR_MIDDLEWARE_NOT_INSTALLED: 'trestle/legacy: a bundled middleware whose package the app does not have (trestle.session() without express-session)',
  TRESTLE_ERR_MISSING_ARG: 'a required argument is missing',
  TRESTLE_ERR_NOT_A_VIEW_ENGINE: 'a view engine module without __express',
  TRESTLE_ERR_PLATFORM_UNSUPPORTED: 'something the platform cannot do: files from disk (static, sendFile, download) or app.listen() on Cloudflare Workers',
  TRESTLE_ERR_PARAM_HANDLER: 'router.param(name, fn) without a function, in the generation\'s words',
  TRESTLE_ERR_REMOVED_IN_V4: 'a member Express 4 removed was read: app.router, or a bundled middleware (v4)',
  TRESTLE_ERR_ROUTE_HANDLER: 'a route method (app.get(path, x), route.get(x)) given something other than a function, in the generation\'s words',
  TRESTLE_ERR_ROUTER_HANDLER: 'router.use() without a middleware function, in the generation\'s words',
  TRESTLE_ERR_VIEW_ENGINE_REQUIRED: 'a view name without extension and no view engine setting',
  // Other errors passed on.
  TRESTLE_ERR_PROMISE_REJECTED: 'a handler returned a promise rejected without a reason',
  TRESTLE_ERR_VIEW_NOT_FOUND: 'render found no file for the view',
} as const;

/**
 * Codes Express's own errors carry, which users test: trestle's errors in
 * the same places keep them (docs/errors.md, "kept for Express").
 */
export const EXPRESS_CODES = {
  ECONNABORTED: 'the client went away (request aborted; res.sendFile cut off)',
  EISDIR: 'res.sendFile was given a directory',
  MODULE_NOT_FOUND: 'the view engine module is not installed',
} as const;

export type ErrorCode = keyof typeof ERROR_CODES | keyof typeof EXPRESS_CODES;

/** The fields an HTTP error carries. */
export interface HttpErrorFields {
  status: number;
  statusCode: number;
  expose: boolean;
  code?: string;
  type?: string;
  [detail: string]: unknown;
}

export type HttpError = Error & HttpErrorFields;

/**
 * An HTTP error may carry the answer the final handler sends for it in
 * place of its HTML page (trestle.validate()'s JSON list of problems): an
 * app's own error handler still sees the error first and may answer otherwise.
 */
export const kErrorAnswer = Symbol.for('trestle.errorAnswer');

/** What `err[kErrorAnswer]` holds: a media type and a body. */
export interface ErrorAnswer {
  type: string;
  body: string;
}

/** The answer an error carries for the final handler, if any. */
export function errorAnswer(err: unknown): ErrorAnswer | undefined {
  const answer = (err as { [kErrorAnswer]?: unknown } | null | undefined)?.[kErrorAnswer] as ErrorAnswer | undefined;
  return answer !== undefined && typeof answer.type === 'string' && typeof answer.body === 'string' ? answer : undefined;
}

type ErrorClass = new (message: string) => Error;

/**
 * An error without an HTTP status, thrown or passed on: `TypeError` and
 * `RangeError` for a bad argument, `Error` (or `SyntaxError`) where Express
 * uses it, always with Express's message.
 */
export function createError(Class: ErrorClass, code: ErrorCode, message: string): Error & { code: ErrorCode } {
  const err = construct(Class, message, createError) as Error & { code: ErrorCode };
  err.code = code;
  return err;
}

// Whether the stack can be captured once instead of twice (not with frozen intrinsics).
const limitWritable = Object.getOwnPropertyDescriptor(Error, 'stackTraceLimit')?.writable === true;

/**
 * `new Class(message)` whose stack starts at the caller of `above` (the
 * frames inside this file say nothing). The constructor's own capture is
 * turned off, as node does for its errors: capturing twice cost twice as
 * much, on error paths a flood of bad requests can hit (413, 400).
 */
function construct(Class: ErrorClass, message: string, above: (...args: never[]) => unknown): Error {
  if (!limitWritable) {
    const err = new Class(message);
    Error.captureStackTrace(err, above);
    return err;
  }
  const limit = Error.stackTraceLimit;
  Error.stackTraceLimit = 0;
  const err = new Class(message);
  Error.stackTraceLimit = limit;
  Error.captureStackTrace(err, above);
  return err;
}

/**
 * One class per status, named as Express users see it in logs and in
 * `err.constructor.name` (`PayloadTooLargeError`), made on first use.
 */
const classes = new Map<number, ErrorClass>();

function classFor(status: number): ErrorClass {
  let Class = classes.get(status);
  if (Class === undefined) {
    const name = errorName(status);
    // A computed key names the class after the status.
    Class = { [name]: class extends Error {} }[name]!;
    // On the prototype, as http-errors puts it: the stack's first line reads `PayloadTooLargeError: ...`.
    Object.defineProperty(Class.prototype, 'name', { value: name, writable: true, configurable: true, enumerable: false });
    classes.set(status, Class);
  }
  return Class;
}

function errorName(status: number): string {
  const name = (statuses.message[status] ?? 'Http').replace(/[^A-Za-z0-9]/g, '');
  return name.endsWith('Error') ? name : `${name}Error`;
}

/**
 * A new HTTP error for `next(err)`: `status`/`statusCode`, `expose` (true
 * below 500: the message is safe to show), the code, and the details
 * (`type`, `limit`, ...).
 */
export function createHttpError(status: number, code: ErrorCode, message: string, details?: Record<string, unknown>): HttpError {
  const err = construct(classFor(status), message, createHttpError) as HttpError;
  if (details !== undefined) Object.assign(err, details);
  err.status = status;
  err.statusCode = status;
  err.expose = status < 500;
  err.code = code;
  return err;
}

/**
 * Gives an error raised elsewhere (a `SyntaxError` from `JSON.parse`, a zlib
 * error, what `verify` threw, a `URIError`) an HTTP status, keeping a status
 * and a code it already has. `expose` is set as body-parser sets it, unless
 * `expose` is false (the router, like Express's, gives a status only).
 */
export function withStatus(thrown: unknown, status: number, code: ErrorCode, details?: Record<string, unknown>, expose = true): HttpError {
  if (!(thrown instanceof Error)) return createHttpError(status, code, String(thrown), details);
  const err = thrown as HttpError;
  const own = validStatus(err.status) ?? validStatus(err.statusCode) ?? status;
  if (details !== undefined) Object.assign(err, details);
  err.status = own;
  err.statusCode = own;
  if (expose && typeof err.expose !== 'boolean') err.expose = own < 500;
  if (err.code === undefined) err.code = code;
  return err;
}

function validStatus(value: unknown): number | undefined {
  return typeof value === 'number' && value >= 400 && value < 600 ? value : undefined;
}
