// The same `app.ws()` route served through `app.fetch` on the real Bun
// (Bun.serve with trestle.bunWebSocket) and Deno (Deno.serve), with a `ws`
// client from Node: the app's middleware runs first and can refuse, the
// handler gets a `ws`-shaped socket (text and binary, params, readyState,
// bufferedAmount, send's callback, close codes, ping on Bun), the message
// limit closes with 1009, req.signal aborts on close, and logline writes
// one line per upgrade. runtime-app.cjs is the app.
import assert from 'node:assert/strict';
import { join } from 'node:path';
import { describe, test } from 'node:test';
import { bun, deno, missing, start, type Runtime, type Started } from '../runtimes/spawn';
import { ask, closed, nextMessage, open, within, WebSocket } from './helpers';

const APP = join(__dirname, 'runtime-app.cjs');

async function served(runtime: Runtime, entry: string, use: (server: Started, url: (path: string) => string) => Promise<void>): Promise<void> {
  const server = await start(runtime, APP, [entry]);
  try {
    await use(server, (path) => `ws://127.0.0.1:${server.port}${path}`);
  } finally {
    await server.stop();
  }
}

/** The refusal a client sees (status and body), or a failure naming the open that should not have happened. */
async function refusal(url: string): Promise<{ status: number; body: string }> {
  try {
    const ws = await open(url);
    ws.terminate();
  } catch (err) {
    const { status, body } = err as { status?: number; body?: string };
    if (status !== undefined) return { status, body: body ?? '' };
    throw err;
  }
  throw new Error(`${url} opened; a refusal was expected`);
}

for (const runtime of [bun, deno]) {
  describe(`${runtime.name}: app.ws() through app.fetch`, { skip: missing(runtime) }, () => {
    test('middleware runs first and refuses; the handler gets params, text and binary, readyState, bufferedAmount and close codes', async () => {
      await served(runtime, 'trestle', async (server, url) => {
        assert.deepEqual(await refusal(url('/rooms/blue')), { status: 401, body: 'no token' });
        assert.equal((await refusal(url('/nowhere?token=yes'))).status, 404, 'an upgrade no ws route takes gets 404');

        const ws = await open(url('/rooms/blue?token=yes'));
        assert.equal(await nextMessage(ws, 'no greeting'), 'ada joined blue', 'the middleware ran before the handler (req.user)');
        assert.equal(await ask(ws, 'hello'), 'blue: hello');
        assert.deepEqual(JSON.parse(await ask(ws, 'state')), { readyState: 1, OPEN: 1, bufferedAmount: 'number', data: true });
        ws.send('callback');
        assert.equal(await nextMessage(ws, 'no message before the callback'), 'sent');
        assert.equal(await nextMessage(ws, "no send() callback"), 'callback ok');
        const binary = within(new Promise<[Buffer, boolean]>((resolve) => ws.once('message', (d, isBinary) => resolve([d as Buffer, isBinary]))), 3000, 'no binary echo');
        ws.send(Buffer.from([1, 2, 3]));
        assert.deepEqual(await binary, [Buffer.from([1, 2, 3]), true]);
        if (runtime === bun) {
          // Deno's WebSocket sends no pings of its own (docs/websockets.md).
          const ping = within(new Promise<string>((resolve) => ws.once('ping', (d) => resolve(String(d)))), 3000, 'no ping');
          ws.send('ping');
          assert.equal(await ping, 'p');
        }
        const bye = closed(ws, 3000, 'no close after "bye"');
        ws.send('bye');
        assert.deepEqual(await bye, { code: 4000, reason: 'bye' });

        const lines = await server.logLines(4);
        assert.deepEqual(lines.slice(0, 3), ['GET /rooms/blue 401', 'GET /nowhere?token=yes 404', 'GET /rooms/blue?token=yes 101']);
        assert.equal(lines[3], 'aborted blue', 'req.signal aborts when the socket closes');
      });
    });

    test('a message over `websocket max payload` closes with 1009; the server keeps serving', async () => {
      await served(runtime, 'trestle', async (_server, url) => {
        const ws = await open(url('/rooms/red?token=yes'));
        await nextMessage(ws, 'no greeting');
        ws.send('x'.repeat(2048));
        assert.equal((await closed(ws, 3000, 'no close after an oversized message')).code, 1009);
        const again = await open(url('/rooms/red?token=yes'));
        assert.equal(await nextMessage(again, 'no greeting on the next socket'), 'ada joined red');
        again.close();
      });
    });

    for (const entry of ['v4', 'legacy']) {
      test(`trestle/${entry}: the same route`, async () => {
        await served(runtime, entry, async (_server, url) => {
          assert.equal((await refusal(url('/rooms/green'))).status, 401);
          const ws = await open(url('/rooms/green?token=yes'));
          assert.equal(await nextMessage(ws, 'no greeting'), 'ada joined green');
          assert.equal(await ask(ws, 'hi'), 'green: hi');
          ws.close();
          assert.equal(ws.readyState === WebSocket.CLOSING || ws.readyState === WebSocket.CLOSED, true);
        });
      });
    }
  });
}
