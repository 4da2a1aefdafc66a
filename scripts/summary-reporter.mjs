// A node:test reporter that prints one closing summary: how many tests ran,
// passed, failed and were skipped, and how long the run took. run-tests.mjs
// adds it beside the usual reporter, so a terminal and CI end on the same lines.
export default async function* summary(source) {
  const started = Date.now();
  const counts = { tests: 0, passed: 0, failed: 0, skipped: 0 };
  const failures = [];
  for await (const event of source) {
    if (event.type !== 'test:pass' && event.type !== 'test:fail') continue;
    // Suites report too; only the tests inside them count.
    if (event.data.details?.type === 'suite') continue;
    counts.tests++;
    if (event.data.skip || event.data.todo) counts.skipped++;
    else if (event.type === 'test:pass') counts.passed++;
    else {
      counts.failed++;
      failures.push(`${event.data.file ?? ''} › ${event.data.name}`);
    }
  }
  const seconds = ((Date.now() - started) / 1000).toFixed(1);
  yield '\n── summary ──\n';
  if (failures.length > 0) yield `failed:\n${failures.map((f) => `  ✗ ${f}`).join('\n')}\n`;
  yield `tests ${counts.tests}, passed ${counts.passed}, failed ${counts.failed}, skipped ${counts.skipped}, time ${seconds}s\n`;
  yield "Expected: lines like 'trestle deprecated ...' above come from tests of deprecated forms (node's warnings are silenced).\n";
  yield `${counts.passed} passed, ${counts.failed} failed, ${counts.skipped} skipped\n`;
}
