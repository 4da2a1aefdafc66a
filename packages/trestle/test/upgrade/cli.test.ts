// `trestle upgrade-report` (issue 41): the command replaces no global. The
// app runs in a child process whose stdout is the command's stderr, so
// whatever the app prints, by any means, stays out of the report on stdout.
import assert from 'node:assert/strict';
import { join } from 'node:path';
import { test } from 'node:test';
import { command, FIXTURES } from './command';

test("what the app prints (console, process.stdout, fd 1, a child inheriting stdout) goes to stderr; stdout holds only the report", async () => {
  const app = join(FIXTURES, 'stdout-app.js');
  const { code, stdout, stderr } = await command(['upgrade-report', app, '--json']);
  assert.equal(code, 0, stderr);
  const report = JSON.parse(stdout) as { findings: Array<{ kind: string; file: string; line: number }>; loadedBy: Array<{ argv: string[] }> };
  assert.deepEqual(report.findings.map((f) => `${f.kind} ${f.file}:${f.line}`), [`route-path ${app}:12`]);
  for (const line of ['printed by console.log', 'printed to fd 1', 'printed by a child', 'process.stdout.write is the stream’s own']) {
    assert.ok(stderr.includes(line), `"${line}" not on stderr: ${stderr}`);
  }
  assert.deepEqual(report.loadedBy.map((p) => p.argv), [[app]], 'the process that loaded the app');
});

test('Markdown on stdout is the report alone, with the app printing', async () => {
  const { code, stdout, stderr } = await command(['upgrade-report', join(FIXTURES, 'stdout-app.js')]);
  assert.equal(code, 0, stderr);
  assert.match(stdout, /^# Express 5 upgrade report\n/);
  assert.doesNotMatch(stdout, /printed/);
});
