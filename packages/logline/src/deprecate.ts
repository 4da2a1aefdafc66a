// Deprecation warnings for the morgan forms logline still accepts. They go
// through process.emitWarning so that --no-deprecation silences them and
// --trace-deprecation adds a stack, as with Node's own; each kind is emitted
// once per process so a busy app does not repeat itself.
const emitted = new Set<string>();

export function deprecate(code: string, message: string): void {
  if (emitted.has(code)) return;
  emitted.add(code);
  try {
    process.emitWarning(message, 'DeprecationWarning', code);
  } catch {
    // A warning must never break the call that triggered it (for example
    // under --throw-deprecation, or with a replaced process.emitWarning).
  }
}
