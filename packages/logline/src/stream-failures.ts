// A log stream that fails (a write() that throws, an 'error' event from a
// full disk or an ended stream, a format function that throws) must not take
// the server down with it: the failure becomes a process warning, the
// exchange it belonged to is already answered, and later lines are tried as
// usual. morgan lets such failures crash the process.
import type { LogStream } from './types.js';

const WARNING_CODE = 'LOGLINE_WRITE_FAILED';

/** Streams whose 'error' events are reported, so loggers sharing one listen once. */
const watched = new WeakSet<object>();

function describeFailure(err: unknown): string {
  return err instanceof Error ? err.message : String(err);
}

/** Reports a failure to write a log line as a warning ('warning' event, stderr). */
export function reportFailure(err: unknown): void {
  process.emitWarning(`logline: a log line could not be written: ${describeFailure(err)}`, { code: WARNING_CODE });
}

/** Listens to the stream's 'error' events, once per stream, if it emits any. */
export function watchErrors(stream: LogStream): void {
  const on = (stream as { on?: unknown }).on;
  if (typeof on !== 'function' || watched.has(stream)) return;
  watched.add(stream);
  on.call(stream, 'error', reportFailure);
}
