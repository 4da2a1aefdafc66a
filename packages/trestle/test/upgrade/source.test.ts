// The source pass (issue 42): the app's own files read with a real parser,
// listing the places no run reached, apart from what was seen running and
// marked as found in the source. Through the command (no test run at all)
// and at the end of a run under trestle/upgrade/register; JavaScript and
// TypeScript; guarded reads and Express 5 forms are not listed; the parser
// is loaded only when the report is written.
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { after, test } from 'node:test';
import { command } from './command';

const APP_DIR = join(__dirname, '..', 'fixtures', 'upgrade', 'source-app');
const REGISTER = resolve(__dirname, '..', '..', 'dist', 'upgrade', 'register.js');
const scratch = mkdtempSync(join(tmpdir(), 'trestle-upgrade-source-'));
after(() => rmSync(scratch, { recursive: true, force: true }));

interface Place {
  kind: string;
  file: string;
  line: number;
  source?: boolean;
}
interface Report {
  findings: Place[];
  fromSource: Place[];
}

/** `kind file:line` for each `// <mark>: kind` of the fixture's files. */
function marks(mark: string): string[] {
  return ['app.js', 'routes.ts'].flatMap((name) =>
    readFileSync(join(APP_DIR, name), 'utf8')
      .split('\n')
      .flatMap((text, i) => [...text.matchAll(new RegExp(`// ${mark}: ([\\w-]+)`, 'g'))].map((m) => `${m[1]} ${join(APP_DIR, name)}:${i + 1}`)),
  ).sort();
}

const places = (list: Place[]) => list.map((f) => `${f.kind} ${f.file}:${f.line}`).sort();

test('the command: what loading registered as findings, the places no run reached as found in the source (JS and TS)', async () => {
  const { code, stdout, stderr } = await command(['upgrade-report', './app.js', '--json'], APP_DIR);
  assert.equal(code, 0, stderr);
  const report = JSON.parse(stdout) as Report;
  assert.deepEqual(places(report.findings), marks('finding'));
  assert.deepEqual(places(report.fromSource), marks('source'), 'exactly the marked places: no guarded read, no Express 5 form, nothing seen running again');
  assert.ok(report.fromSource.every((f) => f.source === true));
});

test('Markdown: the source findings in their own section, after what was seen running', async () => {
  const { stdout } = await command(['upgrade-report', './app.js'], APP_DIR);
  const [running, source] = stdout.split('## Found in the source, not seen running');
  assert.ok(source !== undefined, stdout);
  assert.match(running!, /route path `\/users\/:id\?`/);
  assert.doesNotMatch(running!, /delete req\.query\.page/);
  assert.match(source, /### `routes\.ts`\n\n- \*\*line 5\*\* route path `\/files\/\*` \(GET\)/);
  assert.match(source, /`delete req\.query\.page`/);
});

test('a run under trestle/upgrade/register: the run\'s first process adds the source pass; the parser is loaded only then', async () => {
  const report = join(scratch, 'report.json');
  const code = `const app = require('./app.js'); console.log(Object.keys(require.cache).some((f) => f.includes('@babel')) ? 'parser loaded' : 'no parser')`;
  const child = spawn(process.execPath, ['-e', code], {
    cwd: APP_DIR,
    env: { ...process.env, TRESTLE_UPGRADE_REPORT: report, NODE_OPTIONS: `--require ${REGISTER}`, TRESTLE_UPGRADE_RUN: '' },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let out = '';
  child.stdout.on('data', (d: Buffer) => (out += d));
  child.stderr.on('data', (d: Buffer) => (out += d));
  const exit = await new Promise<number | null>((done, fail) => {
    const timer = setTimeout(() => fail(new Error(`the run did not exit within 30 s: ${out}`)), 30_000);
    child.on('exit', (c) => {
      clearTimeout(timer);
      done(c);
    });
  });
  assert.equal(exit, 0, out);
  assert.match(out, /^no parser$/m, 'the app ran without the parser loaded');
  const json = JSON.parse(readFileSync(report, 'utf8')) as Report;
  assert.deepEqual(places(json.findings), marks('finding'));
  assert.deepEqual(places(json.fromSource), marks('source'));
});

test('TRESTLE_UPGRADE_SOURCE=0: no source pass', async () => {
  process.env.TRESTLE_UPGRADE_SOURCE = '0';
  try {
    const { stdout } = await command(['upgrade-report', './app.js', '--json'], APP_DIR);
    assert.deepEqual((JSON.parse(stdout) as Report).fromSource, []);
  } finally {
    delete process.env.TRESTLE_UPGRADE_SOURCE;
  }
});
