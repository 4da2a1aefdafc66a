// Behind a real nginx (Debian's package, started and stopped here): a rolling
// restart of two trestle processes under a bounded load (scaling/rolling.ts).
// Each backend in turn gets SIGTERM (trestle.shutdownOnSignals), finishes
// what it has begun and exits, and a new process takes its port. The client
// sees no failed request and every answer whole; every request that reached
// a backend has exactly one access log line; no backend exits with work in
// flight. Skipped, with the reason, where nginx is not installed.
//
// nginx is told to pass POSTs on too (`non_idempotent`): a backend that
// closes an idle kept-alive connection at the instant nginx sends a POST on
// it makes a 502 otherwise, a race no HTTP/1.1 server can close (there is no
// GOAWAY), seen about once in six runs on a loaded machine. Such a POST never
// reached the app, and trestle's shutdown cuts nothing, so each POST is
// still processed once: `lines.length === answered` checks exactly that.
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { nginxMissing } from './scaling/nginx';
import { rollingRestart } from './scaling/rolling';

describe('behind nginx', { skip: nginxMissing() }, () => {
  test('a rolling restart under load (200 requests/s, 15 s, GETs, slow GETs and POSTs): 0 failed, answered = log lines, no work cut', async () => {
    const { load, lines, stops } = await rollingRestart('trestle', 3000, 200, true);
    assert.deepEqual(load.failed, {});
    assert.deepEqual(load.wrong, []);
    assert.equal(load.answered, 3000);
    assert.equal(lines.length, load.answered);
    assert.deepEqual(stops, [
      { cut: 0, code: 0 },
      { cut: 0, code: 0 },
      { cut: 0, code: 0 },
      { cut: 0, code: 0 },
    ]);
    // Four processes served: each first one and its replacement.
    assert.equal(new Set(lines.map((line) => line.split('pid=')[1])).size, 4);
  });
});
