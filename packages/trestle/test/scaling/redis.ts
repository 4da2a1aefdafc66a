// A private redis-server for a test: on 127.0.0.1, a free port, a temporary
// directory, nothing saved to disk. It answers PING before start() resolves,
// and stop() ends it (politely, then SIGKILL) within bounded time. It can be
// crashed (SIGKILL) and started again on the same port, as an outage would.
import { type ChildProcess, execFileSync, spawn } from 'node:child_process';
import { once } from 'node:events';
import { mkdtempSync, rmSync } from 'node:fs';
import * as net from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { bounded } from '../soak/child';

/** `why` when `command args` cannot run here, else undefined (a test's `skip`). */
export function commandMissing(command: string, args: string[], why: string): string | undefined {
  // Never missing in CI: .ci/run installs every tool and sets CI, so there a test that needs one runs (and fails without it).
  if (process.env.CI) return undefined;
  try {
    execFileSync(command, args, { stdio: 'ignore', timeout: 10_000 });
    return undefined;
  } catch {
    return why;
  }
}

/** Why the Redis tests cannot run here, or undefined when redis-server is installed. */
export function redisMissing(): string | undefined {
  return commandMissing('redis-server', ['--version'], 'redis-server is not installed (apt-get install -y redis-server; .ci/run installs it)');
}

/** A port that was free a moment ago on 127.0.0.1. */
export async function freePort(): Promise<number> {
  const server = net.createServer();
  server.listen(0, '127.0.0.1');
  await once(server, 'listening');
  const { port } = server.address() as net.AddressInfo;
  await new Promise((resolve) => server.close(resolve));
  return port;
}

/** One PING over a fresh connection: true when Redis answers PONG within `limitMs`. */
export function ping(port: number, limitMs = 1_000): Promise<boolean> {
  return new Promise((resolve) => {
    const socket = net.connect(port, '127.0.0.1');
    const done = (ok: boolean): void => {
      socket.destroy();
      resolve(ok);
    };
    socket.setTimeout(limitMs, () => done(false));
    socket.on('error', () => done(false));
    socket.on('connect', () => socket.write('PING\r\n'));
    socket.on('data', (data) => done(data.toString().startsWith('+PONG')));
  });
}

export class RedisServer {
  private proc: ChildProcess | undefined;
  private readonly dir = mkdtempSync(join(tmpdir(), 'trestle-redis-'));

  private constructor(readonly port: number) {}

  /** Starts a server on a free port; tries three ports in case one was taken meanwhile. */
  static async start(): Promise<RedisServer> {
    let lastError: unknown;
    for (let attempt = 0; attempt < 3; attempt++) {
      const server = new RedisServer(await freePort());
      try {
        await server.run();
        return server;
      } catch (error) {
        lastError = error;
        await server.stop();
      }
    }
    throw lastError;
  }

  /** Starts redis-server (again) on this port and waits until it answers PING. */
  async run(): Promise<void> {
    const args = ['--port', String(this.port), '--bind', '127.0.0.1', '--save', '', '--appendonly', 'no', '--dir', this.dir];
    const proc = spawn('redis-server', args, { stdio: ['ignore', 'ignore', 'inherit'] });
    this.proc = proc;
    const exited = once(proc, 'exit').then(([code, signal]) => {
      throw new Error(`redis-server on port ${this.port} exited (${code ?? signal}) before answering PING`);
    });
    exited.catch(() => {});
    await bounded(`redis-server on port ${this.port} to answer PING`, Promise.race([this.answering(proc), exited]), 10_000);
  }

  /** Polls PING, at most 100 times, 100 ms apart, while `proc` runs. */
  private async answering(proc: ChildProcess): Promise<void> {
    for (let i = 0; i < 100 && proc.exitCode === null && proc.signalCode === null; i++) {
      if (await ping(this.port, 500)) return;
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
    throw new Error(`redis-server on port ${this.port} did not answer PING`);
  }

  /** An abrupt outage: SIGKILL, and wait until the process is gone. */
  async crash(): Promise<void> {
    await this.end('SIGKILL');
  }

  /** Ends the server (SIGTERM, SIGKILL after 5 s) and removes its directory. */
  async stop(): Promise<void> {
    await this.end('SIGTERM');
    rmSync(this.dir, { recursive: true, force: true });
  }

  private async end(signal: NodeJS.Signals): Promise<void> {
    const proc = this.proc;
    this.proc = undefined;
    if (proc === undefined || proc.exitCode !== null || proc.signalCode !== null) return;
    const exit = once(proc, 'exit');
    proc.kill(signal);
    try {
      await bounded('redis-server to exit', exit, 5_000);
    } catch {
      proc.kill('SIGKILL');
      await bounded('redis-server to exit after SIGKILL', exit, 5_000);
    }
  }
}
