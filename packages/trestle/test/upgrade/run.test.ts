// A run with the report on is never silent (issue 42): the report is
// written whatever happened, names the processes that loaded trestle/v4,
// and a run in which none did says so loudly, on stderr and in the report
// (the case of a test runner whose own module loader never asks Node for
// `express`). Each run is a real process tree under trestle/upgrade/register.
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { after, test } from 'node:test';

const REGISTER = resolve(__dirname, '..', '..', 'dist', 'upgrade', 'register.js');
const scratch = mkdtempSync(join(tmpdir(), 'trestle-upgrade-run-'));
after(() => rmSync(scratch, { recursive: true, force: true }));

/** `node -e code` with NODE_OPTIONS="--require register" and the report at `report`; its exit code and stderr (bounded: 30 s). */
function run(code: string, report: string): Promise<{ code: number | null; stderr: string }> {
  const env: NodeJS.ProcessEnv = { ...process.env, TRESTLE_UPGRADE_REPORT: report, NODE_OPTIONS: `--require ${REGISTER}` };
  delete env.TRESTLE_UPGRADE_RUN;
  const child = spawn(process.execPath, ['-e', code], { cwd: scratch, env, stdio: ['ignore', 'ignore', 'pipe'] });
  let stderr = '';
  child.stderr.on('data', (d: Buffer) => (stderr += d));
  return new Promise((done, fail) => {
    const timer = setTimeout(() => {
      child.kill('SIGKILL');
      fail(new Error(`the run did not exit within 30 s: ${stderr}`));
    }, 30_000);
    child.on('exit', (exit) => {
      clearTimeout(timer);
      done({ code: exit, stderr });
    });
  });
}

// A child that loads express (so trestle/v4) and registers one path Express 5 rejects, as a test runner's worker would.
const workerFile = join(scratch, 'worker.js');
writeFileSync(workerFile, "require('express')().get('/a/:b?', () => {});\n");
const WORKER = `require('node:child_process').execFileSync(process.execPath, [${JSON.stringify(workerFile)}], { stdio: 'inherit' })`;

test('no process loads trestle/v4: stderr and the report say so loudly', async () => {
  const report = join(scratch, 'none', 'report.md');
  const { code, stderr } = await run("require('node:http')", report);
  assert.equal(code, 0, stderr);
  assert.match(stderr, /trestle upgrade report: NO PROCESS LOADED trestle\/v4: nothing was checked/);
  assert.match(readFileSync(report, 'utf8'), /\*\*NO PROCESS LOADED trestle\/v4: nothing was checked/);
});

test('a worker loads trestle/v4: the report names it and its finding, and nothing is shouted', async () => {
  const report = join(scratch, 'worker', 'report.json');
  const { code, stderr } = await run(WORKER, report);
  assert.equal(code, 0, stderr);
  assert.doesNotMatch(stderr, /NO PROCESS LOADED/);
  const json = JSON.parse(readFileSync(report, 'utf8')) as { loadedBy: Array<{ argv: string[] }>; findings: Array<{ kind: string }> };
  assert.equal(json.loadedBy.length, 1, 'the worker, not the run\'s first process');
  assert.deepEqual(json.findings.map((f) => f.kind), ['route-path']);
});

test('zero findings: the report is written, says "No finding" and which process loaded trestle/v4', async () => {
  const report = join(scratch, 'clean', 'report.md');
  const { code, stderr } = await run("require('express')().get('/a/:b', () => {})", report);
  assert.equal(code, 0, stderr);
  assert.doesNotMatch(stderr, /NO PROCESS LOADED/);
  const md = readFileSync(report, 'utf8');
  assert.match(md, /^No finding: /m);
  assert.match(md, /Loaded trestle\/v4 with the report on: 1 process\.\n\n- pid \d+: `node -e/);
});

test("another run's records in the same file do not hide a run that loaded nothing", async () => {
  const report = join(scratch, 'reused', 'report.md');
  assert.equal((await run(WORKER, report)).code, 0);
  const { stderr } = await run("require('node:http')", report);
  assert.match(stderr, /NO PROCESS LOADED trestle\/v4/);
});
