// Runs every test file of the workspace with node:test; .ts files load through tsx.
// Usage: node scripts/run-tests.mjs [dir-or-file ...]  (default: packages/*/test)
import { spawnSync } from 'node:child_process';
import { readdirSync, statSync } from 'node:fs';
import { join } from 'node:path';

function collect(path, out) {
  if (statSync(path).isDirectory()) {
    for (const name of readdirSync(path).sort()) collect(join(path, name), out);
  } else if (/\.test\.(ts|mts|cts|js|mjs|cjs)$/.test(path)) {
    out.push(path);
  }
  return out;
}

const roots = process.argv.slice(2);
if (roots.length === 0) {
  for (const pkg of readdirSync('packages').sort()) {
    try { statSync(join('packages', pkg, 'test')); roots.push(join('packages', pkg, 'test')); } catch {}
  }
}
const files = roots.flatMap((root) => collect(root, []));
if (files.length === 0) {
  console.error('no test files found under', roots.join(', '));
  process.exit(1);
}
// The usual report (spec on a terminal, TAP elsewhere) and, last, a short summary.
const reporters = [
  '--test-reporter', process.stdout.isTTY ? 'spec' : 'tap', '--test-reporter-destination', 'stdout',
  '--test-reporter', new URL('./summary-reporter.mjs', import.meta.url).pathname, '--test-reporter-destination', 'stdout',
];
// Tests that exercise deprecated forms would print node's warnings for them:
// --no-warnings stops the printing in the test processes (they still see the
// 'warning' events they assert on). depd's own lines ('trestle deprecated ...')
// are asserted on stderr by some tests, so they stay, and the summary says so.
// A test that hangs fails after a minute instead of holding CI until its deadline.
// NO_COLOR is a reader's wish for their terminal; the logger tests assert
// colours with and without it themselves, so the one they inherit is dropped.
const { NO_COLOR, ...inherited } = process.env;
const result = spawnSync(process.execPath, ['--no-warnings', '--import', 'tsx', '--test', '--test-timeout=60000', ...reporters, ...files], {
  stdio: 'inherit',
  env: { ...inherited, NODE_ENV: process.env.NODE_ENV ?? 'test' },
});
process.exit(result.status ?? 1);
