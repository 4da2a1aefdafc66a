// Graceful shutdown (docs/production.md): over real sockets, on every entry.
import assert from 'node:assert/strict';
import * as http from 'node:http';
import * as https from 'node:https';
import type { AddressInfo } from 'node:net';
import { describe, test } from 'node:test';
import { connect, h2Request, serveH2, tls, until } from './http2-helpers';
import { answerTo, connectRaw, entries, heads, latch, within } from './lifecycle-helpers';

function portOf(server: { address(): unknown }): number {
  return (server.address() as AddressInfo).port;
}

function listening(server: http.Server): Promise<number> {
  return new Promise((resolve) => server.listen(0, '127.0.0.1', () => resolve(portOf(server))));
}

/** `app.listen()` on an ephemeral port of 127.0.0.1, once listening. */
async function listenApp(app: { listen(port: number, host: string): http.Server }): Promise<{ server: http.Server; port: number }> {
  const server = app.listen(0, '127.0.0.1');
  await new Promise((r) => server.once('listening', r));
  return { server, port: portOf(server) };
}

/**
 * A connection that has sent half a request head, once the server has read
 * it: such a connection is not idle, so the shutdown leaves it open, and the
 * request arrives when the test writes the head's last line.
 */
async function halfHead(server: http.Server, port: number) {
  let accepted: { bytesRead: number } | undefined;
  server.once('connection', (socket: { bytesRead: number }) => (accepted = socket));
  const conn = await connectRaw(port);
  conn.socket.write('GET /fast HTTP/1.1\r\nHost: localhost\r\n');
  assert.ok(await until(() => (accepted?.bytesRead ?? 0) > 0), 'the server did not read the half head within 2 s');
  return conn;
}

/** The server closing `conn`, within `ms`. */
const closedBy = (conn: { closed: Promise<string> }, ms = 5000) => within(conn.closed, 'close of the connection by the server', ms);

/** A shutdown's report, within `ms`. */
const reported = <T>(shutdown: Promise<T>, ms = 8000) => within(shutdown, 'shutdown report', ms);

/** Every shutdown here has a 10 s timeout and nothing that should take it: it must end seconds before. */
const FAR_BELOW_TIMEOUT = 5000;

const GET = 'GET /slow HTTP/1.1\r\nHost: localhost\r\n\r\n';

for (const [name, trestle] of entries) {
  describe(`${name}: shutdown`, () => {
    /** An app whose /slow waits for `release`, telling `entered` when it has the request. */
    function slowApp() {
      const app = trestle();
      const entered = latch();
      const release = latch();
      app.get('/slow', async (_req, res) => {
        entered.resolve();
        await release.promise;
        res.send('done');
      });
      app.get('/fast', (_req, res) => {
        res.send('fast');
      });
      return { app, entered, release };
    }

    test('an idle kept-alive connection is closed when the idle grace (1 s) ends, not at the timeout; the report counts it as idle', async () => {
      const { app } = slowApp();
      const { server, port } = await listenApp(app);
      const conn = await connectRaw(port);
      conn.socket.write('GET /fast HTTP/1.1\r\nHost: localhost\r\n\r\n');
      await conn.waitFor('fast');
      const report = await reported(trestle.shutdown(server, { timeout: 10_000 }));
      await closedBy(conn);
      assert.equal(heads(conn.received())[0]!.headers.connection, 'keep-alive');
      assert.deepEqual(
        { ...report, durationMs: 0 },
        { servers: 1, inFlight: 0, cut: 0, answered: 0, closedIdle: 1, closedBeforeRequest: 0, webSockets: 0, hookErrors: [], durationMs: 0 },
      );
      assert.ok(report.durationMs >= 900 && report.durationMs < FAR_BELOW_TIMEOUT, `took ${report.durationMs} ms (the grace is 1 s, the timeout 10 s)`);
      assert.equal(server.listening, false);
    });

    test('idleGrace: 0 closes an idle kept-alive connection at once', async () => {
      const { app } = slowApp();
      const { server, port } = await listenApp(app);
      const conn = await connectRaw(port);
      conn.socket.write('GET /fast HTTP/1.1\r\nHost: localhost\r\n\r\n');
      await conn.waitFor('fast');
      const report = await reported(trestle.shutdown(server, { timeout: 10_000, idleGrace: 0 }));
      await closedBy(conn);
      assert.deepEqual([report.closedIdle, report.closedBeforeRequest, report.cut], [1, 0, 0]);
      assert.ok(report.durationMs < 800, `took ${report.durationMs} ms with idleGrace 0`);
    });

    test('a server made with http.createServer(app) that has served nothing yet: a connection that never sent a request is closed after the grace, and counted so', async () => {
      const { app } = slowApp();
      const server = http.createServer(app);
      const port = await listening(server);
      const conn = await connectRaw(port);
      const report = await reported(trestle.shutdown(server, { timeout: 10_000 }));
      await closedBy(conn);
      assert.equal(conn.received(), '');
      assert.deepEqual([report.servers, report.inFlight, report.cut, report.closedIdle, report.closedBeforeRequest], [1, 0, 0, 0, 1]);
      assert.ok(report.durationMs < FAR_BELOW_TIMEOUT, `took ${report.durationMs} ms: the timeout (10 s) was waited for`);
      assert.equal(server.listening, false);
    });

    test('a request in flight finishes, answered with Connection: close, then its connection closes', async () => {
      const { app, entered, release } = slowApp();
      const { server, port } = await listenApp(app);
      const conn = await connectRaw(port);
      conn.socket.write(GET);
      await within(entered.promise, 'request reaching /slow');
      const shutdown = app.shutdown({ timeout: 10_000 });
      assert.equal(app.shuttingDown, true);
      release.resolve();
      const raw = await closedBy(conn);
      const [head] = heads(raw);
      assert.equal(head!.status, 200);
      assert.equal(head!.headers.connection, 'close');
      assert.match(raw, /done$/);
      const report = await reported(shutdown);
      assert.deepEqual([report.inFlight, report.answered, report.cut, report.closedIdle], [1, 1, 0, 0]);
      // Its connection closed with its answer: nothing waited for the idle grace.
      assert.ok(report.durationMs < 900, `took ${report.durationMs} ms`);
    });

    test('an answer already streaming (head sent with keep-alive) runs to its end, then its connection is closed', async () => {
      const app = trestle();
      const release = latch();
      app.get('/stream', async (_req, res) => {
        res.write('a');
        await release.promise;
        res.end('b');
      });
      const { server, port } = await listenApp(app);
      const conn = await connectRaw(port);
      conn.socket.write('GET /stream HTTP/1.1\r\nHost: localhost\r\n\r\n');
      await conn.waitFor('\r\na\r\n');
      const shutdown = trestle.shutdown(server);
      release.resolve();
      const raw = await closedBy(conn);
      assert.equal(heads(raw)[0]!.headers.connection, 'keep-alive');
      assert.match(raw, /\r\nb\r\n0\r\n\r\n$/);
      const report = await reported(shutdown);
      // Kept alive, it is idle once its answer is out: closed at the end of the grace, as idle.
      assert.deepEqual([report.inFlight, report.answered, report.cut, report.closedIdle], [1, 1, 0, 1]);
      assert.ok(report.durationMs < FAR_BELOW_TIMEOUT, `took ${report.durationMs} ms`);
    });

    test('a request that arrives during the shutdown on an open connection is served with Connection: close', async () => {
      const { app, entered, release } = slowApp();
      const server = http.createServer(app);
      const port = await listening(server);
      // A first request makes the app adopt (and watch) the server.
      const first = await connectRaw(port);
      first.socket.write(GET);
      await within(entered.promise, 'request reaching /slow');
      const late = await halfHead(server, port);
      const shutdown = trestle.shutdown(server);
      late.socket.write('\r\n');
      const raw = await closedBy(late);
      assert.equal(heads(raw)[0]!.status, 200);
      assert.equal(heads(raw)[0]!.headers.connection, 'close');
      assert.match(raw, /fast$/);
      release.resolve();
      await closedBy(first);
      const report = await reported(shutdown);
      assert.deepEqual([report.cut, report.inFlight, report.answered], [0, 1, 2]);
      assert.ok(report.durationMs < FAR_BELOW_TIMEOUT, `took ${report.durationMs} ms`);
    });

    test('refuse: a request arriving during the shutdown gets 503 with Retry-After', async () => {
      const { app, entered, release } = slowApp();
      const { server, port } = await listenApp(app);
      const first = await connectRaw(port);
      first.socket.write(GET);
      await within(entered.promise, 'request reaching /slow');
      const late = await halfHead(server, port);
      const shutdown = trestle.shutdown(server, { refuse: true, retryAfter: 7 });
      late.socket.write('\r\n');
      const [head] = heads(await closedBy(late));
      assert.equal(head!.status, 503);
      assert.equal(head!.headers['retry-after'], '7');
      assert.equal(head!.headers.connection, 'close');
      release.resolve();
      const [slow] = heads(await closedBy(first));
      assert.equal(slow!.status, 200);
      const report = await reported(shutdown);
      assert.ok(report.durationMs < FAR_BELOW_TIMEOUT, `took ${report.durationMs} ms`);
    });

    test('readiness: from the start of the shutdown the health route answers 503; during readinessDelay new connections are still served', async () => {
      const { app } = slowApp();
      app.get('/health', (req, res) => {
        res.status(req.app.shuttingDown ? 503 : 200).send(req.app.shuttingDown ? 'draining' : 'ok');
      });
      const { server, port } = await listenApp(app);
      const keepAlive = { connection: 'keep-alive' };
      const before = await answerTo(port, 'GET', '/health', keepAlive);
      assert.deepEqual([before.status, before.headers.connection], [200, 'keep-alive']);
      const shutdown = app.shutdown({ readinessDelay: '1500ms' });
      const health = await answerTo(port, 'GET', '/health', keepAlive);
      assert.deepEqual([health.status, health.body, health.headers.connection], [503, 'draining', 'close']);
      const fast = await answerTo(port, 'GET', '/fast');
      assert.deepEqual([fast.status, fast.body], [200, 'fast']);
      const report = await reported(shutdown);
      // The delay, then nothing left open: no idle grace to wait for.
      assert.ok(report.durationMs >= 1400 && report.durationMs < FAR_BELOW_TIMEOUT, `took ${report.durationMs} ms (readinessDelay 1.5 s)`);
      assert.equal(report.answered, 2);
      assert.equal(server.listening, false);
    });

    test('a mounted app sees its parent shutting down', async () => {
      const app = trestle();
      const sub = trestle();
      app.use('/sub', sub);
      assert.equal(sub.shuttingDown, false);
      const report = await reported(app.shutdown());
      assert.equal(sub.shuttingDown, true);
      assert.ok(report.durationMs < 500, `took ${report.durationMs} ms with no server`);
    });

    test('after the timeout, what is left is cut and counted; then the hooks run, in order, errors collected', async () => {
      const app = trestle();
      const entered = latch();
      app.get('/never', () => entered.resolve());
      const order: string[] = [];
      const failure = new Error('db close failed');
      app.onShutdown(() => {
        order.push('app');
        throw failure;
      });
      const { server, port } = await listenApp(app);
      const conn = await connectRaw(port);
      conn.socket.write('GET /never HTTP/1.1\r\nHost: localhost\r\n\r\n');
      await within(entered.promise, 'request reaching /never');
      const report = await reported(trestle.shutdown(server, {
        timeout: '50ms',
        hooks: [
          async () => {
            const open = await new Promise<number>((r) => server.getConnections((_err, n) => r(n)));
            order.push(`option, connections open: ${open}`);
          },
        ],
      }));
      assert.equal(await closedBy(conn), '');
      assert.ok(report.durationMs >= 45 && report.durationMs < 2000, `took ${report.durationMs} ms with a 50 ms timeout`);
      assert.equal(report.cut, 1);
      assert.equal(report.answered, 0);
      assert.equal(report.inFlight, 1);
      assert.deepEqual(report.hookErrors, [failure]);
      assert.deepEqual(order, ['app', 'option, connections open: 0']);
    });

    test("a second shutdown call waits for the same one; the app's hooks run once", async () => {
      const { app } = slowApp();
      let runs = 0;
      app.onShutdown(() => void (runs += 1));
      await listenApp(app);
      const [first, second] = await reported(Promise.all([app.shutdown(), trestle.shutdown(app)]));
      assert.deepEqual([first.servers, second.servers, runs], [1, 1, 1]);
      assert.ok(first.durationMs < FAR_BELOW_TIMEOUT && second.durationMs < FAR_BELOW_TIMEOUT, `took ${first.durationMs} / ${second.durationMs} ms`);
    });

    test('several servers at once: app.listen() and an https server of the same app', async () => {
      const { app } = slowApp();
      const { server: plain } = await listenApp(app);
      const secure = https.createServer(tls, app);
      const securePort = await listening(secure as unknown as http.Server);
      const body = await within(new Promise<string>((resolve, reject) => {
        https.get({ host: '127.0.0.1', port: securePort, path: '/fast', rejectUnauthorized: false, agent: false }, (res) => {
          let d = '';
          res.on('data', (c: Buffer) => (d += c));
          res.on('end', () => resolve(d));
        }).on('error', reject);
      }), 'answer over HTTPS');
      assert.equal(body, 'fast');
      const report = await reported(app.shutdown());
      assert.equal(report.servers, 2);
      assert.ok(report.durationMs < FAR_BELOW_TIMEOUT, `took ${report.durationMs} ms`);
      assert.equal(plain.listening, false);
      assert.equal(secure.listening, false);
    });

    for (const mode of ['h2c', 'h2'] as const) {
      test(`HTTP/2 (${mode}): the session gets a GOAWAY, the stream in flight finishes`, async () => {
        const { app, entered, release } = slowApp();
        const served = await serveH2(app, mode);
        const session = connect(served.origin);
        session.on('error', () => undefined);
        const goaway = new Promise((r) => session.once('goaway', r));
        const answer = h2Request(session, '/slow');
        await within(entered.promise, 'request reaching /slow');
        const shutdown = trestle.shutdown(served.server);
        await within(goaway, 'GOAWAY');
        release.resolve();
        const res = await within(answer, 'answer to the stream in flight');
        assert.equal(res.status, 200);
        assert.equal(res.text, 'done');
        const report = await reported(shutdown);
        assert.deepEqual([report.inFlight, report.answered, report.cut], [1, 1, 0]);
        // The session closes with its last stream: no grace, no timeout.
        assert.ok(report.durationMs < 900, `took ${report.durationMs} ms`);
        session.destroy();
      });

      test(`HTTP/2 (${mode}): refuse during the readiness delay: a new stream gets 503 with Retry-After`, async () => {
        const { app } = slowApp();
        const served = await serveH2(app, mode);
        assert.equal((await within(served.request('/fast'), 'answer before the shutdown')).status, 200);
        const shutdown = trestle.shutdown(served.server, { refuse: true, readinessDelay: '1s' });
        const session = connect(served.origin);
        session.on('error', () => undefined);
        const refused = await within(h2Request(session, '/fast'), 'answer during the readiness delay');
        assert.deepEqual([refused.status, refused.headers['retry-after']], [503, '5']);
        session.destroy();
        await within(served.close(), 'close of the server');
        const report = await reported(shutdown);
        assert.ok(report.durationMs < FAR_BELOW_TIMEOUT, `took ${report.durationMs} ms`);
      });
    }
  });
}
