// Bun and Deno: the conformance subset (app.cjs, cases.ts) and the example
// app, served by the built dist on each runtime, both through `app.listen()`
// (the runtime's node:http) and through its own server with `app.fetch`
// (Bun.serve, Deno.serve), for the three entries; each answer compared with
// the same app's on Node over a socket (status, headers of COMPARED, body),
// and logline's lines with Node's (one per request). CI runs this file once,
// on its first Node (.ci/run).
import assert from 'node:assert/strict';
import { utimesSync } from 'node:fs';
import { join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import { CASES, comparable, type Case } from './cases';
import { ROOT, bun, deno, missing, node, request, start, type Answer, type Runtime, type Started } from './spawn';

const SERVE = join(__dirname, 'serve.cjs');
const ENTRIES = ['trestle', 'v4', 'legacy'] as const;
const HOWS = ['listen', 'native'] as const;

/** The answers to every case, in order, and the log lines they made. */
async function run(server: Started, cases: Case[]): Promise<{ answers: Answer[]; lines: string[] }> {
  const answers: Answer[] = [];
  for (const c of cases) {
    const headers = { ...c.headers, ...c.fromPrevious?.(answers[answers.length - 1]!) };
    answers.push(await request(server.port, c.method, c.path, headers, c.body));
  }
  return { answers, lines: await server.logLines(cases.length) };
}

async function served<T>(runtime: Runtime, args: string[], use: (server: Started) => Promise<T>): Promise<T> {
  const server = await start(runtime, SERVE, args);
  try {
    return await use(server);
  } finally {
    await server.stop();
  }
}

const onNode = new Map<string, { answers: Answer[]; lines: string[] }>();

before(async () => {
  // A file's mtime below the millisecond is rounded by node's fs.Stats#mtime, cut by Bun's and Deno's: a
  // whole second keeps the ETag (size and mtime) the same on all three (docs/deploy.md says so).
  const second = new Date(Math.floor(Date.now() / 1000) * 1000);
  utimesSync(join(__dirname, 'public', 'hello.txt'), second, second);
  for (const entry of ENTRIES) onNode.set(entry, await served(node, [entry, 'listen'], (server) => run(server, CASES)));
});

for (const runtime of [bun, deno]) {
  describe(`${runtime.name}: the conformance subset as on Node`, { skip: missing(runtime) }, () => {
    for (const entry of ENTRIES) {
      for (const how of HOWS) {
        const label = how === 'listen' ? 'app.listen()' : `${runtime.name}.serve({ fetch: app.fetch })`;
        test(`${entry === 'trestle' ? 'trestle' : `trestle/${entry}`} through ${label}`, async () => {
          const expected = onNode.get(entry)!;
          const { answers, lines } = await served(runtime, [entry, how], (server) => run(server, CASES));
          CASES.forEach((c, i) => assert.deepEqual(comparable(answers[i]!), comparable(expected.answers[i]!), `${c.name}: ${c.method} ${c.path}`));
          assert.deepEqual(lines, expected.lines, 'logline: one line per request, as on Node');
        });
      }
    }
  });
}

describe('the example app (examples/app.js) on each runtime', () => {
  const paths = ['/', '/books', '/books/1', '/books/1/title', '/books/99', '/boom'];
  let expected: Answer[];
  before(async () => {
    expected = await served(node, ['example', 'listen'], (server) => Promise.all(paths.map((p) => request(server.port, 'GET', p))));
  });
  for (const runtime of [bun, deno]) {
    for (const how of HOWS) {
      test(`${runtime.name}, ${how === 'listen' ? 'app.listen()' : 'app.fetch'}`, { skip: missing(runtime) }, async () => {
        const answers = await served(runtime, ['example', how], (server) => Promise.all(paths.map((p) => request(server.port, 'GET', p))));
        paths.forEach((p, i) => assert.deepEqual(comparable(answers[i]!), comparable(expected[i]!), `GET ${p}`));
        assert.equal(answers[2]!.status, 200);
      });
    }
  }
});

describe('examples/bun.js and examples/deno.mjs: the example app on the runtime\'s own server', () => {
  const examples: [Runtime, string][] = [
    [bun, 'bun.js'],
    [{ ...deno, args: ['run', '--quiet', '--allow-net', '--allow-env', '--allow-read', '--allow-sys'] }, 'deno.mjs'],
  ];
  for (const [runtime, file] of examples) {
    test(`examples/${file} answers as the example app on Node`, { skip: missing(runtime) }, async () => {
      const paths = ['/books/1', '/books/99', '/boom'];
      const expected = await served(node, ['example', 'listen'], (server) => Promise.all(paths.map((p) => request(server.port, 'GET', p))));
      const server = await start(runtime, join(ROOT, 'examples', file), [], { PORT: '0' });
      try {
        const answers = await Promise.all(paths.map((p) => request(server.port, 'GET', p)));
        paths.forEach((p, i) => assert.deepEqual(comparable(answers[i]!), comparable(expected[i]!), `GET ${p}`));
        assert.deepEqual(JSON.parse(answers[0]!.body), { id: '1', title: 'The Left Hand of Darkness', author: 'Ursula K. Le Guin' });
      } finally {
        await server.stop();
      }
    });
  }
});

after(() => onNode.clear());
