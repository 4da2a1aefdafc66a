// The errors the built-in middleware pass to `next(err)`. They carry what
// Express users' error handlers read: `status`/`statusCode` (the HTTP answer),
// `expose` (whether the message is safe to show the client), `type` (a stable
// name to test instead of the message) and, per error, details such as `limit`.
import statuses from 'statuses';

/** The fields an error from the built-in middleware may carry. */
export interface HttpErrorFields {
  status: number;
  statusCode: number;
  expose: boolean;
  type?: string;
  [detail: string]: unknown;
}

export type HttpError = Error & HttpErrorFields;

/** `PayloadTooLargeError` for 413: the class names Express users see in logs. */
function errorName(status: number): string {
  const name = (statuses.message[status] ?? 'Http').replace(/[^A-Za-z0-9]/g, '');
  return name.endsWith('Error') ? name : `${name}Error`;
}

const names = new Map<number, string>();

/** A new error with `status` and the given details. */
export function createHttpError(status: number, message: string, details: Record<string, unknown>): HttpError {
  let name = names.get(status);
  if (name === undefined) {
    name = errorName(status);
    names.set(status, name);
  }
  const err = new Error(message) as HttpError;
  // The name goes in before the stack is read, so the stack's first line names the error.
  Object.defineProperty(err, 'name', { value: name, writable: true, configurable: true, enumerable: false });
  Error.captureStackTrace(err, createHttpError);
  return Object.assign(err, details, { status, statusCode: status, expose: status < 500 });
}

/**
 * Gives an error raised elsewhere (a `SyntaxError` from `JSON.parse`, a zlib
 * error, whatever `verify` threw) an HTTP status, keeping a status it already has.
 */
export function withStatus(thrown: unknown, status: number, details?: Record<string, unknown>): HttpError {
  if (!(thrown instanceof Error)) return createHttpError(status, String(thrown), details ?? {});
  const err = thrown as HttpError;
  const own = validStatus(err.status) ?? validStatus(err.statusCode) ?? status;
  if (details !== undefined) Object.assign(err, details);
  err.status = own;
  err.statusCode = own;
  if (typeof err.expose !== 'boolean') err.expose = own < 500;
  return err;
}

function validStatus(value: unknown): number | undefined {
  return typeof value === 'number' && value >= 400 && value < 600 ? value : undefined;
}

/** An error of class `Ctor` with Express's wording and a stable `code` (`TRESTLE_ERR_...`). */
export function codedError<E extends Error>(Ctor: new (message: string) => E, message: string, code: string): E & { code: string } {
  return Object.assign(new Ctor(message), { code });
}
