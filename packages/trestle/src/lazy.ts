// Dependencies that only some requests or some settings need are loaded on
// first use, not by `require('trestle')`: a process that never serves a
// file never loads `send`, one that never reads a form never loads `qs`.
// Start-up is then mostly trestle's own code (docs/PERFORMANCE.md, the
// `cold` table of "Latest run").

/**
 * `load()` on the first call, its result every call after (one comparison).
 * Write `load` as `() => require('name') as typeof import('name')`: a
 * literal `require` keeps the dependency visible to bundlers.
 */
export function lazy<T>(load: () => T): () => T {
  let value: T | undefined;
  return () => (value ??= load());
}
