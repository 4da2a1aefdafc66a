// A socket's own timers under app.fetch (issue 41): res.setTimeout,
// req.setTimeout and req.socket.setTimeout fire after that long without
// reading or writing, as over a socket: the callback, 'timeout' on req (while
// its body is incomplete) and res, and the connection closed when nobody
// listened. Durations are asserted with wide margins (a busy machine), and
// every wait is bounded with a message naming the timeout that did not come.
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import trestle from '../../src/index';

/** Resolves with the value, or fails naming `what` after `ms`. */
async function within<T>(promise: Promise<T>, ms: number, what: string): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const late = new Promise<never>((_, reject) => (timer = setTimeout(() => reject(new Error(`${what} within ${ms} ms`)), ms)));
  try {
    return await Promise.race([promise, late]);
  } finally {
    clearTimeout(timer);
  }
}

describe('app.fetch: res.setTimeout, req.setTimeout and req.socket.setTimeout as over a socket', () => {
  test('res.setTimeout(ms, cb): cb after ms of nothing written, and it can answer', async () => {
    const app = trestle();
    let called = 0;
    const started = Date.now();
    app.get('/', (req, res) => {
      res.setTimeout(150, () => {
        called = Date.now() - started;
        res.status(503).send('timed out');
      });
    });
    const response = await within(app.fetch(new Request('http://127.0.0.1/')), 3000, 'no res.setTimeout callback (no answer)');
    assert.equal(response.status, 503);
    assert.equal(await within(response.text(), 3000, 'no end of the 503 answer'), 'timed out');
    assert.ok(called >= 140, `the callback came after ${called} ms, before the 150 ms timeout`);
  });

  test("writing keeps it from firing; it fires ms after the last write ('timeout' on res)", async () => {
    const app = trestle();
    let lastWrite = 0;
    let firedAt = 0;
    app.get('/', (req, res) => {
      res.setTimeout(200);
      res.on('timeout', () => {
        firedAt = Date.now();
        res.end('end\n');
      });
      res.write('start\n');
      let n = 0;
      const tick = setInterval(() => {
        res.write(`tick ${n}\n`);
        lastWrite = Date.now();
        if (++n === 6) clearInterval(tick);
      }, 60);
    });
    const response = await within(app.fetch(new Request('http://127.0.0.1/')), 3000, 'no answer to GET /');
    const text = await within(response.text(), 5000, "no 'timeout' on res after the writes stopped");
    assert.match(text, /tick 5\nend\n$/, 'every tick was written before the timeout');
    assert.ok(firedAt - lastWrite >= 190, `'timeout' came ${firedAt - lastWrite} ms after the last write (timeout 200 ms)`);
  });

  test("req.setTimeout(ms, cb): fires while the request body stalls ('timeout' on req)", async () => {
    const app = trestle();
    app.post('/', (req, res) => {
      req.setTimeout(150, () => res.status(408).send('body too slow'));
      req.on('data', () => undefined);
    });
    // One chunk, then nothing: a client that stalls mid-body.
    const body = new ReadableStream<Uint8Array>({
      start(controller) {
        controller.enqueue(new TextEncoder().encode('first'));
      },
    });
    const request = new Request('http://127.0.0.1/', { method: 'POST', body, duplex: 'half' } as RequestInit);
    const response = await within(app.fetch(request), 3000, 'no req.setTimeout callback while the body stalled');
    assert.equal(response.status, 408);
    assert.equal(await within(response.text(), 3000, 'no end of the answer'), 'body too slow');
  });

  test('req.socket.setTimeout(ms, cb) with nobody listening on req or res: cb, then the connection closes (the fetch rejects)', async () => {
    const app = trestle();
    let called = false;
    let closed = false;
    app.get('/', (req, res) => {
      req.socket.setTimeout(100, () => (called = true));
      res.on('close', () => (closed = true));
    });
    await within(
      assert.rejects(app.fetch(new Request('http://127.0.0.1/')), (err: NodeJS.ErrnoException) => err.code === 'ECONNRESET'),
      3000,
      'the connection was not closed after req.socket.setTimeout',
    );
    assert.ok(called, 'the socket timeout callback was not called');
    await within(new Promise<void>((r) => setImmediate(r)), 1000, 'no turn');
    assert.ok(closed, "res heard no 'close'");
  });

  test('setTimeout(0) turns it off, and a finished answer has no timer left', async () => {
    const app = trestle();
    let fired = false;
    app.get('/off', (req, res) => {
      res.setTimeout(50, () => (fired = true));
      res.setTimeout(0);
      setTimeout(() => res.send('late but whole'), 150);
    });
    app.get('/done', (req, res) => {
      res.setTimeout(50, () => (fired = true));
      res.send('done');
    });
    const off = await within(app.fetch(new Request('http://127.0.0.1/off')), 3000, 'no answer from /off');
    assert.equal(await within(off.text(), 3000, 'no end of the answer'), 'late but whole');
    const done = await within(app.fetch(new Request('http://127.0.0.1/done')), 3000, 'no answer to GET /done');
    assert.equal(await done.text(), 'done');
    await new Promise((r) => setTimeout(r, 120));
    assert.equal(fired, false, 'a timeout fired although it was turned off, or after the answer finished');
  });
});
