// The Workers journey (issue 40): the runtime conformance app, with
// express-session, compression and a middleware that wraps res.write and
// res.end, run as a Worker by the Workers toolchain a user runs (miniflare,
// and `wrangler dev` on 127.0.0.1), answers byte for byte as `app.fetch`
// answers on Node: status, status text, headers, body. Read over HTTP from
// workerd's own server, so the status line is what a client sees. Also: the
// example Worker under `wrangler dev` serves production answers.
import assert from 'node:assert/strict';
import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { request as httpRequest } from 'node:http';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { type Readable, Writable } from 'node:stream';
import { brotliDecompressSync, gunzipSync } from 'node:zlib';
import { after, before, describe, test } from 'node:test';
import { Miniflare } from 'miniflare';
import { CASES, type Case } from '../runtimes/cases';
import { BIN, ROOT } from '../runtimes/spawn';
import { COMPATIBILITY_DATE, bundleWorker } from '../runtimes/worker';

const DIST = join(__dirname, '..', '..', 'dist');
const APP = join(__dirname, '..', 'runtimes', 'app.cjs');
const ENTRIES = { trestle: 'index.js', v4: 'v4.js', legacy: 'legacy.js' } as const;
const WRANGLER = join(BIN, 'wrangler');
const skip = (existsSync(join(BIN, 'workerd')) && existsSync(WRANGLER)) || process.env.CI === 'true' ? undefined : 'workerd or wrangler is not installed (npm ci brings them)';

/**
 * The Accept-Encoding a Worker is handed, whatever the client sent (workerd
 * under miniflare and wrangler, as Cloudflare's edge): the app on Node is
 * asked with it. The platform then decodes for a client that did not ask,
 * and may itself encode an answer for one that did; so an encoded answer is
 * compared decoded, without its Content-Encoding and Content-Length.
 */
const WORKER_ACCEPT = 'br, gzip';

/** The conformance cases a Worker can answer (no files from disk, no views), and those of the wrapping middleware. */
const JOURNEY: Case[] = [
  ...CASES.filter((c) => !c.files && c.path !== '/view').map(({ headers, ...c }) => {
    const { host, ...rest } = headers ?? {};
    return { ...c, headers: rest };
  }),
  { name: 'compression: gzip', method: 'GET', path: '/big', headers: { 'accept-encoding': 'gzip' } },
  { name: 'compression: br', method: 'GET', path: '/big', headers: { 'accept-encoding': 'br' } },
  { name: 'compression of a streamed answer', method: 'GET', path: '/big/streamed' },
  { name: 'express-session: a new session', method: 'GET', path: '/session' },
  { name: 'express-session: the session again', method: 'GET', path: '/session', fromPrevious: (a) => ({ cookie: String(a.headers['set-cookie']).split(';')[0]! }) },
  { name: 'a 201', method: 'POST', path: '/created' },
  { name: 'a streamed answer of declared length', method: 'GET', path: '/sized' },
];

interface Raw {
  status: number;
  statusText: string;
  headers: Record<string, string | string[]>;
  body: Buffer;
}

/** The headers that belong to the server under the app, not to the app (workerd's own Date and connection). */
const SERVER_HEADERS = new Set(['date', 'connection', 'keep-alive', 'transfer-encoding']);

/** What of an answer is compared: everything the app made; the session id (random per run) masked. */
function comparable(a: Raw, except: readonly string[] = []): object {
  const headers: Record<string, string | string[]> = {};
  for (const [name, value] of Object.entries(a.headers)) {
    if (SERVER_HEADERS.has(name) || except.includes(name)) continue;
    headers[name] = name === 'set-cookie' ? (value as string[]).map((v) => v.replace(/^connect\.sid=[^;]+/, 'connect.sid=(id)')) : value;
  }
  // workerd's zlib packs the same text into other (valid) bytes than node's: an encoded body is compared unpacked.
  const encoding = a.headers['content-encoding'];
  if (encoding !== undefined) {
    delete headers['content-encoding'];
    delete headers['content-length'];
  }
  const body = encoding === 'gzip' ? gunzipSync(a.body) : encoding === 'br' ? brotliDecompressSync(a.body) : a.body;
  return { status: a.status, statusText: a.statusText, headers, body: body.toString('latin1') };
}

/** Sends one case over HTTP to 127.0.0.1:port (at most 15 s), reading the answer raw. */
function send(port: number, c: Case, extra: Record<string, string>): Promise<Raw> {
  return new Promise((resolve, reject) => {
    const headers: Record<string, string> = { ...(c.headers as Record<string, string>), ...extra };
    if (c.body !== undefined) headers['content-length'] = String(Buffer.byteLength(c.body));
    const req = httpRequest({ host: '127.0.0.1', port, method: c.method, path: c.path, headers, timeout: 15_000 }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (d: Buffer) => chunks.push(d));
      res.on('end', () => {
        const out: Raw = { status: res.statusCode!, statusText: res.statusMessage!, headers: {}, body: Buffer.concat(chunks) };
        for (const [name, value] of Object.entries(res.headers)) if (value !== undefined) out.headers[name] = value;
        resolve(out);
      });
      res.on('error', reject);
    });
    req.on('timeout', () => req.destroy(new Error(`no answer to ${c.method} ${c.path} within 15 s`)));
    req.on('error', reject);
    req.end(c.body);
  });
}

type NodeApp = { fetch(r: Request, o: { remoteAddress: string }): Promise<Response> };

/** The same case through `app.fetch` on Node, in this process. */
async function fetchOnNode(app: NodeApp, c: Case, extra: Record<string, string>): Promise<Raw> {
  const headers: Record<string, string> = { host: '127.0.0.1', ...(c.headers as Record<string, string>), ...extra, 'accept-encoding': WORKER_ACCEPT };
  if (c.body !== undefined) headers['content-length'] = String(Buffer.byteLength(c.body));
  // The client is at 127.0.0.1, as the test's client is for workerd (which gives it as CF-Connecting-IP).
  const res = await app.fetch(new Request(`http://127.0.0.1${c.path}`, { method: c.method, headers, body: c.body ?? null }), { remoteAddress: '127.0.0.1' });
  const out: Raw = { status: res.status, statusText: res.statusText, headers: {}, body: Buffer.from(await res.arrayBuffer()) };
  res.headers.forEach((value, name) => {
    if (name !== 'set-cookie') out.headers[name] = value;
  });
  const cookies = res.headers.getSetCookie();
  if (cookies.length > 0) out.headers['set-cookie'] = cookies;
  return out;
}

/** Runs every case in order, each `fromPrevious` fed from the answer before. */
async function runCases(ask: (c: Case, extra: Record<string, string>) => Promise<Raw>): Promise<Raw[]> {
  const answers: Raw[] = [];
  for (const c of JOURNEY) {
    const extra = c.fromPrevious ? (c.fromPrevious(answers.at(-1) as never) as Record<string, string>) : {};
    answers.push(await ask(c, extra));
  }
  return answers;
}

/** The Worker's module: the conformance app with its wrapping middleware, on one entry. */
function workerSource(file: string): string {
  return `
import framework from ${JSON.stringify(join(DIST, file))};
import createApp from ${JSON.stringify(APP)};
const app = createApp(framework, undefined, { noFiles: true, wrapped: true });
export default { fetch: app.fetch };
`;
}

/** The app on Node, production as the Workers run it, logging nowhere. */
function nodeApp(file: string): NodeApp {
  const before = process.env.NODE_ENV;
  process.env.NODE_ENV = 'production';
  try {
    // eslint-disable-next-line @typescript-eslint/no-require-imports
    const framework = require(join(DIST, file)) as { default?: unknown };
    // eslint-disable-next-line @typescript-eslint/no-require-imports
    const createApp = require(APP) as (f: unknown, log: Writable, o: object) => NodeApp;
    const sink = new Writable({ write: (_c, _e, cb) => cb() });
    return createApp(framework.default ?? framework, sink, { noFiles: true, wrapped: true });
  } finally {
    if (before === undefined) delete process.env.NODE_ENV;
    else process.env.NODE_ENV = before;
  }
}

/** A port free on 127.0.0.1 now. */
function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.on('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address() as { port: number };
      server.close(() => resolve(port));
    });
  });
}

interface Dev {
  port: number;
  stop(): Promise<void>;
}

/**
 * `wrangler dev` of `dir`'s wrangler.jsonc on 127.0.0.1:port, as a user runs
 * it; resolves when it says it is ready and answers (at most 90 s: a busy
 * machine bundles slowly), failing with its output otherwise.
 */
async function wranglerDev(dir: string): Promise<Dev> {
  const port = await freePort();
  const inspector = await freePort();
  const child: ChildProcess = spawn(WRANGLER, ['dev', '--ip', '127.0.0.1', '--port', String(port), '--inspector-port', String(inspector), '--log-level', 'info'], {
    cwd: dir,
    // NODE_ENV unset, as in a user's shell: what wrangler then writes into the bundle is the point of the example's test.
    env: { ...process.env, NODE_ENV: undefined, WRANGLER_SEND_METRICS: 'false', WRANGLER_LOG_PATH: join(tmpdir(), 'trestle-wrangler-logs'), CI: '1', NO_COLOR: '1' },
    stdio: ['ignore', 'pipe', 'pipe'],
    detached: true,
  });
  let output = '';
  child.stdout!.on('data', (d: Buffer) => (output += d.toString()));
  child.stderr!.on('data', (d: Buffer) => (output += d.toString()));
  const stop = async (): Promise<void> => {
    if (child.exitCode !== null || child.signalCode !== null) return;
    const exited = new Promise<void>((r) => child.once('exit', () => r()));
    try {
      process.kill(-child.pid!, 'SIGTERM');
    } catch {
      return;
    }
    const timer = setTimeout(() => {
      try {
        process.kill(-child.pid!, 'SIGKILL');
      } catch {
        // already gone
      }
    }, 5000);
    await exited;
    clearTimeout(timer);
  };
  const deadline = Date.now() + 90_000;
  while (!/Ready on http:\/\/127\.0\.0\.1:\d+/.test(output)) {
    if (child.exitCode !== null) throw new Error(`wrangler dev exited (${child.exitCode}) before it was ready:\n${output}`);
    if (Date.now() > deadline) {
      await stop();
      throw new Error(`wrangler dev was not ready on 127.0.0.1:${port} within 90 s:\n${output}`);
    }
    await new Promise((r) => setTimeout(r, 100));
  }
  return { port, stop };
}

/** A Worker project in a temporary folder: its wrangler.jsonc and module. */
function project(main: string, config: object = {}): string {
  const dir = mkdtempSync(join(tmpdir(), 'trestle-wrangler-'));
  writeFileSync(join(dir, 'worker.mjs'), main);
  writeFileSync(
    join(dir, 'wrangler.jsonc'),
    JSON.stringify({ name: 'trestle-journey', main: 'worker.mjs', compatibility_date: COMPATIBILITY_DATE, compatibility_flags: ['nodejs_compat'], ...config }),
  );
  return dir;
}

const NODE_ENV_PRODUCTION = { define: { 'process.env.NODE_ENV': '"production"' }, vars: { NODE_ENV: 'production' } };

describe('Workers as on Node: the conformance app with express-session, compression and a res.end wrapper', { skip }, () => {
  for (const [entry, file] of Object.entries(ENTRIES)) {
    describe(entry === 'trestle' ? 'trestle' : `trestle/${entry}`, () => {
      let expected: Raw[];
      before(async () => {
        const app = nodeApp(file);
        expected = await runCases((c, extra) => fetchOnNode(app, c, extra));
      });

      test('under miniflare (workerd), every answer is app.fetch on Node, byte for byte', async () => {
        const mf = new Miniflare({
          modules: true,
          script: await bundleWorker(workerSource(file), __dirname),
          compatibilityDate: COMPATIBILITY_DATE,
          compatibilityFlags: ['nodejs_compat'],
          bindings: { NODE_ENV: 'production' },
          host: '127.0.0.1',
          port: await freePort(),
          handleRuntimeStdio(stdout: Readable, stderr: Readable) {
            stdout.resume();
            stderr.on('data', (d: Buffer) => (errors += d.toString()));
          },
        });
        let errors = '';
        try {
          const url = await mf.ready;
          const answers = await runCases((c, extra) => send(Number(url.port), c, extra).catch((err: Error) => {
            throw new Error(`${c.name}: ${err.message}; workerd said:\n${errors}`);
          }));
          JOURNEY.forEach((c, i) => assert.deepEqual(comparable(answers[i]!), comparable(expected[i]!), `${c.name}: ${c.method} ${c.path}`));
        } finally {
          await mf.dispose();
        }
      });

      test('under `wrangler dev`, every answer is app.fetch on Node, byte for byte', async () => {
        const dir = project(workerSource(file), NODE_ENV_PRODUCTION);
        const dev = await wranglerDev(dir);
        try {
          const answers = await runCases((c, extra) => send(dev.port, c, extra));
          // wrangler dev's local proxy sends every answer chunked, a plain Worker's `new Response('home')` too: its Content-Length is the proxy's to drop.
          JOURNEY.forEach((c, i) => assert.deepEqual(comparable(answers[i]!, ['content-length']), comparable(expected[i]!, ['content-length']), `${c.name}: ${c.method} ${c.path}`));
        } finally {
          await dev.stop();
          rmSync(dir, { recursive: true, force: true });
        }
      });
    });
  }
});

describe('examples/worker.mjs under `wrangler dev` with examples/wrangler.jsonc', { skip }, () => {
  test('serves production answers: compact JSON, no stack trace', async () => {
    const dev = await wranglerDev(join(ROOT, 'examples'));
    try {
      const book = await send(dev.port, { name: 'a book', method: 'GET', path: '/books/1' }, {});
      assert.equal(book.status, 200);
      assert.doesNotMatch(book.body.toString(), /\n/, 'JSON indented: the example Worker runs in development');
      const boom = await send(dev.port, { name: 'an error', method: 'GET', path: '/boom' }, {});
      assert.equal(boom.status, 500);
      assert.doesNotMatch(boom.body.toString(), /at .*\(|Error: /, 'a stack trace in the 500 page: the example Worker runs in development');
    } finally {
      await dev.stop();
    }
  });
});
