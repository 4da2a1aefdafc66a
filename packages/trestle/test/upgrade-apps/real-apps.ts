// The upgrade report proved on three real Express 4 apps (apps.ts): each is
// installed from the npm registry at its pinned version, its own tests pass
// on its own Express 4 and on trestle/v4 with TRESTLE_UPGRADE_REPORT set,
// and the report holds exactly the findings written below; `trestle
// upgrade-report` loads the app; then, with `<name>.patch` (the findings and
// what the report missed, applied by hand) its tests pass on trestle and on
// the real Express 5, and without the patch they fail on Express 5.
// Installing and running the apps takes a minute or two: `npm test` runs
// this file once (`npm run test:upgrade-apps`), on the Node CI runs first,
// which is why it is not named *.test.ts.
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, relative } from 'node:path';
import { after, before, describe, test } from 'node:test';
import { APPS, apimockerSetMock, type AppSpec, type ExpressName, installed, patched, patchFile, runTests } from './apps';

const cli = join(__dirname, '..', '..', 'dist', 'upgrade', 'cli.js');
const reports = mkdtempSync(join(tmpdir(), 'trestle-upgrade-apps-report-'));
after(() => rmSync(reports, { recursive: true, force: true }));

interface Expected {
  /** What the report says over the app's own test run, as `kind file:line` (file relative to the app). */
  findings: string[];
  /** The module `trestle upgrade-report` loads. */
  command: string;
}

const EXPECTED: Record<string, Expected> = {
  'express-generator': {
    // Once 'body-empty node_modules/morgan/index.js:144': the report's own read of req.body between
    // express.json() and express.urlencoded(), put on morgan's next() below it on the stack.
    findings: [],
    command: './app.js',
  },
  apimocker: {
    // What it must change is no kind the report knows (see docs/migrating-v4.md, "Three real apps").
    findings: [],
    command: './bin/apimocker.js',
  },
  drakov: {
    findings: ['query-parser lib/handler-filter.js:28'],
    command: './lib/drakov.js',
  },
};

function tail(output: string): string {
  return output.split('\n').slice(-40).join('\n');
}

async function passes(spec: AppSpec, dir: string, express: ExpressName, report?: string): Promise<void> {
  const run = await runTests(spec, dir, express, report);
  assert.equal(run.code, 0, `${spec.name}'s tests on ${express} in ${dir}:\n${tail(run.output)}`);
}

interface ReportFinding { kind: string; file: string; line: number }

function findingsOf(reportFile: string, dir: string): string[] {
  const report = JSON.parse(readFileSync(reportFile, 'utf8')) as { findings: ReportFinding[] };
  return report.findings.map((f) => `${f.kind} ${relative(dir, f.file)}:${f.line}`).sort();
}

for (const spec of Object.values(APPS)) {
  const expected = EXPECTED[spec.name]!;
  describe(`${spec.name}@${spec.version}`, { timeout: 900_000 }, () => {
    let dir = '';
    before(() => {
      dir = installed(spec);
    });

    test('its tests pass on its own Express 4, and on trestle/v4 with the report on, which finds what is listed', async () => {
      await passes(spec, dir, 'own');
      const reportFile = join(reports, `${spec.name}.json`);
      await passes(spec, dir, 'trestle/v4', reportFile);
      assert.deepEqual(findingsOf(reportFile, dir), [...expected.findings].sort());
    });

    test('trestle upgrade-report loads the app and finds nothing in its routes', () => {
      const out = execFileSync(process.execPath, [cli, 'upgrade-report', expected.command, '--json'], {
        cwd: dir, encoding: 'utf8', stdio: ['ignore', 'pipe', 'ignore'], env: { ...process.env, NODE_OPTIONS: '' },
      });
      assert.deepEqual((JSON.parse(out) as { findings: unknown[] }).findings, []);
    });

    if (spec.name === 'apimocker') {
      test('the branch its tests miss: req.param() in GET /admin/setMock, reported when run, answered on Express 5 once patched', async () => {
        const reportFile = join(reports, 'apimocker-setmock.json');
        const v4 = await runTests(spec, dir, 'trestle/v4', reportFile, apimockerSetMock);
        assert.match(v4.output, /^status 200 /m, v4.output);
        const lines = [184, 185, 186, 187, 188, 189].map((line) => `req-param lib/apimocker.js:${line}`);
        assert.deepEqual(findingsOf(reportFile, dir), lines);
        const before = await runTests(spec, dir, 'express5', undefined, apimockerSetMock);
        assert.match(before.output, /^status 500 /m, before.output);
        const fixed = patched(spec);
        for (const express of ['trestle', 'express5'] as const) {
          const after = await runTests(spec, fixed, express, undefined, apimockerSetMock);
          assert.match(after.output, /^status 200 \{"verb":"get","serviceUrl":"added","mockFile":"king.json"\}/m, `${express}: ${after.output}`);
        }
      });
    }

    if (existsSync(patchFile(spec))) {
      test('as published, its tests fail on Express 5', async () => {
        const run = await runTests(spec, dir, 'express5');
        assert.notEqual(run.code, 0, `${spec.name}'s tests passed on Express 5 without its patch`);
      });

      test('with its patch, its tests pass on trestle and on Express 5', async () => {
        const fixed = patched(spec);
        await passes(spec, fixed, 'trestle');
        await passes(spec, fixed, 'express5');
      });
    } else {
      test('unchanged, its tests pass on trestle and on Express 5', async () => {
        await passes(spec, dir, 'trestle');
        await passes(spec, dir, 'express5');
      });
    }
  });
}
