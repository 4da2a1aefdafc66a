// The report's links resolve from a user's project (issue 40): the guide
// ships inside trestle's tarball (docs/migrating-v4.md) and the Markdown
// links it by a path relative to the report. Tested on the real tarball
// (`npm pack`), unpacked as node_modules/trestle of a project elsewhere,
// with a finding of every kind: each link's file exists and holds the anchor.
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { after, test } from 'node:test';

const PACKAGE = resolve(__dirname, '..', '..');
const scratch = mkdtempSync(join(tmpdir(), 'trestle-upgrade-links-'));
after(() => rmSync(scratch, { recursive: true, force: true }));

type ReportModule = typeof import('../../src/upgrade/report');
type KindsModule = typeof import('../../src/upgrade/kinds');

/** A report with one finding of every kind (a report with none loaded too), rendered by `root`'s built report module into `dir`. */
function renderAll(root: string, dir: string): string[] {
  const { buildReport, renderMarkdown } = require(join(root, 'dist', 'upgrade', 'report.js')) as ReportModule;
  const { KINDS } = require(join(root, 'dist', 'upgrade', 'kinds.js')) as KindsModule;
  const findings = Object.keys(KINDS).map((kind, i) => ({ kind: kind as keyof typeof KINDS, file: join(dir, 'app.js'), line: i + 1, column: 1, detail: kind, count: 1 }));
  const full = renderMarkdown(buildReport(findings, 1, [{ pid: 1, argv: ['app.js'] }]), dir);
  const none = renderMarkdown(buildReport([], 0, []), dir);
  return [full, none];
}

/** Each link of `markdown` that is not a URL: its file (from `dir`) must exist and hold its anchor. */
function checkLinks(markdown: string, dir: string): number {
  const links = [...markdown.matchAll(/\]\(([^)\s]+)\)/g)].map((m) => m[1]!);
  assert.ok(links.length > 0, 'the report has links');
  for (const link of links) {
    const [file, anchor] = link.split('#') as [string, string | undefined];
    const target = resolve(dir, file);
    assert.ok(existsSync(target), `${link}: ${target} does not exist`);
    if (anchor !== undefined) assert.ok(readFileSync(target, 'utf8').includes(`<a id="${anchor}"></a>`), `${link}: no anchor ${anchor} in ${target}`);
  }
  return links.length;
}

test('from the installed tarball: every link of a report resolves to the guide shipped in node_modules/trestle', () => {
  const root = resolve(PACKAGE, '..', '..');
  execFileSync(process.execPath, [join(root, 'scripts', 'package-docs.mjs')]);
  const packed = JSON.parse(execFileSync('npm', ['pack', '--ignore-scripts', '--json', '--pack-destination', scratch, '--loglevel=error'], { cwd: PACKAGE, encoding: 'utf8', timeout: 120_000 })) as Array<{ filename: string; files: Array<{ path: string }> }>;
  assert.ok(packed[0]!.files.some((f) => f.path === 'docs/migrating-v4.md'), 'docs/migrating-v4.md is in the tarball');
  const installed = join(scratch, 'project', 'node_modules', 'trestle');
  mkdirSync(installed, { recursive: true });
  execFileSync('tar', ['-xzf', join(scratch, packed[0]!.filename), '-C', installed, '--strip-components=1'], { timeout: 60_000 });
  assert.ok(!existsSync(join(installed, 'src')), 'the tarball ships no src/: the installed layout');
  for (const dir of [join(scratch, 'project'), join(scratch, 'project', 'reports', 'deep')]) {
    mkdirSync(dir, { recursive: true });
    for (const md of renderAll(installed, dir)) {
      assert.match(md, /node_modules\/trestle\/docs\/migrating-v4\.md#upgrade-/);
      checkLinks(md, dir);
    }
  }
});

test("from trestle's checkout: the links resolve to the repository's docs/migrating-v4.md", () => {
  const dir = join(scratch, 'elsewhere');
  mkdirSync(dir, { recursive: true });
  for (const md of renderAll(PACKAGE, dir)) {
    assert.ok(checkLinks(md, dir) >= 1);
    assert.match(md, /\.\.\/.*docs\/migrating-v4\.md#upgrade-/);
    assert.doesNotMatch(md, /packages\/trestle\/docs\//, 'not the copy made for the tarball');
  }
  assert.equal(dirname(resolve(dir, 'x')), dir);
});
