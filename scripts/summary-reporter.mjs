// The closing summary of a test run: how many tests ran, passed, failed and
// were skipped, and how long the run took. run-tests.mjs counts the events of
// every file's process with a Tally and prints its lines last; the default
// export is the same summary as a node:test reporter, for a plain `node --test`.

export class Tally {
  counts = { tests: 0, passed: 0, failed: 0, skipped: 0 };
  failures = [];

  /** One node:test event; only test:pass and test:fail of tests (not suites) count. */
  add(event) {
    if (event.type !== 'test:pass' && event.type !== 'test:fail') return;
    if (event.data.details?.type === 'suite') return;
    this.counts.tests++;
    if (event.data.skip || event.data.todo) this.counts.skipped++;
    else if (event.type === 'test:pass') this.counts.passed++;
    else this.fail(`${event.data.file ?? ''} › ${event.data.name}`, false);
  }

  /** A failure no test reported: a file that timed out or whose process died. */
  fail(label, counted = true) {
    if (counted) this.counts.tests++;
    this.counts.failed++;
    this.failures.push(label);
  }

  *lines(seconds) {
    const { tests, passed, failed, skipped } = this.counts;
    yield '\n── summary ──\n';
    if (this.failures.length > 0) yield `failed:\n${this.failures.map((f) => `  ✗ ${f}`).join('\n')}\n`;
    yield `tests ${tests}, passed ${passed}, failed ${failed}, skipped ${skipped}, time ${seconds.toFixed(1)}s\n`;
    yield "Expected: lines like 'trestle deprecated ...' above come from tests of deprecated forms (node's warnings are silenced).\n";
    yield `${passed} passed, ${failed} failed, ${skipped} skipped\n`;
  }
}

export default async function* summary(source) {
  const started = Date.now();
  const tally = new Tally();
  for await (const event of source) tally.add(event);
  yield* tally.lines((Date.now() - started) / 1000);
}
