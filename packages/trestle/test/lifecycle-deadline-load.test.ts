// Deadlines under a bounded load (docs/production.md#deadlines): handlers
// that outlive their deadline get 503s, the outbound work they gave
// req.signal stops (a local upstream that never answers sees every request
// it got aborted), and the process's handles return to where they were.
import assert from 'node:assert/strict';
import * as http from 'node:http';
import type { AddressInfo } from 'node:net';
import { describe, test } from 'node:test';
import { rawRequest, serve } from './helpers';
import { until } from './http2-helpers';
import { entries } from './lifecycle-helpers';

/** An upstream that never answers, counting the requests it got and those whose client went away. */
async function slowUpstream() {
  const counts = { started: 0, aborted: 0 };
  const server = http.createServer((req, res) => {
    counts.started += 1;
    res.on('close', () => (counts.aborted += 1));
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  return { counts, url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/`, server };
}

/** Open sockets and timers, as node lists them (file reads of other modules come and go). */
function handles(): string {
  const counts: Record<string, number> = {};
  for (const kind of process.getActiveResourcesInfo()) if (kind === 'TCPSocketWrap' || kind === 'Timeout') counts[kind] = (counts[kind] ?? 0) + 1;
  return JSON.stringify(Object.entries(counts).sort());
}

const LOAD = 60;

for (const [name, trestle] of entries) {
  describe(`${name}: deadlines under load`, () => {
    test(`${LOAD} requests whose handlers outlive a 50 ms deadline: all 503, every upstream call stopped, sockets and timers back to where they were`, async () => {
      const upstream = await slowUpstream();
      const app = trestle();
      app.set('env', 'production');
      app.get('/proxy', trestle.deadline('50ms'), async (req, res) => {
        const answer = await fetch(upstream.url, { signal: req.signal });
        res.send(await answer.text());
      });
      const served = await serve(app);
      const before = handles();
      // Unhandled, each 503 is logged once, as Express logs errors the final handler gets; the
      // handlers' fetch then rejects with req.signal's TimeoutError: not an error worth a second stack.
      const logged: unknown[] = [];
      const consoleError = console.error;
      console.error = (...args: unknown[]) => void logged.push(args);
      const answers = await Promise.all(Array.from({ length: LOAD }, () => rawRequest(served.port, 'GET', '/proxy')));
      assert.deepEqual(
        answers.map((a) => a.status),
        Array.from({ length: LOAD }, () => 503),
      );
      // Every call that reached the upstream was aborted (one the deadline beat to the connection never reached it).
      assert.ok(upstream.counts.started > 0);
      assert.ok(await until(() => upstream.counts.aborted === upstream.counts.started, 5000), JSON.stringify(upstream.counts));
      console.error = consoleError;
      assert.equal(logged.length, LOAD);
      assert.ok(logged.every((args) => String((args as unknown[])[0]).startsWith('ServiceUnavailableError: Response timeout')));
      assert.ok(await until(() => handles() === before, 5000), `${handles()} != ${before}`);
      await served.close();
      upstream.server.close();
    });
  });
}
