// The `query-member` finding (issue 42): an app that deletes, sets or
// Object.assigns members of req.query. Run over real HTTP in child processes
// on the real express@4, the real express@5 (where the changes are lost),
// express@5 with the report's Express 5 form applied (the changes kept again),
// and trestle/v4 with the report on (answers as Express 4, each line found).
import assert from 'node:assert/strict';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, test } from 'node:test';
import { rawRequest } from '../helpers';
import { withApp } from './fixture-app';

const APP = join(__dirname, '..', 'fixtures', 'upgrade', 'query-member-app.js');
const scratch = mkdtempSync(join(tmpdir(), 'trestle-query-member-'));
after(() => rmSync(scratch, { recursive: true, force: true }));

/** Runs the app on `express`, sends GET `path`, stops it; the body and the app's stderr. */
async function run(express: string, path: string, env: Record<string, string> = {}): Promise<string> {
  return withApp(APP, express, env, async (port, stderr) => {
    const res = await rawRequest(port, 'GET', path);
    assert.equal(res.status, 200, `${express} ${path}: ${res.body} ${stderr()}`);
    return res.body;
  });
}

const KEPT = '{"q":"a","limit":"10","sort":"name"}';

test('on the real express@5 the changes to req.query are lost; the report\'s form keeps them', async () => {
  assert.equal(await run('express4', '/list?page=2&q=a'), KEPT);
  const lost = await run('express5', '/list?page=2&q=a');
  assert.notEqual(lost, KEPT, 'express@5 kept the changes: the finding would be false');
  assert.equal(JSON.parse(lost).page, '2');
  assert.equal(await run('express5', '/list?page=2&q=a', { FIX: '1' }), KEPT);
});

test('trestle/v4 with the report: answers as Express 4, each changing line found, a changed copy not', async () => {
  const report = join(scratch, 'report.json');
  assert.equal(await run('trestle/v4', '/list?page=2&q=a', { TRESTLE_UPGRADE_REPORT: report }), KEPT);
  assert.equal(await run('trestle/v4', '/copy?page=2&q=a', { TRESTLE_UPGRADE_REPORT: report }), '{"q":"a"}');
  const { findings } = JSON.parse(readFileSync(report, 'utf8')) as { findings: Array<{ kind: string; file: string; line: number }> };
  const marked = readFileSync(APP, 'utf8').split('\n').flatMap((l, i) => (l.includes('// finding: query-member') ? [i + 1] : []));
  const found = findings.filter((f) => f.kind === 'query-member' && f.file === APP).map((f) => f.line);
  assert.deepEqual(found.sort((a, b) => a - b), marked);
  assert.equal(findings.filter((f) => f.kind === 'query-member').length, 3, JSON.stringify(findings));
});
