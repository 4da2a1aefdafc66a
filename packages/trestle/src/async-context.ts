// Node 24 keeps AsyncLocalStorage's stores in "async context frames", and
// settles which of its two frame classes a process uses the first time it
// asks whether frames are on: when `AsyncLocalStorage` is first read, or a
// timer first cleared. Settling switches the prototype of the class that
// `process.nextTick` and node's tick loop read on every tick. Switched after
// those functions were optimized (a server under load clears its first
// keep-alive timer), their reads of it stay generic calls for the life of
// the process: 7k instructions a request, 12% of a hello world
// (docs/PERFORMANCE.md, "What each change bought"). Asking once at load
// settles it before any of that code is hot. Where frames are off (Node 20,
// 22) or absent (Bun, Deno, workerd) the answer never switches anything.
import { AsyncLocalStorage } from 'node:async_hooks';

/** Has node settle its async context frame class now (reading `AsyncLocalStorage` does). */
export function settleAsyncContextFrame(): unknown {
  return AsyncLocalStorage;
}
