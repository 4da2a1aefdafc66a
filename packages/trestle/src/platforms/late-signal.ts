// On Deno, reading a Request's `signal` makes Deno.serve watch that request
// for an abort, which costs ~9 µs a request (bench/profile/signal-cost.mjs:
// 185k to 70k req/s), far more than a timer. So there `app.fetch` reads the signal only
// of an answer still pending after a sweep interval: one sweep timer for all
// requests, each request waiting in a map, read at the second sweep after
// it came (20-40 ms). An answer that comes sooner never reads its signal; a
// client that left is noticed within that time, not at once.
import { clearInterval, setInterval } from 'node:timers';

const SWEEP_MS = 20;

/** Each waiting item, and the sweep count when it came. */
const waiting = new Map<object, number>();
let sweeps = 0;
let timer: ReturnType<typeof setInterval> | null = null;
let late: (item: object) => void = () => {};

/** Calls `watch(item)` at the second sweep from now, unless `answered(item)` comes first. */
export function watchLater<T extends object>(item: T, watch: (item: T) => void): void {
  late = watch as (item: object) => void;
  waiting.set(item, sweeps);
  if (timer === null) {
    timer = setInterval(sweep, SWEEP_MS);
    // Waiting requests alone do not keep a process alive, as a socket's own watch would not.
    timer.unref();
  }
}

/** `item` no longer needs watching (answered, or gone). */
export function answered(item: object): void {
  waiting.delete(item);
}

function sweep(): void {
  sweeps++;
  for (const [item, since] of waiting) {
    if (since < sweeps - 1) {
      waiting.delete(item);
      late(item);
    }
  }
  if (waiting.size === 0) {
    clearInterval(timer!);
    timer = null;
  }
}
