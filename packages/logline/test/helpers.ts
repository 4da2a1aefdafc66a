// Shared test fixtures: a Writable that records every write() and lets a test
// await a given number of them, and a bare node:http server that runs a chain
// of middleware and tells when responses are over on the server side.
import { spawnSync } from 'node:child_process';
import http, { type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import path from 'node:path';
import { Writable } from 'node:stream';
import logger from 'logline-http';

type Waiter = { count: number; resolve: () => void };

// Captured before any test mocks the timers: the guard below must stay real.
const realSetTimeout = globalThis.setTimeout;
const realClearTimeout = globalThis.clearTimeout;

/** How long a wait may last before the test fails instead of hanging (a bound, not a sleep). */
const WAIT_LIMIT_MS = 10_000;

/** Resolves promises once a counter reaches a number; no polling, no sleeping. */
class Counter {
  private value = 0;
  private waiters: Waiter[] = [];

  constructor(private readonly what: string) {}

  get count(): number {
    return this.value;
  }

  increment(): void {
    this.value++;
    this.waiters = this.waiters.filter((w) => {
      if (w.count > this.value) return true;
      w.resolve();
      return false;
    });
  }

  reach(count: number): Promise<void> {
    if (this.value >= count) return Promise.resolve();
    return new Promise((resolve, reject) => {
      const guard = realSetTimeout(() => {
        reject(new Error(`gave up waiting for ${count} ${this.what}: saw ${this.value}`));
      }, WAIT_LIMIT_MS);
      guard.unref();
      this.waiters.push({
        count,
        resolve: () => {
          realClearTimeout(guard);
          resolve();
        },
      });
    });
  }
}

export interface SinkOptions {
  highWaterMark?: number;
  /** Complete each write on a later turn of the event loop, so writes queue up. */
  slow?: boolean;
}

/** A Writable that keeps each chunk it receives, as one string per write(). */
export class LineSink extends Writable {
  readonly writes: string[] = [];
  /** How many times the stream drained after a write() returned false (back-pressure). */
  drains = 0;
  private readonly received = new Counter('writes');
  private readonly slow: boolean;

  constructor(options: SinkOptions = {}) {
    super({ decodeStrings: false, highWaterMark: options.highWaterMark });
    this.slow = options.slow ?? false;
    this.on('drain', () => this.drains++);
  }

  override _write(chunk: string | Buffer, _encoding: BufferEncoding, done: (error?: Error | null) => void): void {
    this.writes.push(String(chunk));
    this.received.increment();
    if (this.slow) setImmediate(done);
    else done();
  }

  /** Resolves once `count` chunks have reached _write. */
  waitForWrites(count: number): Promise<void> {
    return this.received.reach(count);
  }

  /** Waits for the next `count` writes and returns their text without the final newline. */
  async lines(count: number): Promise<string[]> {
    await this.waitForWrites(count);
    return this.writes.map((w) => w.replace(/\n$/, ''));
  }

  /** Waits for the first write and returns it without its newline. */
  async firstLine(): Promise<string> {
    return (await this.lines(1))[0] as string;
  }
}

export type Middleware = (req: IncomingMessage, res: ServerResponse, next: (err?: unknown) => void) => void;
export type Handler = (req: IncomingMessage, res: ServerResponse) => void;

export interface TestServer {
  server: http.Server;
  url: string;
  /** Resolves once `count` responses have closed on the server side (lines for them are written). */
  settled(count: number): Promise<void>;
  close(): Promise<void>;
}

/** Runs the middleware in order, then the handler; an error in next() answers 500. */
function chain(middleware: Middleware[], handler: Handler): Handler {
  return (req, res) => {
    let index = 0;
    const next = (err?: unknown): void => {
      if (err !== undefined) {
        res.statusCode = 500;
        res.end(String(err));
        return;
      }
      const mw = middleware[index++];
      if (mw === undefined) handler(req, res);
      else mw(req, res, next);
    };
    next();
  };
}

/** A bare http.Server on 127.0.0.1 that runs `middleware` and then `handler`. */
export async function serve(middleware: Middleware[], handler: Handler): Promise<TestServer> {
  const closed = new Counter('closed responses');
  const run = chain(middleware, handler);
  const server = http.createServer((req, res) => {
    run(req, res);
    // Registered after the loggers' own listeners (the middleware ran
    // synchronously above), so it fires after their lines are written.
    res.on('close', () => closed.increment());
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    server,
    url: `http://127.0.0.1:${port}`,
    settled: (count) => closed.reach(count),
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

/** Middleware that copies `fields` onto the request, as a framework or an earlier middleware would. */
export function assign(fields: Record<string, string>): Middleware {
  return (req, res, next) => {
    Object.assign(req, fields);
    next();
  };
}

/** Answers with a body and an explicit Content-Length. */
export function send(res: ServerResponse, status: number, body: string): void {
  res.statusCode = status;
  res.setHeader('Content-Length', Buffer.byteLength(body));
  res.end(body);
}

/**
 * A whole-line matcher: the template is matched literally except for the
 * placeholders {clf}, {iso}, {web} (dates) and {ms} / {ms:N} (durations with
 * N decimals, default 3), which are the only parts that vary between runs.
 */
export function linePattern(template: string): RegExp {
  const placeholders: Record<string, string> = {
    clf: '\\d{2}/[A-Z][a-z]{2}/\\d{4}:\\d{2}:\\d{2}:\\d{2} \\+0000',
    iso: '\\d{4}-\\d{2}-\\d{2}T\\d{2}:\\d{2}:\\d{2}\\.\\d{3}Z',
    web: '[A-Z][a-z]{2}, \\d{2} [A-Z][a-z]{2} \\d{4} \\d{2}:\\d{2}:\\d{2} GMT',
  };
  const parts = template.split(/(\{[a-z]+(?::\d+)?\})/);
  const source = parts
    .map((part, i) => {
      if (i % 2 === 0) return part.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
      const [name, digits] = part.slice(1, -1).split(':') as [string, string | undefined];
      if (name === 'ms') {
        const n = Number(digits ?? 3);
        return n === 0 ? '\\d+' : `\\d+\\.\\d{${n}}`;
      }
      const pattern = placeholders[name];
      if (pattern === undefined) throw new Error(`unknown placeholder ${part}`);
      return pattern;
    })
    .join('');
  return new RegExp(`^${source}$`);
}

/**
 * Serves one handler behind one logger writing to a fresh sink (after the
 * `before` middleware), makes the request, and returns the first line
 * written (without its newline).
 */
export async function lineFor(
  format: string | logger.FormatFn,
  handler: Handler,
  makeRequest: (url: string) => PromiseLike<unknown>,
  options: logger.LoggerOptions = {},
  before: Middleware[] = [],
): Promise<string> {
  const sink = new LineSink();
  const app = await serve([...before, logger(format, { ...options, stream: sink })], handler);
  try {
    await makeRequest(app.url);
    return await sink.firstLine();
  } finally {
    await app.close();
  }
}

export interface Deferred {
  promise: Promise<void>;
  resolve: () => void;
}

export function deferred(): Deferred {
  let resolve!: () => void;
  const promise = new Promise<void>((r) => (resolve = r));
  return { promise, resolve };
}

/**
 * Sends a GET and destroys the client socket once `arrived` resolves (the
 * handler resolves it when the request reaches it), before any answer.
 */
export async function abortOnArrival(url: string, arrived: Promise<void>): Promise<void> {
  const req = http.get(url);
  req.on('error', () => {}); // the reset is the point of the exercise
  await arrived;
  req.destroy();
}

export interface NodeRun {
  status: number | null;
  stdout: string;
  stderr: string;
}

/** Runs a script in a fresh node process from the package folder (where `require('logline-http')` resolves); `extraEnv` adds to its environment. */
export function runNode(script: string, flags: string[] = [], extraEnv: Record<string, string> = {}): NodeRun {
  const env = { ...process.env, ...extraEnv };
  delete env.NODE_TEST_CONTEXT; // the child is a plain script, not a test file
  const run = spawnSync(process.execPath, [...flags, '-e', script], {
    cwd: path.resolve(__dirname, '..'),
    encoding: 'utf8',
    env,
    timeout: 30_000,
  });
  return { status: run.status, stdout: run.stdout, stderr: run.stderr };
}

/**
 * Script text that serves a one-byte answer behind `mw` (JavaScript source
 * for a middleware), makes one GET to `urlPath` and closes: the lines go
 * wherever `mw` writes them.
 */
export function oneRequestScript(mw: string, urlPath: string): string {
  return `
    const http = require('node:http');
    const logger = require('logline-http');
    const mw = ${mw};
    const server = http.createServer((req, res) => mw(req, res, () => res.end('x')));
    server.listen(0, '127.0.0.1', () => {
      const url = 'http://127.0.0.1:' + server.address().port + ${JSON.stringify(urlPath)};
      http.get(url, { agent: false }, (res) => { res.resume(); res.on('end', () => server.close()); });
    });
  `;
}
