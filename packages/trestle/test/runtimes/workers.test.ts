// Cloudflare Workers: the conformance app (app.cjs) bundled as a Worker
// (`export default { fetch: app.fetch }`, `nodejs_compat`) for each entry,
// run by workerd through miniflare, its answers compared with the same app's
// on Node over a socket, and logline's lines read from workerd's stdout (the
// Worker's console). What a Worker cannot do (files from disk, a server
// socket) answers with TRESTLE_ERR_PLATFORM_UNSUPPORTED. CI runs this file
// once, on its first Node (.ci/run).
import assert from 'node:assert/strict';
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import type { Readable } from 'node:stream';
import { after, before, describe, test } from 'node:test';
import { Miniflare } from 'miniflare';
import { CASES, comparable } from './cases';
import { BIN, ROOT, node, request, start, type Answer } from './spawn';
import { COMPATIBILITY_DATE, bundleWorker } from './worker';

const DIST = join(__dirname, '..', '..', 'dist');
const ENTRIES = { trestle: 'index.js', v4: 'v4.js', legacy: 'legacy.js' } as const;
/**
 * Files from disk are not the Worker's (the static cases), nor are views read
 * from it; and miniflare's client sends its own Host (127.0.0.1), so no case
 * sets one.
 */
const WORKER_CASES = CASES.filter((c) => !c.files && c.path !== '/view').map(({ headers, ...c }) => {
  const { host, ...rest } = headers ?? {};
  return { ...c, headers: rest };
});
/**
 * Content-Length does not come through miniflare's dispatchFetch (a fetch
 * from Node); test/journeys/workers.test.ts reads workerd over HTTP and
 * compares it there.
 */
const NOT_COMPARED = ['content-length'];

const skip = existsSync(join(BIN, 'workerd')) || process.env.CI === 'true' ? undefined : 'workerd is not installed (npm ci brings it)';

function workerSource(file: string): string {
  return `
import framework from ${JSON.stringify(join(DIST, file))};
import createApp from ${JSON.stringify(join(__dirname, 'app.cjs'))};

const app = createApp(framework, undefined, { noFiles: true });
// What a Worker cannot do, each tried in a handler: the error's code and message.
const tries = {
  static: () => framework.static('/public'),
  sendFile: (res) => res.sendFile('/etc/hosts'),
  download: (res) => res.download('/etc/hosts'),
  listen: () => app.listen(8080),
  render: (res) => res.render('page', { title: 'x', items: [] }),
};
app.get('/platform/:what', (req, res) => {
  try {
    tries[req.params.what](res);
    if (!res.headersSent) res.json({ refused: false });
  } catch (err) {
    res.status(501).json({ name: err.name, code: err.code, message: err.message });
  }
});
app.get('/env', (req, res) => res.json({ greeting: req.cloudflare.env.GREETING, hasCtx: typeof req.cloudflare.ctx.waitUntil }));
export default { fetch: app.fetch };
`;
}

/** A Worker of `source` under workerd, its stdout lines collected. */
async function worker(source: string): Promise<{ mf: Miniflare; lines: string[] }> {
  const lines: string[] = [];
  let pending = '';
  let errors = '';
  const mf = new Miniflare({
    modules: true,
    script: source,
    compatibilityDate: COMPATIBILITY_DATE,
    compatibilityFlags: ['nodejs_compat'],
    // With nodejs_compat, a Worker's vars are its process.env: production, as the Node reference runs.
    bindings: { GREETING: 'hello from env', NODE_ENV: 'production' },
    handleRuntimeStdio(stdout: Readable, stderr: Readable) {
      stdout.on('data', (chunk: Buffer) => {
        const parts = (pending + chunk.toString()).split('\n');
        pending = parts.pop()!;
        lines.push(...parts);
      });
      stderr.on('data', (chunk: Buffer) => (errors += chunk.toString()));
    },
  });
  try {
    await mf.ready;
  } catch (err) {
    await mf.dispose().catch(() => undefined);
    throw new Error(`workerd did not start: ${(err as Error).message}\n${errors}`);
  }
  return { mf, lines };
}

async function answer(mf: Miniflare, method: string, path: string, headers: Record<string, string> = {}, body?: string): Promise<Answer> {
  const res = await mf.dispatchFetch(`http://127.0.0.1${path}`, { method, headers, body: body ?? null, redirect: 'manual' });
  const out: Answer = { status: res.status, headers: {}, body: await res.text() };
  for (const [name, value] of res.headers) {
    // Several Set-Cookie stay several, as node's client gives them.
    if (name === 'set-cookie') out.headers['set-cookie'] = res.headers.getSetCookie();
    else out.headers[name] = value;
  }
  return out;
}

/** Waits until `count` logline lines came out of the Worker (at most 10 s): logline's default stream, process.stdout. */
async function logLines(lines: string[], count: number): Promise<string[]> {
  const deadline = Date.now() + 10_000;
  // workerd writes a Worker's process.stdout to its log, each line marked `stdout: `.
  const logged = () => lines.filter((l) => l.startsWith('stdout: ')).map((l) => l.slice(8));
  while (logged().length < count && Date.now() < deadline) await new Promise((r) => setTimeout(r, 20));
  return logged();
}

describe('examples/worker.mjs: the example app as a Worker', { skip }, () => {
  test('answers as the example app on Node', async () => {
    const paths = ['/books/1', '/books/99', '/boom'];
    const server = await start(node, join(__dirname, 'serve.cjs'), ['example', 'listen']);
    let expected: Answer[];
    try {
      expected = await Promise.all(paths.map((p) => request(server.port, 'GET', p)));
    } finally {
      await server.stop();
    }
    const { mf } = await worker(await bundleWorker(`export { default } from ${JSON.stringify(join(ROOT, 'examples', 'worker.mjs'))};`, __dirname));
    try {
      for (const [i, p] of paths.entries()) assert.deepEqual(comparable(await answer(mf, 'GET', p), NOT_COMPARED), comparable(expected[i]!, NOT_COMPARED), `GET ${p}`);
    } finally {
      await mf.dispose();
    }
  });
});

describe('Cloudflare Workers (workerd through miniflare)', { skip }, () => {
  for (const [entry, file] of Object.entries(ENTRIES)) {
    describe(entry === 'trestle' ? 'trestle' : `trestle/${entry}`, () => {
      let mf: Miniflare;
      let lines: string[];
      const expected: Answer[] = [];
      let expectedLines: string[];
      before(async () => {
        const server = await start(node, join(__dirname, 'serve.cjs'), [entry, 'listen']);
        try {
          for (const c of WORKER_CASES) expected.push(await request(server.port, c.method, c.path, c.headers, c.body));
          expectedLines = await server.logLines(WORKER_CASES.length);
        } finally {
          await server.stop();
        }
        ({ mf, lines } = await worker(await bundleWorker(workerSource(file), __dirname)));
      });
      after(() => mf?.dispose());

      test('the conformance subset as on Node, and one logline line per request on the console', async () => {
        const answers: Answer[] = [];
        for (const c of WORKER_CASES) answers.push(await answer(mf, c.method, c.path, c.headers as Record<string, string>, c.body));
        WORKER_CASES.forEach((c, i) => assert.deepEqual(comparable(answers[i]!, NOT_COMPARED), comparable(expected[i]!, NOT_COMPARED), `${c.name}: ${c.method} ${c.path}`));
        assert.deepEqual(await logLines(lines, WORKER_CASES.length), expectedLines);
      });

      test('files from disk and app.listen() are refused, naming the platform', async () => {
        for (const [what, call] of [['static', 'trestle.static()'], ['sendFile', 'res.sendFile()'], ['download', 'res.download()'], ['listen', 'app.listen()'], ['render', 'res.render()']]) {
          const res = await answer(mf, 'GET', `/platform/${what}`);
          assert.equal(res.status, 501);
          const body = JSON.parse(res.body) as { name: string; code: string; message: string };
          assert.equal(body.code, 'TRESTLE_ERR_PLATFORM_UNSUPPORTED', what);
          assert.equal(body.name, 'Error');
          assert.match(body.message, new RegExp(`^${call.replace(/[.()]/g, '\\$&')} is not supported on Cloudflare Workers: `));
        }
      });

      test("who the client is: the bridge's socket gives CF-Connecting-IP as req.ip, X-Forwarded-Proto https as req.secure", async () => {
        const res = await answer(mf, 'GET', '/ip', { 'cf-connecting-ip': '198.51.100.4', 'x-forwarded-proto': 'https' });
        assert.deepEqual(JSON.parse(res.body), { ip: '198.51.100.4', protocol: 'https', hostname: '127.0.0.1', httpVersion: '1.1' });
      });

      test("req.cloudflare holds the Worker's env and ctx", async () => {
        const res = await answer(mf, 'GET', '/env');
        assert.deepEqual(JSON.parse(res.body), { greeting: 'hello from env', hasCtx: 'function' });
      });
    });
  }
});
