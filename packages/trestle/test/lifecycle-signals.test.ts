// Opt-in signal handling (docs/production.md#signals), in a child process
// (test/lifecycle/server.ts) on every entry.
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { rawRequest } from './helpers';
import { startChild } from './lifecycle/child';
import { entries } from './lifecycle-helpers';

/** Resolves once a connection to `port` is refused (the server stopped listening). */
async function refused(port: number): Promise<void> {
  for (;;) {
    const code = await rawRequest(port, 'GET', '/fast').then(
      () => undefined,
      (err: NodeJS.ErrnoException) => err.code,
    );
    if (code === 'ECONNREFUSED') return;
    await new Promise((r) => setTimeout(r, 5));
  }
}

for (const [name] of entries) {
  describe(`${name}: shutdownOnSignals`, () => {
    test('SIGTERM: the request in flight is answered, the process exits 0 with a report', async () => {
      const c = await startChild(name);
      const slow = rawRequest(c.port, 'GET', '/slow?ms=300');
      await c.next('entered');
      c.child.kill('SIGTERM');
      const report = (await c.next('report')).report as { inFlight: number; cut: number };
      const answer = await slow;
      assert.equal(answer.status, 200);
      assert.equal(answer.body, 'slow');
      assert.equal(answer.headers.connection, 'close');
      assert.deepEqual([report.inFlight, report.cut], [1, 0]);
      assert.equal(await c.exited, 0);
    });

    test('a second signal ends the process at once, with the work still in flight', async () => {
      const c = await startChild(name);
      const hanging = rawRequest(c.port, 'GET', '/hang').catch((err: NodeJS.ErrnoException) => err.code);
      await c.next('entered');
      c.child.kill('SIGINT');
      // Signals sent together may arrive as one: the second goes once the first has
      // begun the shutdown (its timeout is 20 s), seen as a new connection refused.
      await refused(c.port);
      c.child.kill('SIGINT');
      assert.equal(await c.exited, 130);
      assert.equal(await hanging, 'ECONNRESET');
    });
  });
}
