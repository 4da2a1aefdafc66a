// The upgrade report (issue 33): an Express 4 app on trestle/v4 run with
// TRESTLE_UPGRADE_REPORT in a child process, requests sent over real
// sockets, and the report it writes at exit read back. Each fixture marks
// the lines where a finding is expected (`// finding: <kind>`): the report
// must hold exactly those, at those lines, and nothing for the Express 5
// forms beside them. Also: several processes merged into one report, the
// `trestle upgrade-report` command, and the docs' anchors.
import assert from 'node:assert/strict';
import { type ChildProcess, spawn } from 'node:child_process';
import { mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { after, describe, test } from 'node:test';
import { KINDS } from 'trestle/upgrade';
import { rawRequest, serve } from './helpers';

const FIXTURES = join(__dirname, 'fixtures', 'upgrade');
const DIST = resolve(__dirname, '..', 'dist', 'upgrade');
const DOCS = resolve(__dirname, '..', '..', '..', 'docs', 'migrating-v4.md');

interface ReportFinding {
  kind: string;
  file: string;
  line: number;
  detail: string;
  express5: string;
  docs: string;
  count: number;
  dependency?: string;
  path?: { v4: string; suggestion: string; equivalent: boolean; methods: string[] };
}
interface Report {
  version: number;
  processes: number;
  findings: ReportFinding[];
}

const scratch = mkdtempSync(join(tmpdir(), 'trestle-upgrade-'));
after(() => rmSync(scratch, { recursive: true, force: true }));
let runs = 0;
function target(ext: string): string {
  return join(scratch, `run${++runs}`, `report.${ext}`);
}

/** `kind line` for each `// finding: kind` mark of a fixture. */
function marks(file: string): string[] {
  return readFileSync(file, 'utf8')
    .split('\n')
    .flatMap((text, i) => [...text.matchAll(/\/\/ finding: ([\w-]+)/g)].map((m) => `${m[1]} ${i + 1}`));
}

function placesIn(report: Report, file: string): string[] {
  return report.findings.filter((f) => f.file === file).map((f) => `${f.kind} ${f.line}`);
}

interface Child {
  child: ChildProcess;
  stderr: () => string;
  lines: AsyncIterator<string>;
  exited: Promise<number | null>;
}

function start(args: string[], env: Record<string, string>): Child {
  const child = spawn(process.execPath, args, { cwd: FIXTURES, env: { ...process.env, ...env }, stdio: ['pipe', 'pipe', 'pipe'] });
  let stderr = '';
  child.stderr!.on('data', (d: Buffer) => (stderr += d));
  const exited = new Promise<number | null>((done) => child.on('exit', (code) => done(code)));
  async function* lines(): AsyncGenerator<string> {
    let buffered = '';
    for await (const chunk of child.stdout!) {
      buffered += String(chunk);
      let at;
      while ((at = buffered.indexOf('\n')) !== -1) {
        yield buffered.slice(0, at);
        buffered = buffered.slice(at + 1);
      }
    }
  }
  return { child, stderr: () => stderr, lines: lines(), exited };
}

async function firstLine(c: Child): Promise<string> {
  const { value, done } = await c.lines.next();
  assert.equal(done, false, `the child printed nothing: ${c.stderr()}`);
  return value as string;
}

function readJson(file: string): Report {
  return JSON.parse(readFileSync(file, 'utf8')) as Report;
}

/** The fixture's requests: one per route, with the answers Express 4 gives (the report must change none). */
async function exercise(port: number): Promise<void> {
  const get = (path: string, headers = {}) => rawRequest(port, 'GET', path, headers);
  const expect = async (path: string, status: number, body?: string) => {
    const res = await get(path);
    assert.equal(res.status, status, path);
    if (body !== undefined) assert.equal(res.body, body, path);
  };
  await expect('/users/7', 200, '{"id":"7"}');
  await expect('/send-status-body', 201, 'made');
  await expect('/send-status', 404, 'Not Found');
  await expect('/json-status', 201, '{"a":1}');
  await expect('/jsonp-status', 202);
  await expect('/redirect-url-status', 301);
  await expect('/redirect-back', 302);
  await expect('/location-back', 200);
  await expect('/sendfile', 200);
  await expect('/clear-cookie', 200);
  await expect('/status', 201);
  await expect('/vary', 200);
  await expect('/param?x=1', 200, '1');
  await expect('/accepts', 200);
  await expect('/host', 200, '127.0.0.1');
  await expect('/query?a[b]=1', 200, '{"a":{"b":"1"}}');
  await expect('/assign?a=1', 200, '{"replaced":"1"}');
  await expect('/reject', 500, 'error handler: rejected on purpose');
  await expect('/api/v2/r', 200, 'r');
  await expect('/query-delete?page=2&q=a', 200, '{"q":"a","limit":"10","sort":"name"}');
  await expect('/query-members?x=1', 200, 'true');
  await expect('/query-members', 200, 'false');
  const typed = async (path: string, type: string) => assert.equal((await get(path)).headers['content-type'], type, path);
  await typed('/type-word', 'foobar');
  await typed('/type-js', 'application/javascript; charset=utf-8');
  await typed('/files/hello.txt', 'text/plain; charset=UTF-8');
  await typed('/files/hello.txt', 'text/plain; charset=UTF-8');
  await typed('/send-file', 'text/plain; charset=UTF-8');
  await typed('/download', 'text/plain; charset=UTF-8');
  const empty = await rawRequest(port, 'POST', '/body', { 'content-length': '0' }, '');
  assert.equal(empty.body, '{}');
  // The Express 5 forms.
  await expect('/ok/1?a=2', 201);
  await expect('/ok-redirect', 301);
  await expect('/ok-cookie', 204);
  await expect('/ok-query-members?x=1', 200, 'true');
  await typed('/ok-type', 'text/plain; charset=utf-8');
  await typed('/ok-send-file', 'text/plain; charset=utf-8');
  assert.equal((await rawRequest(port, 'DELETE', '/ok-gone')).status, 200);
  const body = await rawRequest(port, 'POST', '/ok-body', { 'content-type': 'application/json' }, '{"name":"x"}');
  assert.equal(body.body, '{"name":"x"}');
}

async function runKindsApp(report: string, env: Record<string, string> = {}): Promise<Child> {
  const app = start([join(FIXTURES, 'kinds-app.js')], { TRESTLE_UPGRADE_REPORT: report, ...env });
  const port = Number(await firstLine(app));
  await exercise(port);
  await rawRequest(port, 'GET', '/exit');
  assert.equal(await app.exited, 0, app.stderr());
  return app;
}

describe('the upgrade report over real requests', () => {
  const fixture = join(FIXTURES, 'kinds-app.js');

  test('every finding kind, at the line that made it, and nothing for the Express 5 forms', async () => {
    const file = target('json');
    await runKindsApp(file);
    const report = readJson(file);
    assert.equal(report.version, 1);
    assert.equal(report.processes, 1);
    assert.deepEqual(placesIn(report, fixture).sort(), marks(fixture).sort());
    assert.deepEqual(report.findings.filter((f) => f.file !== fixture), [], 'no finding outside the app');
    const covered = new Set(report.findings.map((f) => f.kind));
    for (const kind of Object.keys(KINDS)) assert.ok(covered.has(kind), `no ${kind} finding`);
    for (const f of report.findings) {
      assert.equal(f.docs, `migrating-v4.md#upgrade-${f.kind}`);
      assert.ok(f.express5.length > 0);
    }
  });

  test('each finding says what was done there and the Express 5 form for it', async () => {
    const file = target('json');
    await runKindsApp(file);
    const byKind = new Map(readJson(file).findings.map((f) => [f.kind, f]));
    assert.equal(byKind.get('send-status-body')!.detail, 'res.send(201, "made")');
    assert.equal(byKind.get('send-status-body')!.express5, 'res.status(201).send(body)');
    assert.equal(byKind.get('send-status')!.express5, 'res.sendStatus(404)');
    assert.equal(byKind.get('jsonp-status')!.express5, 'res.status(202).jsonp(obj)');
    assert.equal(byKind.get('redirect-url-status')!.express5, 'res.redirect(301, "/there")');
    assert.equal(byKind.get('accepts-singular')!.express5, 'req.acceptsLanguages()');
    assert.match(byKind.get('host-port')!.detail, /"127\.0\.0\.1:\d+" on Express 5/);
    assert.equal(byKind.get('query-parser')!.detail, '?a[b]=1: v4 reads {"a":{"b":"1"}}, Express 5 {"a[b]":"1"}');
    assert.match(byKind.get('promise-rejected')!.detail, /Error: rejected on purpose/);
    const route = byKind.get('route-path')!.path!;
    assert.deepEqual([route.v4, route.suggestion, route.equivalent, route.methods], ['/users/:id?', "'/users{/:id}'", true, ['GET']]);
    assert.equal(byKind.get('mount-path')!.express5, "'/api{/:v}'");
    const all = readJson(file).findings;
    const details = (kind: string) => all.filter((f) => f.kind === kind).map((f) => [f.detail, f.express5]).sort();
    assert.deepEqual(details('query-prototype'), [['req.query.hasOwnProperty("x")', 'Object.hasOwn(req.query, "x")']]);
    assert.equal(byKind.get('query-prototype')!.count, 2, 'with and without a query string');
    assert.deepEqual(details('content-type-word'), [
      ['res.set("Content-Type", "foobar"): "foobar" here, false on Express 5 (no file extension of that name: res.send then sends its own type)', `res.setHeader('Content-Type', "foobar")`],
      ['res.type("js"): "application/javascript; charset=utf-8" here, "text/javascript; charset=utf-8" on Express 5', `res.set('Content-Type', "application/javascript; charset=utf-8")`],
    ]);
    const files = all.filter((f) => f.kind === 'file-content-type').map((f) => [f.detail, f.count]).sort();
    const txt = 'sent hello.txt: "text/plain; charset=UTF-8" here, "text/plain; charset=utf-8" on Express 5';
    assert.deepEqual(files, [[`express.static() ${txt}`, 2], [`res.download() ${txt}`, 1], [`res.sendFile() ${txt}`, 1]]);
  });

  test('Markdown: grouped by file, each finding with its Express 5 form and a link to the guide', async () => {
    const file = target('md');
    await runKindsApp(file);
    const md = readFileSync(file, 'utf8');
    assert.match(md, /^# Express 5 upgrade report\n/);
    assert.equal(md.match(/^## `.*kinds-app\.js`$/gm)?.length, 1, 'one heading for the file');
    assert.match(md, /- \*\*line \d+\*\* `res\.send\(201, "made"\)`: .*\n {2}Express 5: `res\.status\(201\)\.send\(body\)` · \[guide\]\([^)]*migrating-v4\.md#upgrade-send-status-body\)/);
    assert.match(md, /route path `\/users\/:id\?` \(GET\): Express 5 rejects it/);
    assert.match(md, /\| \[res\.send\(status, body\)\]\([^)]*#upgrade-send-status-body\) \| 1 \|/);
    assert.doesNotMatch(md, /ok-redirect|\/ok\//);
  });

  test('the Content-Types the findings give for Express 4 and Express 5 are what the real Express 4 and 5 send', async () => {
    const file = target('json');
    await runKindsApp(file);
    const found = readJson(file).findings.filter((f) => f.kind === 'content-type-word' || f.kind === 'file-content-type');
    // Each finding's call, made again on the real packages (res.end: what the header itself says, before res.send picks a type).
    const PATHS: [string, string][] = [
      ['res.set("Content-Type", "foobar")', '/type-word'], ['res.type("js")', '/type-js'],
      ['express.static()', '/files/hello.txt'], ['res.sendFile()', '/send-file'], ['res.download()', '/download'],
    ];
    const hello = join(FIXTURES, 'hello.txt');
    const typesOn = async (name: 'express4' | 'express5') => {
      const express = require(name) as typeof import('express');
      const app = express();
      app.use('/files', express.static(FIXTURES));
      app.get('/type-word', (_req, res) => res.set('Content-Type', 'foobar').end('x'));
      app.get('/type-js', (_req, res) => res.type('js').end('x'));
      app.get('/send-file', (_req, res) => res.sendFile(hello));
      app.get('/download', (_req, res) => res.download(hello));
      const served = await serve(app);
      try {
        const out = new Map<string, string | undefined>();
        for (const [, path] of PATHS) out.set(path, (await rawRequest(served.port, 'GET', path)).headers['content-type']);
        return out;
      } finally {
        await served.close();
      }
    };
    const [v4, v5] = [await typesOn('express4'), await typesOn('express5')];
    assert.equal(found.length, PATHS.length);
    for (const f of found) {
      const path = PATHS.find(([call]) => f.detail.startsWith(call))![1];
      const [, here, there] = / "([^"]*)" here, ("[^"]*"|false)/.exec(f.detail)!;
      assert.equal(v4.get(path), here, `Express 4, ${f.detail}`);
      assert.equal(v5.get(path), there === 'false' ? 'false' : JSON.parse(there!), `Express 5, ${f.detail}`);
    }
  });

  test("Express 4's deprecation warnings name the same places with the report on as off: the app's lines, not the report's wrapper", async () => {
    // depd writes `<date> trestle deprecated <message> at <file:line:col>`, the file relative to the working directory.
    const warnings = (app: Child) => [...app.stderr().matchAll(/ deprecated (.*) at (\S+)$/gm)].map((m) => `${m[1]} at ${m[2]}`);
    const off = warnings(await runKindsApp('', { NO_DEPRECATION: '' }));
    const on = warnings(await runKindsApp(target('json'), { NO_DEPRECATION: '' }));
    assert.deepEqual(on, off);
    const sendLine = marks(fixture).find((m) => m.startsWith('send-status-body '))!.split(' ')[1];
    assert.ok(on.some((w) => w.startsWith('res.send(status, body)') && w.includes(` at kinds-app.js:${sendLine}:`)), on.join('\n'));
    assert.ok(on.every((w) => !w.includes('upgrade')), on.join('\n'));
  });

  test('a place in a dependency is named with its package (listed apart for body-empty); a middleware further down the stack is not the place of what trestle reads', async () => {
    const modules = join(scratch, 'deps', 'node_modules');
    const pkg = (name: string, code: string) => {
      mkdirSync(join(modules, name), { recursive: true });
      writeFileSync(join(modules, name, 'index.js'), code);
      return join(modules, name, 'index.js');
    };
    const passThrough = pkg('pass-through', 'module.exports = function passThrough(req, res, next) {\n  next();\n};\n');
    const readsBody = pkg('reads-body', 'module.exports = function readsBody(req, res, next) {\n  req.seen = Object.keys(req.body).length;\n  next();\n};\n');
    const file = target('json');
    const app = start([join(FIXTURES, 'dependency-app.js')], { TRESTLE_UPGRADE_REPORT: file, PASS_THROUGH: passThrough, READS_BODY: readsBody });
    const port = Number(await firstLine(app));
    assert.equal((await rawRequest(port, 'GET', '/')).body, 'ok');
    await rawRequest(port, 'GET', '/exit');
    assert.equal(await app.exited, 0, app.stderr());
    // A read inside a dependency is not the app's finding: listed apart, with its package.
    const report = readJson(file) as Report & { noChange: Array<ReportFinding & { noChange: string }> };
    assert.deepEqual(report.findings, []);
    const places = report.noChange.map((f) => [f.kind, f.file, f.line, f.dependency, f.noChange]);
    assert.deepEqual(places, [['body-empty', readsBody, 2, 'reads-body', "read inside the dependency reads-body, not the app's code"]]);
  });

  test('an app that uses no changed form gets a report saying so', async () => {
    const file = target('md');
    const app = start(['-e', "const e = require('trestle/v4'); const a = e(); a.get('/x/:id', (q, s) => s.json(q.params)); a.handle({ method: 'GET', url: '/x/1', headers: {} }, { setHeader() {}, end() {} }, () => {});"], { TRESTLE_UPGRADE_REPORT: file });
    assert.equal(await app.exited, 0, app.stderr());
    assert.match(readFileSync(file, 'utf8'), /^No finding: nothing this app did on trestle\/v4 behaves differently on Express 5/m);
  });
});

describe('several processes, one report', () => {
  const fixture = join(FIXTURES, 'worker.js');
  const roles = ['del', 'param', 'optional', 'none'];

  async function workers(file: string): Promise<Child[]> {
    const list = roles.map((role) => start([fixture, role], { TRESTLE_UPGRADE_REPORT: file }));
    for (const w of list) assert.equal(await firstLine(w), 'ready', w.stderr());
    return list;
  }

  function checkMerged(file: string): void {
    const report = readJson(file);
    assert.equal(report.processes, 4);
    assert.deepEqual(placesIn(report, fixture).sort(), marks(fixture).sort());
    const shared = report.findings.find((f) => f.path?.v4 === '/shared/*');
    assert.equal(shared?.count, 4, 'the route every worker registered, counted in each');
    assert.equal(readdirSync(`${file}.d`).filter((n) => n.endsWith('.json')).length, 4);
  }

  for (const [name, order] of [['first to last', [0, 1, 2, 3]], ['last to first', [3, 2, 1, 0]], ['interleaved', [2, 0, 3, 1]]] as const) {
    test(`workers exiting one by one, ${name}: the report holds all of them`, async () => {
      const file = target('json');
      const list = await workers(file);
      for (const i of order) {
        list[i]!.child.stdin!.end('exit\n');
        assert.equal(await list[i]!.exited, 0, list[i]!.stderr());
      }
      checkMerged(file);
    });
  }

  test('a worker killed by its runner (no exit handler runs) has written its places', async () => {
    const file = target('json');
    const list = await workers(file);
    list[0]!.child.kill('SIGKILL');
    assert.equal(await list[0]!.exited, null);
    for (const w of list.slice(1)) {
      w.child.stdin!.end('exit\n');
      assert.equal(await w.exited, 0, w.stderr());
    }
    checkMerged(file);
  });

  test('workers exiting all at once: the report holds all of them', async () => {
    const file = target('json');
    const list = await workers(file);
    for (const w of list) w.child.stdin!.end('exit\n');
    for (const w of list) assert.equal(await w.exited, 0, w.stderr());
    checkMerged(file);
  });
});

describe('trestle upgrade-report (the command)', () => {
  const fixture = join(FIXTURES, 'cli-app.js');
  const cli = join(DIST, 'cli.js');

  async function command(args: string[]): Promise<{ code: number | null; stdout: string; stderr: string }> {
    const c = start([cli, ...args], {});
    let stdout = '';
    for await (const line of { [Symbol.asyncIterator]: () => c.lines }) stdout += `${line}\n`;
    return { code: await c.exited, stdout, stderr: c.stderr() };
  }

  test('--json: the paths and forms the app registered while loading, with require("express") on trestle/v4 and no server bound', async () => {
    const { code, stdout, stderr } = await command(['upgrade-report', fixture, '--json']);
    assert.equal(code, 0, stderr);
    const report = JSON.parse(stdout) as Report;
    assert.deepEqual(placesIn(report, fixture).sort(), marks(fixture).sort());
    const byPath = new Map(report.findings.filter((f) => f.path).map((f) => [f.path!.v4, f.path!]));
    assert.equal(byPath.get('/*')!.suggestion, "'/{*path}'");
    assert.equal(byPath.get('/:id(\\d+)')!.suggestion, String(/^(?:\/(?<id>\d+))\/?$/i));
    assert.match(stderr, /the app printing while it loads/, "the app's output goes to stderr");
  });

  test('--out report.md writes Markdown there', async () => {
    const file = target('md');
    const { code, stdout, stderr } = await command(['upgrade-report', fixture, '--out', file]);
    assert.equal(code, 0, stderr);
    assert.equal(stdout, '');
    const md = readFileSync(file, 'utf8');
    assert.match(md, /route path `\/\*` \(GET\): Express 5 rejects it/);
    assert.match(md, /`app\.del\("\/old"\)`/);
  });

  test('usage: no module is an error (exit 2), --help is not', async () => {
    const bad = await command(['upgrade-report']);
    assert.equal(bad.code, 2);
    assert.match(bad.stderr, /no app module given/);
    const help = await command(['--help']);
    assert.equal(help.code, 0);
    assert.match(help.stdout, /Usage: trestle upgrade-report/);
  });

  test('--call: a module exporting the function that makes the app; a rejection after loading does not stop the report', async () => {
    const fixture = join(FIXTURES, 'factory-app.js');
    const without = await command(['upgrade-report', fixture, '--json']);
    assert.equal(without.code, 0, without.stderr);
    assert.deepEqual((JSON.parse(without.stdout) as Report).findings, [], 'not called: nothing registered');
    const { code, stdout, stderr } = await command(['upgrade-report', fixture, '--json', '--call']);
    assert.equal(code, 0, stderr);
    assert.deepEqual(placesIn(JSON.parse(stdout) as Report, fixture), marks(fixture));
    assert.match(stderr, /failed after loading \(ignored\)[^]*no database here/);
  });

  test('-- passes the app its arguments: process.argv is [node, the module, ...them]', async () => {
    const fixture = join(FIXTURES, 'argv-app.js');
    const { code, stdout, stderr } = await command(['upgrade-report', fixture, '--json', '--', '-f', '/u/:id?']);
    assert.equal(code, 0, stderr);
    assert.match(stderr, new RegExp(`^${JSON.stringify([fixture, '-f', '/u/:id?']).replace(/[[\]?/.*]/g, '\\$&')}$`, 'm'));
    const report = JSON.parse(stdout) as Report;
    assert.deepEqual(placesIn(report, fixture).sort(), marks(fixture).sort());
    assert.equal(report.findings.find((f) => f.kind === 'route-path')!.path!.suggestion, "'/u{/:id}'");
  });

  test('an app that calls process.exit() while loading: exit 3, and the report of what it registered before, on stdout or in --out', async () => {
    const fixture = join(FIXTURES, 'argv-app.js');
    const printed = await command(['upgrade-report', fixture, '--json']);
    assert.equal(printed.code, 3);
    assert.match(printed.stderr, /usage: argv-app\.js[^]*called process\.exit\(4\) before the report was written/);
    const before = marks(fixture).filter((m) => m.startsWith('app-del '));
    assert.deepEqual(placesIn(JSON.parse(printed.stdout) as Report, fixture), before);
    const file = target('md');
    const written = await command(['upgrade-report', fixture, '--out', file]);
    assert.equal(written.code, 3);
    assert.equal(written.stdout, '');
    assert.match(readFileSync(file, 'utf8'), /`app\.del\("\/registered-first"\)`/);
  });

  test('an app that throws while loading: exit 1, and the report of what it registered before', async () => {
    const file = target('json');
    const fixture = join(FIXTURES, 'throws-app.js');
    const { code, stderr } = await command(['upgrade-report', fixture, '--out', file]);
    assert.equal(code, 1);
    assert.match(stderr, /threw while loading[^]*no database here/);
    assert.deepEqual(placesIn(readJson(file), fixture), marks(fixture));
  });
});

describe('trestle/upgrade/register', () => {
  test('an ES module importing express runs on trestle/v4 with the report on', async () => {
    const file = target('json');
    const fixture = join(FIXTURES, 'esm-app.mjs');
    const app = start(['--require', join(DIST, 'register.js'), fixture], { TRESTLE_UPGRADE_REPORT: file });
    assert.equal(await firstLine(app), '200');
    assert.equal(await app.exited, 0, app.stderr());
    assert.deepEqual(placesIn(readJson(file), fixture), marks(fixture));
  });

  test('without the variable, requiring trestle/v4 loads nothing of the report', async () => {
    const c = start(['-e', "require('trestle/v4'); console.log(Object.keys(require.cache).filter((f) => /[\\\\/]dist[\\\\/]upgrade[\\\\/]/.test(f)).length)"], {});
    assert.equal(await firstLine(c), '0');
  });
});

test('docs/migrating-v4.md has an entry for every finding kind', () => {
  const page = readFileSync(DOCS, 'utf8');
  for (const kind of Object.keys(KINDS)) assert.match(page, new RegExp(`<a id="upgrade-${kind}"></a>`), kind);
});
