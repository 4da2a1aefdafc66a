// On Deno, reading a Request's `signal` makes Deno.serve watch that request
// for an abort, which costs ~9 µs a request (bench/profile/signal-cost.mjs:
// 185k to 70k req/s), far more than a timer. So there `app.fetch` reads the
// signal only of an answer still pending after a sweep interval: one sweep
// timer for all requests, each request waiting in a map, read at the second
// sweep after it came (20-40 ms). An answer that comes sooner never reads
// its signal; a client that left is noticed within that time, not at once.
import { clearInterval, setInterval } from 'node:timers';

const SWEEP_MS = 20;

type Watch = (item: object) => void;

/** Each waiting item: the sweep count when it came, and what to call if it is still waiting two sweeps on. */
const waiting = new Map<object, [since: number, watch: Watch]>();
let sweeps = 0;
let timer: ReturnType<typeof setInterval> | null = null;

/** Calls `watch(item)` at the second sweep from now, unless `answered(item)` comes first. */
export function watchLater<T extends object>(item: T, watch: (item: T) => void): void {
  waiting.set(item, [sweeps, watch as Watch]);
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
  for (const [item, [since, watch]] of waiting) {
    if (since < sweeps - 1) {
      waiting.delete(item);
      watch(item);
    }
  }
  if (waiting.size === 0) {
    clearInterval(timer!);
    timer = null;
  }
}
