// app.ws() and router.ws() on Node's HTTP/1.1 server, over real sockets, on
// every entry: middleware, params, param triggers, mounted routers, refusals.
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import * as http from 'node:http';
import * as https from 'node:https';
import { join } from 'node:path';
import { describe, test } from 'node:test';
import { WebSocketServer } from 'ws';
import { entries } from '../lifecycle-helpers';
import { ask, closed, nextMessage, listen, open, serve, stop, within, WebSocket } from './helpers';

type AnyApp = ReturnType<(typeof entries)[number][1]>;

/** The generation's own syntax for an optional segment. */
const optional: Record<string, string> = { trestle: '{/:mood}', 'trestle/v4': '/:mood?', 'trestle/legacy': '/:mood?' };

function chatApp(factory: (typeof entries)[number][1], name: string): AnyApp {
  const app = factory();
  const seen: string[] = [];
  const chat = factory.Router();
  app.use((req, _res, next) => {
    // An app.use() middleware sees the upgrade first, as an auth check would.
    (req as unknown as { user?: string }).user = String(req.headers['x-user'] ?? 'anon');
    seen.push('use');
    next();
  });
  app.use((req, res, next) => {
    if (req.headers['x-user'] === 'mallory') {
      res.status(401).send('no');
      return;
    }
    next();
  });
  chat.param('room', (req, _res, next, value: string) => {
    (req as unknown as { roomUpper?: string }).roomUpper = value.toUpperCase();
    next();
  });
  chat.ws(
    `/room/:room${optional[name]}` as `/room/:room/:mood`,
    (req: object, _res: unknown, next: () => void) => {
      (req as { routeMw?: boolean }).routeMw = true;
      next();
    },
    (ws, req) => {
      const r = req as unknown as { user: string; roomUpper: string; routeMw: boolean };
      ws.on('message', (data) => ws.send(`${String(data)}|${req.params.room}|${req.params.mood ?? '-'}|${r.roomUpper}|${r.user}|${r.routeMw}|${req.baseUrl}|${seen.length > 0}`));
    },
  );
  app.use('/chat', chat);
  app.get('/plain', (_req, res) => res.send('plain page'));
  app.ws('/plain', (ws) => ws.send('plain socket'));
  return app;
}

for (const [name, factory] of entries) {
  describe(`${name}: ws routes on app.listen()`, () => {
    test('middleware, params, param triggers and a mounted router run before the socket opens', async () => {
      const { server, port } = await serve(chatApp(factory, name));
      try {
        const ws = await open(`ws://127.0.0.1:${port}/chat/room/lobby/happy`, { headers: { 'x-user': 'ada' } });
        assert.equal(await ask(ws, 'hi'), 'hi|lobby|happy|LOBBY|ada|true|/chat|true');
        ws.close();
        const bare = await open(`ws://127.0.0.1:${port}/chat/room/den`);
        assert.equal(await ask(bare, 'yo'), 'yo|den|-|DEN|anon|true|/chat|true');
        bare.close();
      } finally {
        await stop(server);
      }
    });

    test('a middleware that answers refuses the upgrade with its status and body; no route gives 404', async () => {
      const { server, port } = await serve(chatApp(factory, name));
      try {
        await assert.rejects(open(`ws://127.0.0.1:${port}/chat/room/lobby`, { headers: { 'x-user': 'mallory' } }), { status: 401, body: 'no' });
        await assert.rejects(open(`ws://127.0.0.1:${port}/nowhere`), { status: 404 });
      } finally {
        await stop(server);
      }
    });

    test('a GET route and a ws route share a path; a plain GET never reaches a ws route', async () => {
      const { server, port } = await serve(chatApp(factory, name));
      try {
        const page = await fetch(`http://127.0.0.1:${port}/plain`);
        assert.equal(await page.text(), 'plain page');
        const ws = await open(`ws://127.0.0.1:${port}/plain`);
        const first = await nextMessage(ws, 'no greeting');
        assert.equal(first, 'plain socket');
        ws.close();
        const chatPage = await fetch(`http://127.0.0.1:${port}/chat/room/lobby`);
        assert.equal(chatPage.status, 404);
      } finally {
        await stop(server);
      }
    });
  });
}

describe('servers made outside the app', () => {
  test('http.createServer(app) with trestle.attachWebSockets', async () => {
    const trestle = entries[0][1];
    const app = trestle();
    app.ws('/echo/:id', (ws, req) => ws.on('message', (d) => ws.send(`${req.params.id}:${String(d)}`)));
    const server = trestle.attachWebSockets(http.createServer(app), app);
    const port = await listen(server);
    try {
      const ws = await open(`ws://127.0.0.1:${port}/echo/7`);
      assert.equal(await ask(ws, 'x'), '7:x');
      ws.close();
    } finally {
      await stop(server);
    }
  });

  test('https.createServer(options, app) with trestle.attachWebSockets (wss://)', async () => {
    const trestle = entries[0][1];
    const dir = join(__dirname, '..', 'fixtures', 'tls');
    const app = trestle();
    app.ws('/secure', (ws, req) => ws.send(`secure=${req.secure}`));
    const server = trestle.attachWebSockets(https.createServer({ key: readFileSync(join(dir, 'key.pem')), cert: readFileSync(join(dir, 'cert.pem')) }, app), app);
    const port = await listen(server);
    try {
      const ws = new WebSocket(`wss://127.0.0.1:${port}/secure`, { rejectUnauthorized: false });
      const first = await within(new Promise<string>((resolve, reject) => {
        ws.once('message', (d) => resolve(String(d)));
        ws.once('error', reject);
      }), 3000, 'no message over wss');
      assert.equal(first, 'secure=true');
      ws.close();
    } finally {
      await stop(server);
    }
  });

  test("another 'upgrade' listener keeps its paths; trestle takes only those it has a ws route for", async () => {
    const trestle = entries[0][1];
    const app = trestle();
    let middlewareSawOther = false;
    app.use((req, res, next) => {
      if (req.url === '/other') middlewareSawOther = true;
      // An auth check that would refuse everything else must not touch the other listener's sockets.
      if (req.headers['x-token'] !== 'ok') return void res.status(401).send('no');
      next();
    });
    app.ws('/mine', (ws) => ws.send('trestle'));
    const { server, port } = await serve(app);
    // A listener owning /other and ignoring the rest, as socket.io owns /socket.io/ (ws's own multi-server pattern).
    const other = new WebSocketServer({ noServer: true });
    server.on('upgrade', (req, socket, head) => {
      if (req.url === '/other') other.handleUpgrade(req, socket, head, (ws) => ws.send('other'));
    });
    try {
      const a = await open(`ws://127.0.0.1:${port}/other`);
      assert.equal(await nextMessage(a, 'no message from the other server'), 'other');
      a.close();
      const b = await open(`ws://127.0.0.1:${port}/mine`, { headers: { 'x-token': 'ok' } });
      assert.equal(await nextMessage(b, 'no message from trestle'), 'trestle');
      b.close();
      await assert.rejects(open(`ws://127.0.0.1:${port}/mine`), { status: 401 });
      assert.equal(middlewareSawOther, false, "trestle's middleware ran for the other listener's path");
    } finally {
      other.close();
      await stop(server);
    }
  });

  test('a handler that throws closes the socket with 1011; the process lives on', async () => {
    const trestle = entries[0][1];
    const app = trestle();
    app.set('env', 'test');
    app.ws('/boom', () => {
      throw new Error('handler failed');
    });
    app.ws('/later', async () => {
      await Promise.resolve();
      throw new Error('async handler failed');
    });
    const { server, port } = await serve(app);
    try {
      for (const path of ['/boom', '/later']) {
        const ws = await open(`ws://127.0.0.1:${port}${path}`);
        assert.equal((await closed(ws, 3000, `no close after ${path} threw`)).code, 1011);
      }
    } finally {
      await stop(server);
    }
  });
});
