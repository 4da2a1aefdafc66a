// Production behaviour of WebSocket routes on Node: shutdown's 1001, the
// message size limit's 1009, req.signal, logline's line per upgrade, and
// `ws` loaded only by the first upgrade.
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { describe, test } from 'node:test';
import trestle from 'trestle';
import logline from 'logline-http';
import { closed, open, serve, stop, within } from './helpers';

describe('WebSockets in production', () => {
  test('shutdown() closes open sockets with 1001, counts them in its report and finishes well before its timeout', async () => {
    const app = trestle();
    let serverClosed!: () => void;
    const oneClosed = new Promise<void>((r) => (serverClosed = r));
    app.ws('/live', (ws) => ws.on('close', () => serverClosed()));
    const { server, port } = await serve(app);
    try {
      const sockets = await Promise.all([1, 2, 3].map(() => open(`ws://127.0.0.1:${port}/live`)));
      // One closed by its client before the shutdown: not counted.
      sockets[2]!.close();
      await within(oneClosed, 3000, "the server did not see the client's close");
      const closes = Promise.all(sockets.slice(0, 2).map((ws) => closed(ws, 5000, 'no close after shutdown')));
      closes.catch(() => {}); // awaited below, unless the shutdown itself fails first
      const report = await within(app.shutdown({ timeout: 10_000 }), 5000, 'shutdown did not finish');
      assert.deepEqual((await closes).map((c) => c.code), [1001, 1001]);
      assert.equal(report.webSockets, 2, 'report.webSockets counts the sockets sent 1001');
      assert.equal(report.cut, 0);
      // The clients answer the close frame: the shutdown ends with them (the idle grace is 1 s), not at its 10 s timeout.
      assert.ok(report.durationMs < 5000, `shutdown took ${report.durationMs} ms: it waited for its timeout instead of closing the sockets`);
    } finally {
      await stop(server).catch(() => {});
    }
  });

  test('a message over `websocket max payload` closes the socket with 1009; the server keeps serving', async () => {
    const app = trestle();
    app.set('websocket max payload', 1024);
    app.ws('/echo', (ws) => ws.on('message', (d) => ws.send(String(d))));
    const { server, port } = await serve(app);
    try {
      const ws = await open(`ws://127.0.0.1:${port}/echo`);
      ws.send('x'.repeat(2048));
      assert.equal((await closed(ws, 3000, 'no close after an oversized message')).code, 1009);
      const again = await open(`ws://127.0.0.1:${port}/echo`);
      again.close();
    } finally {
      await stop(server);
    }
  });

  test('req.signal aborts when the socket closes; logline writes one 101 line per upgrade and the refusal status', async () => {
    const app = trestle();
    const lines: string[] = [];
    app.use(logline(':method :url :status', { stream: { write: (l: string) => void lines.push(l.trim()) } }));
    let aborted!: () => void;
    const abortSeen = new Promise<void>((r) => (aborted = r));
    app.ws('/watch', (ws, req) => {
      req.signal.addEventListener('abort', () => aborted());
      ws.send('ready');
    });
    const { server, port } = await serve(app);
    try {
      const ws = await open(`ws://127.0.0.1:${port}/watch`);
      ws.close();
      await within(abortSeen, 3000, 'req.signal did not abort');
      await open(`ws://127.0.0.1:${port}/nope`).catch(() => {});
      await within(
        (async () => {
          while (lines.length < 2) await new Promise((r) => setTimeout(r, 10));
        })(),
        3000,
        'no two log lines',
      );
      assert.deepEqual(lines, ['GET /watch 101', 'GET /nope 404']);
    } finally {
      await stop(server);
    }
  });

  test('requiring trestle and registering ws routes does not load ws', () => {
    const script = `
      const trestle = require('trestle');
      const loaded = () => Object.keys(require.cache).some((f) => /[\\\\/]node_modules[\\\\/]ws[\\\\/]/.test(f));
      const before = loaded();
      const app = trestle();
      app.ws('/x', (ws) => ws.close());
      const server = app.listen(0, '127.0.0.1', () => {
        const WS = require(require.resolve('ws', { paths: [require.resolve('trestle')] }));
        const c = new WS('ws://127.0.0.1:' + server.address().port + '/x');
        c.on('close', () => { console.log(JSON.stringify({ before })); server.close(); });
      });`;
    const out = execFileSync(process.execPath, ['-e', script], { cwd: __dirname, timeout: 15_000 }).toString();
    assert.deepEqual(JSON.parse(out), { before: false });
  });
});
