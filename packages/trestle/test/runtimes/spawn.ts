// Starting another runtime (bun, deno) from a node:test file: the binaries
// come from the root devDependencies (node_modules/.bin). A server prints
// `PORT <n>` when it listens; its logline lines come as `LOG <line>`.
import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { rawRequest, type RawResponse } from '../helpers';

export const ROOT = join(__dirname, '..', '..', '..', '..');
export const BIN = join(ROOT, 'node_modules', '.bin');

export interface Runtime {
  name: string;
  /** The command and its arguments before the script. */
  command: string;
  args: string[];
}

export const bun: Runtime = { name: 'Bun', command: join(BIN, 'bun'), args: [] };
// --quiet: no download or compile progress on stderr; -A: the network and files, as node has them.
export const deno: Runtime = { name: 'Deno', command: join(BIN, 'deno'), args: ['run', '-A', '--quiet'] };
export const node: Runtime = { name: 'Node', command: process.execPath, args: [] };

/** Why a runtime's tests cannot run here, or undefined. In CI a missing runtime is a failure, not a skip. */
export function missing(runtime: Runtime): string | undefined {
  if (existsSync(runtime.command) || process.env.CI === 'true') return undefined;
  return `${runtime.command} is not installed (npm ci brings it)`;
}

export interface Started {
  port: number;
  /** The `LOG` lines so far, and all stdout/stderr for failure messages. */
  logs: string[];
  output(): string;
  /** Waits until `count` LOG lines came (at most 10 s: a line that never comes fails the test). */
  logLines(count: number): Promise<string[]>;
  stop(): Promise<void>;
}

/** Runs `script` with `args` on `runtime` and waits (at most 60 s) for its `PORT` line. */
export function start(runtime: Runtime, script: string, args: string[], env: NodeJS.ProcessEnv = {}): Promise<Started> {
  const child = spawn(runtime.command, [...runtime.args, script, ...args], {
    cwd: ROOT,
    env: { ...process.env, NODE_ENV: 'production', NO_COLOR: '1', ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  const logs: string[] = [];
  let text = '';
  let pending = '';
  const waiters = new Set<() => void>();
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => {
      void stop(child);
      reject(new Error(`${runtime.name} did not print PORT within 60 s:\n${text}`));
    }, 60_000);
    child.stderr.on('data', (chunk: Buffer) => (text += chunk.toString()));
    child.stdout.on('data', (chunk: Buffer) => {
      text += chunk.toString();
      pending += chunk.toString();
      const lines = pending.split('\n');
      pending = lines.pop()!;
      for (const line of lines) {
        if (line.startsWith('LOG ')) logs.push(line.slice(4));
        const port = /^PORT (\d+)$/.exec(line) ?? /listening on http:\/\/[^:]+:(\d+)/.exec(line);
        if (port !== null) {
          clearTimeout(timer);
          resolve({ port: Number(port[1]), logs, output: () => text, logLines: (count) => waitLines(logs, count, waiters, () => text), stop: () => stop(child) });
        }
      }
      for (const wake of waiters) wake();
    });
    child.on('exit', (code, signal) => {
      clearTimeout(timer);
      for (const wake of waiters) wake();
      reject(new Error(`${runtime.name} exited (${signal ?? code}) before listening:\n${text}`));
    });
  });
}

function waitLines(logs: string[], count: number, waiters: Set<() => void>, output: () => string): Promise<string[]> {
  return new Promise((resolve, reject) => {
    const check = (): void => {
      if (logs.length < count) return;
      waiters.delete(check);
      clearTimeout(timer);
      resolve(logs.slice(0, count));
    };
    const timer = setTimeout(() => {
      waiters.delete(check);
      reject(new Error(`${logs.length} log lines of ${count} after 10 s:\n${output()}`));
    }, 10_000);
    waiters.add(check);
    check();
  });
}

/** Ends the process (SIGKILL after 5 s of SIGTERM) and waits for it. */
function stop(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return Promise.resolve();
  return new Promise((resolve) => {
    const force = setTimeout(() => child.kill('SIGKILL'), 5_000);
    child.once('exit', () => {
      clearTimeout(force);
      resolve();
    });
    child.kill('SIGTERM');
  });
}

/** An answer as rawRequest (helpers.ts) gives it; `request` sends one over a fresh connection. */
export type Answer = RawResponse;
export const request = rawRequest;
