// req.signal (docs/production.md#reqsignal): aborted when the client goes away
// before the answer is complete, over HTTP/1.1 and HTTP/2 and through
// app.fetch (the Request's signal), on every entry.
import assert from 'node:assert/strict';
import * as http2 from 'node:http2';
import { describe, test } from 'node:test';
import { serve } from './helpers';
import { connect, serveH2 } from './http2-helpers';
import { answerTo, closedAfterEach, connectRaw, entries, latch, within } from './lifecycle-helpers';

for (const [name, trestle] of entries) {
  describe(`${name}: req.signal`, () => {
    const kept = closedAfterEach();
    /** An app whose /work reads req.signal and never answers; `aborted` resolves with the abort reason. */
    function workApp() {
      const app = trestle();
      const entered = latch();
      const aborted = latch<unknown>();
      app.get('/work', (req) => {
        req.signal.addEventListener('abort', () => aborted.resolve(req.signal.reason));
        entered.resolve();
      });
      return { app, entered, aborted };
    }

    test('HTTP/1.1: a client that disconnects mid-request aborts req.signal with an AbortError', async () => {
      const { app, entered, aborted } = workApp();
      const served = kept(await serve(app));
      const conn = await connectRaw(served.port);
      conn.socket.write('GET /work HTTP/1.1\r\nHost: localhost\r\n\r\n');
      await within(entered.promise, 'request reaching the handler');
      conn.socket.destroy();
      const reason = (await within(aborted.promise, 'abort of req.signal', 2000)) as DOMException;
      assert.equal(reason.name, 'AbortError');
      await within(served.close(), 'close of the server');
    });

    test('read after the client went away, req.signal is already aborted', async () => {
      const app = trestle();
      const state = latch<[boolean, string]>();
      const entered = latch();
      app.get('/late', (req, res) => {
        res.on('close', () => state.resolve([req.signal.aborted, (req.signal.reason as DOMException).name]));
        entered.resolve();
      });
      const served = kept(await serve(app));
      const conn = await connectRaw(served.port);
      conn.socket.write('GET /late HTTP/1.1\r\nHost: localhost\r\n\r\n');
      await within(entered.promise, 'request reaching the handler');
      conn.socket.destroy();
      assert.deepEqual(await within(state.promise, "the response's close", 2000), [true, 'AbortError']);
      await within(served.close(), 'close of the server');
    });

    test('an answer delivered whole leaves req.signal unaborted', async () => {
      const app = trestle();
      const state = latch<boolean>();
      app.get('/ok', (req, res) => {
        const { signal } = req;
        res.on('close', () => state.resolve(signal.aborted));
        res.send('ok');
      });
      const served = kept(await serve(app));
      const conn = await connectRaw(served.port);
      conn.socket.write('GET /ok HTTP/1.1\r\nHost: localhost\r\nConnection: close\r\n\r\n');
      await within(conn.closed, 'close of the connection after the answer');
      assert.equal(await within(state.promise, "the response's close", 2000), false);
      await within(served.close(), 'close of the server');
    });

    test('a deadline that passes aborts req.signal with a TimeoutError, soon after it passes', async () => {
      const app = trestle();
      const aborted = latch<[string, number]>();
      let entered = 0;
      app.get('/work', trestle.deadline('50ms'), (req) => {
        entered = Date.now();
        req.signal.addEventListener('abort', () => aborted.resolve([(req.signal.reason as DOMException).name, Date.now() - entered]));
      });
      const served = kept(await serve(app));
      const answer = answerTo(served.port, 'GET', '/work');
      const [name, after] = await within(aborted.promise, 'abort of req.signal by the 50 ms deadline', 2000);
      assert.equal(name, 'TimeoutError');
      assert.ok(after >= 40 && after < 1500, `req.signal aborted ${after} ms after the request came in (deadline 50 ms)`);
      assert.equal((await answer).status, 503);
      await within(served.close(), 'close of the server');
    });

    for (const mode of ['h2c', 'h2'] as const) {
      test(`HTTP/2 (${mode}): a stream reset by the client aborts req.signal`, async () => {
        const { app, entered, aborted } = workApp();
        const served = kept(await serveH2(app, mode));
        const session = connect(served.origin);
        session.on('error', () => undefined);
        const stream = session.request({ ':path': '/work' });
        stream.on('error', () => undefined);
        await within(entered.promise, 'request reaching the handler');
        stream.close(http2.constants.NGHTTP2_CANCEL);
        const reason = (await within(aborted.promise, 'abort of req.signal', 2000)) as DOMException;
        assert.equal(reason.name, 'AbortError');
        session.destroy();
        await within(served.close(), 'close of the server');
      });
    }

    test("app.fetch: the Request's signal aborting aborts req.signal, and the fetch rejects", async () => {
      const { app, entered, aborted } = workApp();
      const controller = new AbortController();
      const answer = app.fetch(new Request('http://localhost/work', { signal: controller.signal }));
      await within(entered.promise, 'request reaching the handler');
      controller.abort();
      const reason = (await within(aborted.promise, 'abort of req.signal', 2000)) as DOMException;
      assert.equal(reason.name, 'AbortError');
      await assert.rejects(within(answer, 'rejection of app.fetch'), { name: 'AbortError' });
    });
  });
}
