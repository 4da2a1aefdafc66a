// `body-empty` (issue 42): a finding only where the code would change. The
// fixture's routes are run over real HTTP (POST without a body) on the real
// express@4 and express@5 (the marked findings answer 500 on Express 5, the
// reads marked no-change answer as on Express 4), then on trestle/v4 with
// the report on: exactly the marked findings, and every no-change read
// listed apart with why, never among the findings.
import assert from 'node:assert/strict';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, test } from 'node:test';
import { rawRequest } from '../helpers';
import { withApp } from './fixture-app';

const APP = join(__dirname, '..', 'fixtures', 'upgrade', 'body-app.js');
const ROUTES = ['/plain', '/keys', '/or', '/nullish', '/optional', '/typeof', '/not', '/and', '/destructure'];
const BREAKS = ['/plain', '/keys'];
const scratch = mkdtempSync(join(tmpdir(), 'trestle-body-empty-'));
after(() => rmSync(scratch, { recursive: true, force: true }));

/** Runs the app on `express`, POSTs each route without a body, stops it: status and body per route. */
async function answers(express: string, env: Record<string, string> = {}): Promise<Record<string, string>> {
  return withApp(APP, express, env, async (port) => {
    const out: Record<string, string> = {};
    for (const route of ROUTES) {
      const res = await rawRequest(port, 'POST', route, { 'content-length': '0' }, '');
      out[route] = `${res.status} ${res.body}`;
    }
    return out;
  });
}

function marked(kind: 'finding' | 'no-change'): number[] {
  return readFileSync(APP, 'utf8')
    .split('\n')
    .flatMap((l, i) => (l.includes(`// ${kind}: body-empty`) ? [i + 1] : []));
}

test('on the real express@5 only the marked reads break; the guarded ones answer as on express@4', async () => {
  const v4 = await answers('express4');
  const v5 = await answers('express5');
  for (const route of ROUTES) {
    assert.equal(v4[route]!.split(' ')[0], '200', `express@4 ${route}: ${v4[route]}`);
    if (BREAKS.includes(route)) assert.equal(v5[route], '500 {"error":"TypeError"}', `express@5 ${route} should break`);
    else assert.equal(v5[route], v4[route], `express@5 ${route} answers as express@4`);
  }
});

test('trestle/v4 with the report: the breaking reads are findings, the guarded ones listed apart with why', async () => {
  const file = join(scratch, 'report.json');
  const v4 = await answers('express4');
  assert.deepEqual(await answers('trestle/v4', { TRESTLE_UPGRADE_REPORT: file }), v4, 'the report changes no answer');
  const report = JSON.parse(readFileSync(file, 'utf8')) as { findings: Array<{ kind: string; file: string; line: number }>; noChange: Array<{ kind: string; file: string; line: number; noChange: string }> };
  const lines = (list: Array<{ kind: string; file: string; line: number }>) => list.filter((f) => f.kind === 'body-empty' && f.file === APP).map((f) => f.line).filter((l, i, all) => all.indexOf(l) === i).sort((a, b) => a - b);
  assert.deepEqual(lines(report.findings), marked('finding'));
  assert.deepEqual(lines(report.noChange), marked('no-change'));
  for (const f of report.noChange) assert.ok(f.noChange.length > 0, `line ${f.line} says why`);
  const md = join(scratch, 'report.md');
  await answers('trestle/v4', { TRESTLE_UPGRADE_REPORT: md });
  const text = readFileSync(md, 'utf8');
  const [findings, apart] = text.split('## No change expected');
  assert.ok(apart !== undefined, 'a "No change expected" section');
  const guarded = marked('no-change')[0]!;
  assert.match(apart, new RegExp(`body-app\\.js:${guarded}\` req\\.body read where a body parser read no body: a default`));
  assert.doesNotMatch(findings!, new RegExp(`line ${guarded}\\b`), 'a guarded read is not among the findings');
  assert.match(findings!, new RegExp(`line ${marked('finding')[0]}\\*\\*`), 'a breaking read is');
});
