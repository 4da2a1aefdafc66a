// trestle/lambda's streaming handler under aws-lambda-ric: the client's own
// HttpResponseStream writes the prelude (JSON metadata, 8 NUL bytes) before
// the body, chunked to the Runtime API with
// Lambda-Runtime-Function-Response-Mode: streaming; and a reader that takes
// the body slowly holds the adapter back (it waits for the stream's 'drain').
import assert from 'node:assert/strict';
import { after, describe, test } from 'node:test';
import { eventFor } from '../../fixtures/lambda/events';
import { slowReader, startFunction, type Function } from './harness';
import { ricUnavailable } from './ric';
import { splitPrelude } from './runtime-api';

// Each test says why it is skipped (a skipped suite would report no test at all).
const skip = ricUnavailable();
const MiB = 1024 * 1024;

describe('trestle/lambda under aws-lambda-ric: streamed answers', { timeout: 420_000 }, () => {
  const started: Function[] = [];
  after(async () => {
    for (const fn of started) await fn.stop();
  });

  test('the real HttpResponseStream prelude, then server-sent events as written', { skip, timeout: 330_000 }, async () => {
    const fn = await startFunction('app.streaming');
    started.push(fn);
    const outcome = await fn.invoke(eventFor('url', { path: '/events' }), 30_000);
    assert.equal(outcome.kind, 'response');
    assert.equal(outcome.streamed, true);
    assert.equal(outcome.headers['content-type'], 'application/vnd.awslambda.http-integration-response');
    assert.equal(outcome.headers['transfer-encoding'], 'chunked');
    const { metadata, rest } = splitPrelude(outcome.body);
    assert.equal(metadata.statusCode, 200);
    assert.match(metadata.headers['content-type']!, /^text\/event-stream/);
    assert.equal(rest.toString(), 'data: 1\n\ndata: 2\n\ndata: 3\n\n');
  });

  test('a slow reader holds the adapter back: what it pulled ahead of the reader stays bounded', { skip, timeout: 330_000 }, async (t) => {
    const fn = await startFunction('app.counting');
    started.push(fn);
    const progress = { read: 0 };
    let ahead = 0;
    fn.ric.onStderrLine((line) => {
      const m = /^produced (\d+)$/.exec(line);
      if (m) ahead = Math.max(ahead, Number(m[1]) - progress.read);
    });
    fn.api.streamReader = slowReader(progress);
    const total = 48;
    const outcome = await fn.invoke(eventFor('url', { path: `/count/${total}` }), 60_000,
      () => `the adapter never finished: waiting for 'drain' from Lambda's response stream (read ${progress.read} of ${total * MiB} bytes)`);
    const { rest } = splitPrelude(outcome.body);
    assert.equal(rest.length, total * MiB);
    t.diagnostic(`most pulled ahead of the reader: ${(ahead / MiB).toFixed(1)} MiB of ${total} MiB`);
    assert.ok(ahead < 16 * MiB, `the adapter pulled ${(ahead / MiB).toFixed(1)} MiB ahead of a slow reader (bound 16 MiB): it did not wait for 'drain'`);
  });
});
