// Opt-in signal handling (docs/production.md#signals), in a child process
// (test/lifecycle/server.ts) on every entry.
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';

import { startChild } from './lifecycle/child';
import { answerTo, entries, within } from './lifecycle-helpers';

/** Resolves once a connection to `port` is refused (the server stopped listening); fails after 5 s. */
async function refused(port: number): Promise<void> {
  for (const started = Date.now(); Date.now() - started < 5000; ) {
    const code = await answerTo(port, 'GET', '/fast').then(
      () => undefined,
      (err: NodeJS.ErrnoException) => err.code,
    );
    if (code === 'ECONNREFUSED') return;
    await new Promise((r) => setTimeout(r, 5));
  }
  throw new Error(`no refused connection (the server still listening) within 5000 ms of the signal`);
}

for (const [name] of entries) {
  describe(`${name}: shutdownOnSignals`, () => {
    test('SIGTERM: the request in flight is answered, the process exits 0 with a report', async () => {
      const c = await startChild(name);
      const slow = answerTo(c.port, 'GET', '/slow?ms=300');
      await within(c.next('entered'), 'request reaching the handler in the child');
      c.child.kill('SIGTERM');
      const report = (await within(c.next('report'), 'shutdown report after SIGTERM', 8000)).report as { inFlight: number; cut: number; durationMs: number };
      const answer = await slow;
      assert.equal(answer.status, 200);
      assert.equal(answer.body, 'slow');
      assert.equal(answer.headers.connection, 'close');
      assert.deepEqual([report.inFlight, report.cut], [1, 0]);
      assert.ok(report.durationMs < 3000, `the shutdown took ${report.durationMs} ms for a 300 ms request (timeout 20 s)`);
      assert.equal(await within(c.exited, 'exit after the report'), 0);
    });

    test('a second signal ends the process at once, with the work still in flight', async () => {
      const c = await startChild(name);
      const hanging = answerTo(c.port, 'GET', '/hang').catch((err: NodeJS.ErrnoException) => err.code);
      await within(c.next('entered'), 'request reaching the handler in the child');
      c.child.kill('SIGINT');
      // Signals sent together may arrive as one: the second goes once the first has
      // begun the shutdown (its timeout is 20 s), seen as a new connection refused.
      await refused(c.port);
      c.child.kill('SIGINT');
      assert.equal(await within(c.exited, 'exit on the second signal'), 130);
      assert.equal(await hanging, 'ECONNRESET');
    });
  });
}
