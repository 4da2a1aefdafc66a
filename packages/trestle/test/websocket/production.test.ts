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
  test('shutdown() closes open sockets with 1001 and finishes well before its timeout', async () => {
    const app = trestle();
    app.ws('/live', () => {});
    const { server, port } = await serve(app);
    try {
      const ws = await open(`ws://127.0.0.1:${port}/live`);
      const started = Date.now();
      const report = await within(app.shutdown({ timeout: 10_000 }), 5000, 'shutdown did not finish');
      const { code } = await closed(ws, 3000, 'no close after shutdown');
      assert.equal(code, 1001);
      assert.equal(report.cut, 0);
      assert.ok(Date.now() - started < 5000, 'shutdown waited for its timeout instead of closing the socket');
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
