// Request deadlines (docs/production.md#deadlines) on every entry: the
// per-route middleware, the app-wide setting, streaming answers, HTTP/2.
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import logger from 'logline-http';
import { serve } from './helpers';
import { serveH2 } from './http2-helpers';
import { answerTo, closedAfterEach, entries, latch, within } from './lifecycle-helpers';

for (const [name, trestle] of entries) {
  describe(`${name}: deadlines`, () => {
    const kept = closedAfterEach();
    test('trestle.deadline(): a handler that outlives it gets a 503, req.signal a TimeoutError, and its late answer is dropped without error', async () => {
      const app = trestle();
      const lines: string[] = [];
      app.use(logger(':method :url :status', { stream: { write: (line: string) => void lines.push(line) } }));
      const signalReason = latch<string>();
      const late = latch<string>();
      app.get('/slow', trestle.deadline('30ms'), (req, res) => {
        req.signal.addEventListener('abort', () => {
          signalReason.resolve((req.signal.reason as DOMException).name);
          // The handler answers anyway, after the 503 went out.
          setImmediate(() => {
            try {
              res.set('X-Late', '1');
              res.status(200).send('late');
              res.end();
              late.resolve('no error');
            } catch (err) {
              late.resolve(String(err));
            }
          });
        });
      });
      const errors: Array<{ code?: string; status?: number; timeout?: number; message: string }> = [];
      app.use((err: { code?: string; status?: number; timeout?: number; message: string }, _req: unknown, res: { status(n: number): { send(b: string): void } }, _next: unknown) => {
        errors.push(err);
        res.status(err.status ?? 500).send(`deadline: ${err.message}`);
      });
      const served = kept(await serve(app));
      const answer = await answerTo(served.port, 'GET', '/slow');
      assert.deepEqual([answer.status, answer.body, answer.headers['x-late']], [503, 'deadline: Response timeout', undefined]);
      assert.equal(await within(signalReason.promise, 'abort of req.signal by the 30 ms deadline', 2000), 'TimeoutError');
      assert.equal(await within(late.promise, "the handler's late answer after the signal's abort", 2000), 'no error');
      assert.deepEqual(
        errors.map((e) => [e.code, e.status, e.timeout]),
        [['TRESTLE_ERR_DEADLINE_EXCEEDED', 503, 30]],
      );
      await within(served.close(), 'close of the server');
      assert.deepEqual(lines.map((l) => l.trim()), ['GET /slow 503']);
    });

    test('the app-wide `request deadline` setting: the final handler answers 503', async () => {
      const app = trestle();
      app.set('request deadline', 30);
      app.get('/never', () => undefined);
      app.get('/fast', (_req, res) => {
        res.send('fast');
      });
      const served = kept(await serve(app));
      assert.equal((await answerTo(served.port, 'GET', '/never')).status, 503);
      assert.equal((await answerTo(served.port, 'GET', '/fast')).body, 'fast');
      await within(served.close(), 'close of the server');
    });

    test("a route's deadline replaces the app's", async () => {
      const app = trestle();
      app.set('request deadline', '20ms');
      app.get('/upload', trestle.deadline('10s'), (_req, res) => {
        setTimeout(() => res.send('took 100 ms'), 100);
      });
      const served = kept(await serve(app));
      const answer = await answerTo(served.port, 'GET', '/upload');
      assert.deepEqual([answer.status, answer.body], [200, 'took 100 ms']);
      await within(served.close(), 'close of the server');
    });

    test('an answer streaming when the deadline passes runs to its end, req.signal unaborted', async () => {
      const app = trestle();
      const aborted = latch<boolean>();
      app.get('/stream', trestle.deadline('20ms'), (req, res) => {
        res.write('a');
        setTimeout(() => {
          aborted.resolve(req.signal.aborted);
          res.end('b');
        }, 100);
      });
      const served = kept(await serve(app));
      const answer = await answerTo(served.port, 'GET', '/stream');
      assert.deepEqual([answer.status, answer.body, await within(aborted.promise, 'end of the streaming handler')], [200, 'ab', false]);
      await within(served.close(), 'close of the server');
    });

    test('cutStreaming: the streaming answer is cut, req.signal aborts with a TimeoutError', async () => {
      const app = trestle();
      const reason = latch<string>();
      app.get('/stream', trestle.deadline('20ms', { cutStreaming: true }), (req, res) => {
        req.signal.addEventListener('abort', () => reason.resolve((req.signal.reason as DOMException).name));
        res.write('a');
      });
      const served = kept(await serve(app));
      const failure = answerTo(served.port, 'GET', '/stream').then(
        () => 'answered',
        (err: NodeJS.ErrnoException) => err.code,
      );
      assert.equal(await within(reason.promise, 'abort of req.signal by the 20 ms deadline (cutStreaming)', 2000), 'TimeoutError');
      assert.equal(await failure, 'ECONNRESET', 'the streaming answer was not cut when the 20 ms deadline passed (cutStreaming)');
      await within(served.close(), 'close of the server');
    });

    test('HTTP/2: a deadline answers 503', async () => {
      const app = trestle();
      app.get('/never', trestle.deadline('20ms'), () => undefined);
      const served = kept(await serveH2(app, 'h2c'));
      const answer = await within(served.request('/never'), 'answer to GET /never over HTTP/2 (its 20 ms deadline)');
      assert.equal(answer.status, 503);
      await within(served.close(), 'close of the server');
    });
  });
}
