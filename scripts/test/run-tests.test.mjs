// The test runner itself (scripts/run-tests.mjs): a file that does not finish
// in its time fails the run, named with the test it was in, and the files
// around it still run and count. The fixtures are named *.fixture.mjs so that
// the runner's own collection of test files never picks them up.
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { describe, test } from 'node:test';
import { fileURLToPath } from 'node:url';

const runner = fileURLToPath(new URL('../run-tests.mjs', import.meta.url));
const fixture = (name) => fileURLToPath(new URL(`./fixtures/${name}.fixture.mjs`, import.meta.url));

/** The runner over `files`, with a 3 s deadline per file (the fixtures that finish take well under a second). */
function run(...files) {
  const { NODE_TEST_CONTEXT, ...env } = process.env;
  const result = spawnSync(process.execPath, [runner, '--file-timeout=3000', '--concurrency=2', ...files], {
    encoding: 'utf8', env, timeout: 60_000,
  });
  assert.equal(result.error, undefined);
  return { status: result.status, stdout: result.stdout, summary: result.stdout.trim().split('\n').at(-1) };
}

describe('scripts/run-tests.mjs', () => {
  test('a file that passes: exit code 0 and the summary line', () => {
    const { status, summary } = run(fixture('passes'));
    assert.equal(summary, '1 passed, 0 failed, 1 skipped');
    assert.equal(status, 0);
  });

  test('--exclude=PATH: the files under PATH are not run (CI leaves out the other runtimes after its first Node)', () => {
    const { status, stdout, summary } = run(`--exclude=${fixture('hangs')}`, fixture('hangs'), fixture('passes'));
    assert.doesNotMatch(stdout, /hangs/);
    assert.equal(summary, '1 passed, 0 failed, 1 skipped');
    assert.equal(status, 0);
  });

  test('a test that never settles: the file fails, named with the test, and the other file still counts', () => {
    const { status, stdout, summary } = run(fixture('hangs'), fixture('passes'));
    assert.match(stdout, /✗ \S*hangs\.fixture\.mjs did not finish within 3 s, while running "a suite › never settles"/);
    // 'passes first' and the other file's test passed; the timeout is the one failure.
    assert.equal(summary, '2 passed, 1 failed, 1 skipped');
    assert.equal(status, 1);
  });

  test('a failed test that leaves a server open: its failure and the timeout both count', () => {
    const { status, stdout, summary } = run(fixture('leaves-open'));
    assert.match(stdout, /✗ \S*leaves-open\.fixture\.mjs did not finish within 3 s, after its last test "fails with a server open" finished/);
    assert.equal(summary, '0 passed, 2 failed, 0 skipped');
    assert.equal(status, 1);
  });
});
