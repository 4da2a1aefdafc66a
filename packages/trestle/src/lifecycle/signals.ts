// Opt-in signal handling: the first SIGTERM or SIGINT starts a graceful
// shutdown, a second one ends the process at once (an operator pressing
// Ctrl-C twice, or a supervisor that lost patience).
import { constants } from 'node:os';
import type { ShutdownSignalsOptions } from '../types/lifecycle';
import { shutdown, type ShutdownTarget } from './shutdown';

const DEFAULT_SIGNALS: NodeJS.Signals[] = ['SIGTERM', 'SIGINT'];

/** The exit code a shell reports for a process ended by `signal`. */
function signalExitCode(signal: NodeJS.Signals): number {
  return 128 + (constants.signals[signal] ?? 0);
}

/** Installs the handlers; returns a function that removes them. */
export function shutdownOnSignals(target: ShutdownTarget, options: ShutdownSignalsOptions = {}): () => void {
  const signals = options.signals ?? DEFAULT_SIGNALS;
  let started = false;
  const remove = () => {
    for (const signal of signals) process.removeListener(signal, onSignal);
  };
  function onSignal(signal: NodeJS.Signals): void {
    if (started) {
      remove();
      process.exit(signalExitCode(signal));
    }
    started = true;
    void shutdown(target, options)
      .then(async (report) => {
        await options.onReport?.(report);
        return report.cut === 0 && report.hookErrors.length === 0 ? 0 : 1;
      })
      // An invalid option or a failing onReport: still leave, as asked, but say it failed.
      .catch(() => 1)
      .then((code) => {
        if (options.exit !== false) process.exit(code);
      });
  }
  for (const signal of signals) process.on(signal, onSignal);
  return remove;
}
