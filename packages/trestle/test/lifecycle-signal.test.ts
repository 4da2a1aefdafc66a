// req.signal (docs/production.md#reqsignal): aborted when the client goes away
// before the answer is complete, over HTTP/1.1 and HTTP/2 and through
// app.fetch (the Request's signal), on every entry.
import assert from 'node:assert/strict';
import * as http2 from 'node:http2';
import { describe, test } from 'node:test';
import { serve } from './helpers';
import { connect, serveH2 } from './http2-helpers';
import { connectRaw, entries, latch } from './lifecycle-helpers';

for (const [name, trestle] of entries) {
  describe(`${name}: req.signal`, () => {
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
      const served = await serve(app);
      const conn = await connectRaw(served.port);
      conn.socket.write('GET /work HTTP/1.1\r\nHost: localhost\r\n\r\n');
      await entered.promise;
      conn.socket.destroy();
      const reason = (await aborted.promise) as DOMException;
      assert.equal(reason.name, 'AbortError');
      await served.close();
    });

    test('read after the client went away, req.signal is already aborted', async () => {
      const app = trestle();
      const state = latch<[boolean, string]>();
      const entered = latch();
      app.get('/late', (req, res) => {
        res.on('close', () => state.resolve([req.signal.aborted, (req.signal.reason as DOMException).name]));
        entered.resolve();
      });
      const served = await serve(app);
      const conn = await connectRaw(served.port);
      conn.socket.write('GET /late HTTP/1.1\r\nHost: localhost\r\n\r\n');
      await entered.promise;
      conn.socket.destroy();
      assert.deepEqual(await state.promise, [true, 'AbortError']);
      await served.close();
    });

    test('an answer delivered whole leaves req.signal unaborted', async () => {
      const app = trestle();
      const state = latch<boolean>();
      app.get('/ok', (req, res) => {
        const { signal } = req;
        res.on('close', () => state.resolve(signal.aborted));
        res.send('ok');
      });
      const served = await serve(app);
      const conn = await connectRaw(served.port);
      conn.socket.write('GET /ok HTTP/1.1\r\nHost: localhost\r\nConnection: close\r\n\r\n');
      await conn.closed;
      assert.equal(await state.promise, false);
      await served.close();
    });

    for (const mode of ['h2c', 'h2'] as const) {
      test(`HTTP/2 (${mode}): a stream reset by the client aborts req.signal`, async () => {
        const { app, entered, aborted } = workApp();
        const served = await serveH2(app, mode);
        const session = connect(served.origin);
        session.on('error', () => undefined);
        const stream = session.request({ ':path': '/work' });
        stream.on('error', () => undefined);
        await entered.promise;
        stream.close(http2.constants.NGHTTP2_CANCEL);
        const reason = (await aborted.promise) as DOMException;
        assert.equal(reason.name, 'AbortError');
        session.destroy();
        await served.close();
      });
    }

    test("app.fetch: the Request's signal aborting aborts req.signal, and the fetch rejects", async () => {
      const { app, entered, aborted } = workApp();
      const controller = new AbortController();
      const answer = app.fetch(new Request('http://localhost/work', { signal: controller.signal }));
      await entered.promise;
      controller.abort();
      const reason = (await aborted.promise) as DOMException;
      assert.equal(reason.name, 'AbortError');
      await assert.rejects(answer, { name: 'AbortError' });
    });
  });
}
