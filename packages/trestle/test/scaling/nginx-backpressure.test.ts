// HTTP/1.1 backpressure behind a real nginx (the configuration of
// docs/production.md, read from the doc): a handler streams 16 MiB with
// res.write(), waiting for 'drain' whenever write() returns false, to a
// client that reads slowly through nginx. The backend's buffered bytes stay
// bounded, 'drain' comes, and the client gets every byte. Every wait is
// bounded and says what did not happen. Skipped where nginx is not installed.
import assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import * as http from 'node:http';
import type { AddressInfo } from 'node:net';
import { describe, test } from 'node:test';
import trestle from 'trestle';
import { within } from '../lifecycle-helpers';
import { Nginx, nginxMissing } from './nginx';

const CHUNK = Buffer.alloc(64 * 1024, 'abcdefgh');
const CHUNKS = 256; // 16 MiB
const MiB = 1024 * 1024;

interface Figures {
  drains: number;
  falses: number;
  maxBuffered: number;
  ended: boolean;
}

/** The app: GET /big streams CHUNKS chunks, honouring write()'s false with a bounded wait for 'drain'. */
function streamingApp(figures: Figures, done: (err?: Error) => void) {
  const app = trestle();
  app.get('/big', async (_req, res) => {
    try {
      res.set('Content-Type', 'application/octet-stream');
      for (let i = 0; i < CHUNKS; i++) {
        const more = res.write(CHUNK);
        figures.maxBuffered = Math.max(figures.maxBuffered, res.writableLength);
        if (!more) {
          figures.falses += 1;
          await within(new Promise((resolve) => res.once('drain', resolve)), `'drain' after write ${i} returned false`);
          figures.drains += 1;
        }
      }
      res.end();
      figures.ended = true;
      done();
    } catch (err) {
      res.destroy();
      done(err as Error);
    }
  });
  return app;
}

/** GET through nginx, reading slowly: the stream paused 2 ms after each chunk. Resolves with the byte count and hash. */
function slowRead(port: number): Promise<{ status: number; bytes: number; sha: string }> {
  return new Promise((resolve, reject) => {
    http
      .get({ host: '127.0.0.1', port, path: '/big', agent: false }, (res) => {
        const hash = createHash('sha256');
        let bytes = 0;
        res.on('data', (chunk: Buffer) => {
          bytes += chunk.length;
          hash.update(chunk);
          res.pause();
          setTimeout(() => res.resume(), 2);
        });
        res.on('end', () => resolve({ status: res.statusCode ?? 0, bytes, sha: hash.digest('hex') }));
        res.on('error', reject);
      })
      .on('error', reject);
  });
}

describe('behind nginx: backpressure', { skip: nginxMissing() }, () => {
  test("a 16 MiB streamed answer to a slow client: write() returns false, 'drain' comes, the backend buffers at most about 1 MiB", { timeout: 60_000 }, async () => {
    const figures: Figures = { drains: 0, falses: 0, maxBuffered: 0, ended: false };
    let finish!: (err?: Error) => void;
    const handlerDone = new Promise<void>((resolve, reject) => (finish = (err) => (err ? reject(err) : resolve())));
    const server = http.createServer(streamingApp(figures, finish));
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const nginx = await Nginx.start([(server.address() as AddressInfo).port]);
    try {
      const rssBefore = process.memoryUsage().rss;
      const answer = await within(slowRead(nginx.port), 'whole 16 MiB answer through nginx', 30_000);
      await within(handlerDone, 'end of the streaming handler', 5000);
      const expected = createHash('sha256');
      for (let i = 0; i < CHUNKS; i++) expected.update(CHUNK);
      assert.deepEqual([answer.status, answer.bytes, answer.sha], [200, CHUNKS * CHUNK.length, expected.digest('hex')]);
      assert.ok(figures.falses > 0, 'write() never returned false: no backpressure was met');
      assert.equal(figures.drains, figures.falses, "each false from write() was followed by a 'drain'");
      assert.ok(figures.maxBuffered <= MiB, `the backend buffered up to ${(figures.maxBuffered / MiB).toFixed(1)} MiB`);
      const grew = (process.memoryUsage().rss - rssBefore) / MiB;
      assert.ok(grew < 64, `the process grew ${grew.toFixed(1)} MiB while streaming 16 MiB`);
    } finally {
      await nginx.stop();
      server.closeAllConnections();
      await within(new Promise<void>((resolve) => server.close(() => resolve())), 'close of the backend');
    }
  });
});
