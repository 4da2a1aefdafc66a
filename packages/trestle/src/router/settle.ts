// What the router does with what a handler returns: a promise's rejection
// becomes `next(err)`, as in Express 5.
import { createError } from '../errors';

type Next = (err?: unknown) => void;

/** Is `value` a promise (or any thenable)? */
export function isThenable(value: unknown): value is PromiseLike<unknown> {
  return value !== null && typeof value === 'object' && typeof (value as PromiseLike<unknown>).then === 'function';
}

/** A rejection's reason as `next` gets it: any falsy reason, as Express, must not read as success. */
export function rejectionError(reason: unknown): unknown {
  return reason || createError(Error, 'TRESTLE_ERR_PROMISE_REJECTED', 'Rejected promise');
}

// The upgrade report hears every rejection (Express 4 ignored them); set only when the report is on.
let rejectionWatcher: ((reason: unknown) => void) | undefined;

/** Makes `watcher` hear each handler's rejection before `next(err)` does (the upgrade report). */
export function watchRejections(watcher: (reason: unknown) => void): void {
  rejectionWatcher = watcher;
}

/** A handler that returns a promise reports its rejection as `next(err)`. */
export function settle(ret: unknown, next: Next): void {
  if (isThenable(ret)) {
    ret.then(undefined, (err: unknown) => {
      rejectionWatcher?.(err);
      next(rejectionError(err));
    });
  }
}
