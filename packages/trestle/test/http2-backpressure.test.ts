// Backpressure over HTTP/2 (h2c and h2): a client that reads slowly holds a
// streamed answer back through HTTP/2's flow control. The route sees
// res.write() return false and waits for 'drain'; the answer arrives whole;
// the route is never more than a bounded amount ahead of the reader. A
// 'drain' that never comes fails within seconds, naming it.
import assert from 'node:assert/strict';
import { createHash, randomBytes } from 'node:crypto';
import type * as http2 from 'node:http2';
import { describe, test } from 'node:test';
import trestle from 'trestle';
import { connect, modes, serveH2 } from './http2-helpers';
import { closedAfterEach, within } from './lifecycle-helpers';

const KiB = 1024;
const CHUNK = 64 * KiB;
const TOTAL = 8 * 1024 * KiB;
/** HTTP/2's windows (64 KiB by default), the stream's queue and a few chunks in flight: not the answer. */
const AHEAD_BOUND = 1024 * KiB;
/** Nothing written nor read for this long is a stall. */
const STALL_MS = 3000;

interface Progress {
  written: number;
  read: number;
  falses: number;
  drains: number;
  ahead: number;
  finished: boolean;
  at: number;
  sha256: string | undefined;
}

/** A route writing TOTAL random bytes, waiting for 'drain' after each false, counting into `p`. */
function floodApp(p: Progress) {
  const app = trestle();
  app.get('/flood', async (_req, res) => {
    const hash = createHash('sha256');
    res.type('application/octet-stream');
    while (p.written < TOTAL) {
      const chunk = randomBytes(CHUNK);
      hash.update(chunk);
      p.written += CHUNK;
      p.ahead = Math.max(p.ahead, p.written - p.read);
      p.at = performance.now();
      if (!res.write(chunk)) {
        p.falses++;
        await new Promise((resolve) => res.once('drain', resolve));
        p.drains++;
      }
    }
    p.sha256 = hash.digest('hex');
    res.end();
    p.finished = true;
  });
  return app;
}

/** Reads the answer to GET /flood at most 64 KiB every 10 ms, counting into `p`. */
function readSlowly(session: http2.ClientHttp2Session, p: Progress): Promise<{ status: number; body: Buffer }> {
  return new Promise((resolve, reject) => {
    const stream = session.request({ ':path': '/flood' });
    const chunks: Buffer[] = [];
    let status = 0;
    let timer: NodeJS.Timeout | undefined;
    stream.on('response', (headers) => (status = Number(headers[':status'])));
    const take = (): void => {
      let taken = 0;
      let chunk: Buffer | null;
      while (taken < CHUNK && (chunk = stream.read() as Buffer | null) !== null) {
        chunks.push(chunk);
        taken += chunk.length;
        p.read += chunk.length;
        p.at = performance.now();
      }
      if (!stream.readableEnded && !stream.destroyed) timer = setTimeout(take, 10);
    };
    stream.once('readable', take);
    stream.on('end', () => {
      clearTimeout(timer);
      resolve({ status, body: Buffer.concat(chunks) });
    });
    stream.on('error', (err) => {
      clearTimeout(timer);
      reject(err);
    });
    stream.end();
  });
}

/** `answer`, or a failure as soon as nothing moves for STALL_MS: the route waiting for a 'drain' that does not come. */
function unlessStalled<T>(answer: Promise<T>, p: Progress): Promise<T> {
  let timer: NodeJS.Timeout;
  const stalled = new Promise<never>((_resolve, reject) => {
    timer = setInterval(() => {
      const quiet = performance.now() - p.at;
      if (quiet >= STALL_MS) {
        reject(new Error(`no 'drain' within ${STALL_MS / 1000} s: nothing was written nor read for ${(quiet / 1000).toFixed(1)} s; ` +
          `the route wrote ${p.written} bytes (res.write() said false ${p.falses} times, 'drain' came ${p.drains}), the client read ${p.read}`));
      }
    }, 100);
  });
  return Promise.race([answer, stalled]).finally(() => clearInterval(timer));
}

describe('HTTP/2 backpressure: a slow reader holds the answer back', () => {
  const kept = closedAfterEach();
  for (const mode of modes) {
    test(`${mode}: res.write() says false, 'drain' comes, the answer arrives whole, the route stays bounded ahead`, async (t) => {
      const p: Progress = { written: 0, read: 0, falses: 0, drains: 0, ahead: 0, finished: false, at: performance.now(), sha256: undefined };
      const served = kept(await serveH2(floodApp(p), mode));
      const session = connect(served.origin);
      session.on('error', () => undefined);
      const begun = performance.now();
      try {
        const { status, body } = await unlessStalled(readSlowly(session, p), p);
        t.diagnostic(`${mode}: ${TOTAL / KiB / 1024} MiB in ${((performance.now() - begun) / 1000).toFixed(1)} s; ` +
          `res.write() said false ${p.falses} times; the route was at most ${(p.ahead / KiB).toFixed(0)} KiB ahead of the reader`);
        assert.equal(status, 200);
        assert.ok(p.falses > 0, `res.write() never said false while ${TOTAL} bytes went to a slow reader (the route ran ${p.ahead} bytes ahead)`);
        assert.equal(p.drains, p.falses, "each false from res.write() is followed by a 'drain'");
        assert.ok(p.finished, "the route that waits for 'drain' did not finish");
        assert.equal(body.length, TOTAL, 'the reader got the whole answer');
        assert.equal(createHash('sha256').update(body).digest('hex'), p.sha256, 'the bytes read are the bytes written');
        assert.ok(p.ahead <= AHEAD_BOUND, `the route ran ${(p.ahead / KiB).toFixed(0)} KiB ahead of a slow reader (bound ${AHEAD_BOUND / KiB} KiB): the answer was buffered, not held back`);
      } finally {
        session.destroy();
      }
      await within(served.close(), 'close of the server');
    });
  }
});
