// Request deadlines: `trestle.deadline('5s')` per route (or router, or app),
// and the app-wide `request deadline` setting. When a deadline passes before the
// answer has started, req.signal aborts with a TimeoutError and the request
// goes on to the error handlers with a 503 (through the router's own `next`,
// so error handlers and logline see one ending); whatever the handler writes
// after that answer has started is dropped without an error. An answer
// already streaming is left alone unless `cutStreaming` is asked for.
import { createHttpError } from '../errors';
import type { DeadlineOptions } from '../types/lifecycle';
import { toMilliseconds } from './duration';
import { abortRequest } from './signal';

interface DeadlineRequest {
  next?: (err?: unknown) => void;
}

interface DeadlineResponse {
  headersSent: boolean;
  writableEnded: boolean;
  destroy(err?: Error): unknown;
  once(event: 'close', listener: () => void): unknown;
  [method: string]: unknown;
}

/** The deadline armed for each request: a later one (a route's) replaces an earlier one (the app's). */
const armed = new WeakMap<object, NodeJS.Timeout>();

/** Requests whose deadline passed, so a second one does nothing. */
const passed = new WeakSet<object>();

export type ArmDeadline = (req: DeadlineRequest, res: DeadlineResponse) => void;

/** Compiles a deadline (milliseconds or '5s'; 0 or false for none) into the function that arms it. */
export function compileDeadline(value: unknown, options: DeadlineOptions = {}): ArmDeadline | undefined {
  if (value === false || value === undefined || value === null) return undefined;
  const ms = toMilliseconds(value, 'deadline');
  if (ms === 0) return undefined;
  return (req, res) => arm(req, res, ms, options);
}

function arm(req: DeadlineRequest, res: DeadlineResponse, ms: number, options: DeadlineOptions): void {
  if (passed.has(req)) return;
  const previous = armed.get(req);
  if (previous === undefined) res.once('close', () => clearTimeout(armed.get(req)));
  else clearTimeout(previous);
  const timer = setTimeout(() => expire(req, res, ms, options), ms);
  timer.unref();
  armed.set(req, timer);
}

function timeoutReason(ms: number): DOMException {
  return new DOMException(`The request deadline of ${ms} ms passed`, 'TimeoutError');
}

function expire(req: DeadlineRequest, res: DeadlineResponse, ms: number, options: DeadlineOptions): void {
  if (res.writableEnded) return;
  if (res.headersSent) {
    // An answer already streaming runs on, unless the app asked for it to be cut.
    if (options.cutStreaming !== true) return;
    passed.add(req);
    abortRequest(req, timeoutReason(ms));
    res.destroy();
    return;
  }
  passed.add(req);
  abortRequest(req, timeoutReason(ms));
  dropLateWrites(res);
  const err = createHttpError(503, 'TRESTLE_ERR_DEADLINE_EXCEEDED', 'Response timeout', { timeout: ms });
  if (typeof req.next === 'function') req.next(err);
}

/**
 * Once one answer has started (the error handlers' 503, usually), the
 * handler that outlived its deadline may still write: its header changes and
 * writes after that answer are dropped, not thrown (ERR_HTTP_HEADERS_SENT)
 * nor emitted ('write after end'). Own members of this one response only.
 */
function dropLateWrites(res: DeadlineResponse): void {
  for (const name of ['setHeader', 'appendHeader', 'removeHeader', 'writeHead'] as const) {
    const original = res[name] as ((...args: unknown[]) => unknown) | undefined;
    if (typeof original !== 'function') continue;
    res[name] = function (this: DeadlineResponse, ...args: unknown[]) {
      return this.headersSent ? this : original.apply(this, args);
    };
  }
  for (const name of ['write', 'end'] as const) {
    const original = res[name] as (...args: unknown[]) => unknown;
    res[name] = function (this: DeadlineResponse, ...args: unknown[]) {
      if (!this.writableEnded) return original.apply(this, args);
      return name === 'write' ? true : this;
    };
  }
}

/** `trestle.deadline(time, options)`: a middleware that gives the requests through it a deadline. */
export function deadline(time: number | string, options: DeadlineOptions = {}) {
  const armDeadline = compileDeadline(time, options) ?? (() => undefined);
  return function deadline(req: DeadlineRequest, res: DeadlineResponse, next: (err?: unknown) => void): void {
    armDeadline(req, res);
    next();
  };
}
