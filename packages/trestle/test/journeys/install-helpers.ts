// What the install journeys share: `npm run pack`'s script run as a user runs
// it, the install commands it prints, a fresh project outside the workspace,
// and a server process started and stopped within bounded waits.
import assert from 'node:assert/strict';
import { type ChildProcess, spawn } from 'node:child_process';
import { mkdirSync, readdirSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { join } from 'node:path';
import { npmFlags, root, run } from '../pack';

/** Runs the script behind `npm run pack` (the build has run: `npm test` builds first) into `dest`. */
export function packAll(dest: string): { printed: string; tarballs: string[]; installs: string[][] } {
  const printed = run(process.execPath, [join(root, 'scripts', 'pack.mjs'), dest], root, 180_000);
  const tarballs = readdirSync(dest).filter((name) => name.endsWith('.tgz')).sort();
  // The `npm install ...` lines it prints, as argument lists.
  const installs = printed.split('\n').filter((line) => line.trim().startsWith('npm install ')).map((line) => line.trim().split(/\s+/).slice(2));
  return { printed, tarballs, installs };
}

/** A fresh app folder with a package.json, as `npm init -y` leaves it. */
export function freshProject(dir: string, name: string): string {
  mkdirSync(dir, { recursive: true });
  writeFileSync(join(dir, 'package.json'), JSON.stringify({ name, version: '1.0.0', private: true }, null, 2));
  return dir;
}

/** `npm install <args>` in `dir`, quiet and from the cache when it can, bounded to 4 minutes. */
export function npmInstall(dir: string, args: string[]): void {
  run('npm', ['install', ...npmFlags, ...args], dir, 240_000);
}

/** A port free on 127.0.0.1 right now. */
export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer().listen(0, '127.0.0.1', () => {
      const { port } = server.address() as { port: number };
      server.close(() => resolve(port));
    }).on('error', reject);
  });
}

export interface Started {
  child: ChildProcess;
  /** Everything the process printed so far, stdout and stderr. */
  output(): string;
  /** Waits (bounded) until the output matches `pattern`. */
  waitFor(pattern: RegExp, what: string, ms?: number): Promise<void>;
  stop(): Promise<void>;
}

/** Starts `node <args>` in `cwd`; the caller stops it. */
export function startNode(args: string[], cwd: string, env: NodeJS.ProcessEnv = {}): Started {
  const child = spawn(process.execPath, args, { cwd, env: { ...process.env, NODE_ENV: 'development', ...env }, stdio: ['ignore', 'pipe', 'pipe'] });
  let text = '';
  child.stdout!.on('data', (chunk) => { text += chunk; });
  child.stderr!.on('data', (chunk) => { text += chunk; });
  const output = () => text;
  async function waitFor(pattern: RegExp, what: string, ms = 15_000): Promise<void> {
    const until = Date.now() + ms;
    // Without ANSI colours (logline's dev format colours the status).
    while (!pattern.test(text.replace(/\x1b\[[0-9;]*m/g, ''))) {
      assert.ok(child.exitCode === null, `the process exited (${child.exitCode}) before ${what}:\n${text}`);
      assert.ok(Date.now() < until, `no ${what} within ${ms / 1000} s; it printed:\n${text}`);
      await new Promise((r) => setTimeout(r, 50));
    }
  }
  async function stop(): Promise<void> {
    if (child.exitCode !== null || child.signalCode !== null) return;
    const exited = new Promise((r) => child.once('exit', r));
    child.kill('SIGTERM');
    const timer = setTimeout(() => child.kill('SIGKILL'), 5000);
    await exited;
    clearTimeout(timer);
  }
  return { child, output, waitFor, stop };
}

/** Runs `node -e <code>` in `dir`: its stdout, parsed as JSON. */
export function nodeJson(dir: string, code: string, extra: string[] = []): unknown {
  return JSON.parse(run(process.execPath, [...extra, '-e', code], dir, 60_000));
}
