// Starts test/lifecycle/server.ts as a child process and reads its IPC messages.
import { type ChildProcess, fork } from 'node:child_process';
import { once } from 'node:events';
import { join } from 'node:path';
import { within } from '../lifecycle-helpers';

export interface Child {
  child: ChildProcess;
  port: number;
  /** The next IPC message of `type`. */
  next(type: string): Promise<Record<string, unknown>>;
  /** The exit code, or the signal's name. */
  exited: Promise<number | string>;
}

/**
 * Starts test/lifecycle/server.ts for `entry` (`express5`: express-server.ts,
 * Express 5 with the usual `server.close()` recipe), resolved once it listens.
 */
export async function startChild(entry: string, logFile = '-', port = 0): Promise<Child> {
  const script = entry === 'express5' ? 'express-server.ts' : 'server.ts';
  const child = fork(join(__dirname, script), [entry, logFile, String(port)], { execArgv: ['--import', 'tsx'], stdio: ['ignore', 'inherit', 'inherit', 'ipc'] });
  const messages: Array<Record<string, unknown>> = [];
  const waiters: Array<{ type: string; resolve: (m: Record<string, unknown>) => void }> = [];
  child.on('message', (m: Record<string, unknown>) => {
    const i = waiters.findIndex((w) => w.type === m.type);
    if (i >= 0) waiters.splice(i, 1)[0]!.resolve(m);
    else messages.push(m);
  });
  const next = (type: string) =>
    new Promise<Record<string, unknown>>((resolve) => {
      const i = messages.findIndex((m) => m.type === type);
      if (i >= 0) resolve(messages.splice(i, 1)[0]!);
      else waiters.push({ type, resolve });
    });
  const exited = once(child, 'exit').then(([code, signal]) => (code ?? signal) as number | string);
  const listening = await within(next('listening'), `${script} listening (${entry})`, 15_000).catch((err: unknown) => {
    child.kill('SIGKILL');
    throw err;
  });
  return { child, port: listening.port as number, next, exited };
}

