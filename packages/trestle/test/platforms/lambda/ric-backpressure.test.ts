// Backpressure as the app sees it, under aws-lambda-ric's streaming: a route
// writing 48 MiB that waits for 'drain' whenever res.write() says false,
// against a Runtime API that reads slowly. The app must be told to wait
// (false, then 'drain'), the answer must arrive whole and byte-exact, and
// the app must never get more than a bounded amount ahead of the reader.
// A stall (a 'drain' that never comes) fails within seconds, naming it.
// Also: an answer that fails after its first bytes went out.
import assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import { after, describe, test } from 'node:test';
import { eventFor } from '../../fixtures/lambda/events';
import { slowReader, startFunction, type Function } from './harness';
import { ricUnavailable } from './ric';
import { splitPrelude, type Outcome } from './runtime-api';

// Each test says why it is skipped (a skipped suite would report no test at all).
const skip = ricUnavailable();
const MiB = 1024 * 1024;
const TOTAL_MIB = 48;
/** What may sit between the app and the reader: the fetch queue, the client's buffers, loopback's socket buffers. */
const AHEAD_BOUND = 16 * MiB;
/** No byte written nor read for this long is a stall. */
const STALL_MS = 5000;

/** What the fixture's /flood route reported on stderr. */
interface Flood {
  written: number;
  refused: number;
  drains: number | undefined;
  sha256: string | undefined;
  /** The most the app had written beyond what the reader had read. */
  ahead: number;
  at: number;
}

/**
 * `outcome`, or a failure as soon as nothing moves for STALL_MS: the app
 * waiting for a 'drain' that does not come (or the adapter for Lambda's).
 */
function unlessStalled(outcome: Promise<Outcome>, flood: Flood, progress: { read: number; at: number }): Promise<Outcome> {
  let timer: NodeJS.Timeout;
  const stalled = new Promise<never>((_resolve, reject) => {
    timer = setInterval(() => {
      const quiet = performance.now() - Math.max(flood.at, progress.at);
      if (quiet < STALL_MS) return;
      reject(new Error(`no 'drain' within ${STALL_MS / 1000} s: nothing was written nor read for ${(quiet / 1000).toFixed(1)} s; ` +
        `the app wrote ${flood.written} bytes (res.write() said false ${flood.refused} times), the Runtime API read ${progress.read}`));
    }, 250);
  });
  return Promise.race([outcome, stalled]).finally(() => clearInterval(timer));
}

describe('trestle/lambda under aws-lambda-ric: backpressure the app sees', { timeout: 420_000 }, () => {
  const started: Function[] = [];
  after(async () => {
    for (const fn of started) await fn.stop();
  });

  test(`a route streaming ${TOTAL_MIB} MiB to a slow reader: res.write() says false, 'drain' comes, the bytes arrive whole, the app stays bounded ahead`, { skip, timeout: 330_000 }, async (t) => {
    const fn = await startFunction('app.streaming');
    started.push(fn);
    const progress = { read: 0, at: performance.now() };
    const flood: Flood = { written: 0, refused: 0, drains: undefined, sha256: undefined, ahead: 0, at: performance.now() };
    fn.ric.onStderrLine((line) => {
      const [word, value] = line.split(' ');
      if (word === 'written') {
        flood.written = Number(value);
        flood.ahead = Math.max(flood.ahead, flood.written - progress.read);
      } else if (word === 'refused') flood.refused = Number(value);
      else if (word === 'drains') flood.drains = Number(value);
      else if (word === 'sha256') flood.sha256 = value;
      else return;
      flood.at = performance.now();
    });
    fn.api.streamReader = slowReader(progress);
    const begun = performance.now();
    // The first invocation also loads the client, trestle and the app: 30 s for that, the stall watch for the rest.
    const outcome = await unlessStalled(fn.invoke(eventFor('url', { path: `/flood/${TOTAL_MIB}` }), 120_000), flood, progress);
    const ms = performance.now() - begun;
    assert.equal(outcome.kind, 'response', outcome.body.subarray(0, 500).toString());
    const { metadata, rest } = splitPrelude(outcome.body);
    assert.equal(metadata.statusCode, 200);
    assert.equal(metadata.headers['content-type'], 'application/octet-stream');
    t.diagnostic(`${TOTAL_MIB} MiB in ${(ms / 1000).toFixed(1)} s; res.write() said false ${flood.refused} times; ` +
      `the app was at most ${(flood.ahead / MiB).toFixed(1)} MiB ahead of the reader`);
    assert.ok(flood.refused > 0, `res.write() never said false while ${TOTAL_MIB} MiB went to a slow reader (the app ran ${(flood.ahead / MiB).toFixed(1)} MiB ahead)`);
    assert.equal(flood.drains, flood.refused, `each false from res.write() is followed by a 'drain' (false ${flood.refused} times, 'drain' ${flood.drains ?? 'never reported'})`);
    assert.equal(rest.length, TOTAL_MIB * MiB, 'the reader got the whole answer');
    assert.equal(createHash('sha256').update(rest).digest('hex'), flood.sha256, 'the bytes read are the bytes the app wrote');
    assert.ok(flood.ahead < AHEAD_BOUND, `the app ran ${(flood.ahead / MiB).toFixed(1)} MiB ahead of a slow reader (bound ${AHEAD_BOUND / MiB} MiB): the adapter did not wait for Lambda's 'drain'`);
  });

  test('a route that fails after its first bytes: the client gets those bytes, then the error in the stream\'s trailers; the function goes on', { skip, timeout: 60_000 }, async (t) => {
    const fn = await startFunction('app.streaming');
    started.push(fn);
    const outcome = await fn.invoke(eventFor('url', { path: '/fails-mid-stream' }), 10_000);
    assert.equal(outcome.kind, 'response', 'the stream was open: the failure comes at its end, not as an /error post');
    assert.equal(outcome.streamed, true);
    const { metadata, rest } = splitPrelude(outcome.body);
    assert.equal(metadata.statusCode, 200, 'the status had gone out with the first bytes');
    assert.equal(rest.toString(), 'the first part\n');
    const type = outcome.trailers['lambda-runtime-function-error-type'];
    const body = outcome.trailers['lambda-runtime-function-error-body'];
    assert.ok(type !== undefined && body !== undefined, `the error in the stream's trailers: ${JSON.stringify(outcome.trailers)}`);
    const error = JSON.parse(Buffer.from(body, 'base64').toString()) as { errorType: string; errorMessage: string };
    t.diagnostic(`trailers: ${type}, ${JSON.stringify(error.errorMessage)}`);
    assert.equal(error.errorType, type);
    assert.match(fn.ric.output(), /the route failed mid-stream/, "the app's own error is in the function's log");
    const next = await fn.invoke(eventFor('url', { path: '/events' }), 15_000);
    assert.equal(splitPrelude(next.body).rest.toString(), 'data: 1\n\ndata: 2\n\ndata: 3\n\n');
  });
});
