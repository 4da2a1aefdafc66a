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
import { spawnSync } from 'node:child_process';
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
  /** What `trestle upgrade-report` is given: the module, and after `--` the app's own arguments. */
  command: string[];
  /** The app exits while loading without the arguments after `--` (the command then exits with 3). */
  needsArgs?: boolean;
}

const EXPECTED: Record<string, Expected> = {
  'express-generator': {
    findings: [
      // Once 'body-empty node_modules/morgan/index.js:144': the report's own read of req.body between
      // express.json() and express.urlencoded(), put on morgan's next() below it on the stack.
      // express.static('public'): style.css is text/css; charset=UTF-8 on Express 4, utf-8 on Express 5 (its tests do not care).
      'file-content-type app.js:20',
    ],
    command: ['./app.js'],
  },
  apimocker: {
    findings: [
      // res.set('Content-Type', 'foobar'): Express 5 looks the word up as an extension (once missed).
      'content-type-word lib/apimocker.js:388',
      // res.sendFile of a .json mock: charset=UTF-8 on Express 4, utf-8 on Express 5 (once missed).
      'file-content-type lib/apimocker.js:398',
    ],
    command: ['./bin/apimocker.js'],
  },
  drakov: {
    findings: [
      // express.static of its --public folder: things.txt is text/plain; charset=UTF-8 on Express 4 (once missed).
      'file-content-type lib/middleware/static.js:17',
      'query-parser lib/handler-filter.js:28',
      // reqQueryParams.hasOwnProperty(param): a TypeError on Express 5, whose req.query has no prototype (once missed).
      'query-prototype lib/query-comparator.js:25',
    ],
    // Its command line needs -f (it exits without it); the glob is drakov's own. It reads the files
    // and adds their routes after loading, which the command may or may not see: none is a finding.
    command: ['./drakov', '--', '-f', 'test/example/md/*.md'],
    needsArgs: true,
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
      const upgradeReport = (args: string[]) => spawnSync(process.execPath, [cli, 'upgrade-report', ...args], {
        cwd: dir, encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'], env: { ...process.env, NODE_OPTIONS: '' }, timeout: 120_000,
      });
      const [module, ...rest] = expected.command;
      const run = upgradeReport([module!, '--json', ...rest]);
      assert.equal(run.status, 0, run.stderr);
      assert.deepEqual((JSON.parse(run.stdout) as { findings: unknown[] }).findings, []);
      if (expected.needsArgs) {
        const bare = upgradeReport([module!, '--json']);
        assert.equal(bare.status, 3, `${spec.name} without its arguments: ${bare.stderr}`);
        assert.deepEqual((JSON.parse(bare.stdout) as { findings: unknown[] }).findings, []);
      }
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
