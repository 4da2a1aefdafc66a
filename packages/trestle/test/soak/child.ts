// The parent's side of the soak and cluster processes: start a TypeScript
// script in a child node (through tsx, with --expose-gc), exchange messages
// with it over IPC, count its open file descriptors. Every wait is bounded.
import { type ChildProcess, spawn } from 'node:child_process';
import { once } from 'node:events';
import { readdirSync } from 'node:fs';
import { join } from 'node:path';

/** The workspace root: where `tsx` and the built packages resolve from. */
export const repoRoot = join(__dirname, '..', '..', '..', '..');

export interface Child {
  process: ChildProcess;
  pid: number;
  /** The next message of this type (messages of other types are not consumed by it). */
  message<T extends { type: string }>(type: T['type'], limitMs?: number): Promise<T>;
  send(message: object): void;
  /** Resolves with the exit code (or signal name). */
  exited(limitMs?: number): Promise<number | string>;
  kill(): void;
}

const DEFAULT_LIMIT_MS = 30_000;

export function bounded<T>(what: string, promise: Promise<T>, limitMs = DEFAULT_LIMIT_MS): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const limit = new Promise<never>((_resolve, reject) => {
    timer = setTimeout(() => reject(new Error(`gave up after ${limitMs} ms waiting for ${what}`)), limitMs);
  });
  return Promise.race([promise, limit]).finally(() => clearTimeout(timer));
}

/** Runs `script` (a .ts file) in a child node with an IPC channel; its output goes to ours. */
export function startChild(script: string, args: string[] = [], nodeFlags: string[] = []): Child {
  const proc = spawn(process.execPath, [...nodeFlags, '--import', 'tsx', script, ...args], {
    cwd: repoRoot,
    stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
    env: { ...process.env, NODE_ENV: 'test' },
  });
  // Messages are queued per type until asked for, so none is lost between waits.
  const queued = new Map<string, object[]>();
  const waiting = new Map<string, Array<(m: object) => void>>();
  proc.on('message', (m: { type: string }) => {
    const waiter = waiting.get(m.type)?.shift();
    if (waiter !== undefined) waiter(m);
    else queued.set(m.type, [...(queued.get(m.type) ?? []), m]);
  });
  const exit = once(proc, 'exit').then(([code, signal]) => (code ?? signal) as number | string);
  return {
    process: proc,
    pid: proc.pid ?? 0,
    message<T extends { type: string }>(type: T['type'], limitMs = DEFAULT_LIMIT_MS): Promise<T> {
      const ready = queued.get(type)?.shift();
      if (ready !== undefined) return Promise.resolve(ready as T);
      const arrived = new Promise<T>((resolve) => waiting.set(type, [...(waiting.get(type) ?? []), resolve as (m: object) => void]));
      // A child that dies first fails the wait at once instead of at the limit.
      const died = exit.then((code) => {
        throw new Error(`${script} exited (${code}) before sending ${type}`);
      });
      return bounded(`message ${type} from ${script}`, Promise.race([arrived, died]), limitMs);
    },
    send(message: object): void {
      proc.send(message);
    },
    exited(limitMs = DEFAULT_LIMIT_MS) {
      return bounded(`${script} to exit`, exit, limitMs);
    },
    kill(): void {
      if (proc.exitCode === null && proc.signalCode === null) proc.kill('SIGKILL');
    },
  };
}

/** Open file descriptors of a process, or undefined where /proc does not exist. */
export function openFds(pid: number): number | undefined {
  try {
    return readdirSync(`/proc/${pid}/fd`).length;
  } catch {
    return undefined;
  }
}
