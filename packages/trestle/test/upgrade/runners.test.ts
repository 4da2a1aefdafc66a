// Every common runner (issue 42): the recipes of docs/migrating-v4.md
// ("Recipes per runner") run on a small real app (test/fixtures/upgrade/
// runners-app) under the real node:test, Mocha, Jest and Vitest, installed
// from the registry with express@4, and the app run by itself. Each recipe's
// report holds the app's two findings and names the process that loaded
// trestle/v4. Without their mapping, Jest and Vitest run the tests on the
// real Express 4: the run must then say loudly that nothing was checked.
import assert from 'node:assert/strict';
import { execFileSync, spawn } from 'node:child_process';
import { cpSync, mkdtempSync, readFileSync, rmSync, symlinkSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { after, before, test } from 'node:test';

const PACKAGE = resolve(__dirname, '..', '..');
const REGISTER = join(PACKAGE, 'dist', 'upgrade', 'register.js');
const project = mkdtempSync(join(tmpdir(), 'trestle-runners-'));
after(() => rmSync(project, { recursive: true, force: true }));

before(() => {
  cpSync(join(__dirname, '..', 'fixtures', 'upgrade', 'runners-app'), project, { recursive: true });
  execFileSync('npm', ['init', '-y'], { cwd: project, stdio: 'ignore', timeout: 60_000 });
  // What a user of each runner has; about 20 s.
  execFileSync('npm', ['install', '--no-fund', '--no-audit', '--loglevel=error', 'express@4', 'mocha@11', 'jest@30', 'vitest@3'], { cwd: project, stdio: 'inherit', timeout: 300_000 });
  // trestle as a dependency of the project (after the install, which would remove it).
  symlinkSync(PACKAGE, join(project, 'node_modules', 'trestle'), 'dir');
});

let runs = 0;

/** Runs `args` in the project with the report on through NODE_OPTIONS; exit code, stderr and the report (bounded: 120 s). */
function run(args: string[]): Promise<{ code: number | null; stderr: string; report: string }> {
  const report = join(project, `report-${++runs}.md`);
  const env: NodeJS.ProcessEnv = { ...process.env, TRESTLE_UPGRADE_REPORT: report, NODE_OPTIONS: `--require ${REGISTER}`, CI: '1' };
  delete env.TRESTLE_UPGRADE_RUN;
  delete env.NODE_TEST_CONTEXT;
  const child = spawn(args[0]!, args.slice(1), { cwd: project, env, stdio: ['ignore', 'pipe', 'pipe'] });
  let output = '';
  child.stdout.on('data', (d: Buffer) => (output += d));
  child.stderr.on('data', (d: Buffer) => (output += d));
  return new Promise((done, fail) => {
    const timer = setTimeout(() => {
      child.kill('SIGKILL');
      fail(new Error(`${args.join(' ')} did not exit within 120 s: ${output}`));
    }, 120_000);
    child.on('exit', (code) => {
      clearTimeout(timer);
      let text = '';
      try {
        text = readFileSync(report, 'utf8');
      } catch {
        // No report: the assertions say so.
      }
      done({ code, stderr: output, report: text });
    });
  });
}

const bin = (name: string) => join(project, 'node_modules', '.bin', name);

/** The run passed its test on trestle/v4 and its report holds the app's two findings at `file`'s line 3. */
function assertReported(result: { code: number | null; stderr: string; report: string }, file: string): void {
  assert.equal(result.code, 0, result.stderr);
  assert.doesNotMatch(result.stderr, /NO PROCESS LOADED/);
  assert.match(result.report, /Loaded trestle\/v4 with the report on: \d+ process/, result.report || 'no report written');
  assert.match(result.report, new RegExp(`## \`${file.replace('.', '\\.')}\`\\n\\n- \\*\\*line 3\\*\\* route path \`/users/:id\\?\``), result.report);
  assert.match(result.report, /- \*\*line 3\*\* `res\.send\(201, "user 7"\)`/);
}

test('the app by itself: node --require trestle/upgrade/register', async () => {
  const result = await run([process.execPath, 'alone.cjs']);
  assert.match(result.stderr, /^201 user 7$/m);
  assertReported(result, 'app.cjs');
});

test('node:test: NODE_OPTIONS="--require trestle/upgrade/register" node --test', async () => {
  assertReported(await run([process.execPath, '--test', 'test/app.node.test.js']), 'app.cjs');
});

test('Mocha: NODE_OPTIONS="--require trestle/upgrade/register" mocha', async () => {
  assertReported(await run([bin('mocha'), 'test/app.mocha.test.js']), 'app.cjs');
});

test("Jest: without the mapping the run says nothing was checked; with the guide's moduleNameMapper, the findings", async () => {
  const plain = await run([bin('jest'), '--testMatch', '**/*.jest.test.js']);
  assert.equal(plain.code, 0, `the test passes on the real Express 4: ${plain.stderr}`);
  assert.match(plain.stderr, /NO PROCESS LOADED trestle\/v4/);
  assert.match(plain.report, /\*\*NO PROCESS LOADED trestle\/v4/);
  assertReported(await run([bin('jest'), '-c', 'jest.upgrade.config.js']), 'app.cjs');
});

test("Vitest: without the alias the run says nothing was checked; with the guide's resolve.alias, the findings", async () => {
  const plain = await run([bin('vitest'), 'run', 'test/app.vitest.test.mjs']);
  assert.equal(plain.code, 0, `the test passes on the real Express 4: ${plain.stderr}`);
  assert.match(plain.stderr, /NO PROCESS LOADED trestle\/v4/);
  assertReported(await run([bin('vitest'), 'run', '--config', 'vitest.upgrade.config.mjs', 'test/app.vitest.test.mjs']), 'app.mjs');
});
