// The server limits app.listen() applies (docs/production.md#server-limits),
// seen by a client over a real socket, on every entry.
import assert from 'node:assert/strict';
import * as http from 'node:http';
import type { AddressInfo } from 'node:net';
import { describe, test } from 'node:test';
import { rawRequest } from './helpers';
import { connectRaw, entries, heads } from './lifecycle-helpers';

async function listenApp(app: { listen(port: number, host: string): http.Server }): Promise<{ server: http.Server; port: number }> {
  const server = app.listen(0, '127.0.0.1');
  await new Promise((r) => server.once('listening', r));
  return { server, port: (server.address() as AddressInfo).port };
}

const keepAlive = { connection: 'keep-alive' };

for (const [name, trestle] of entries) {
  describe(`${name}: server limits`, () => {
    function app() {
      const a = trestle();
      a.get('/count', (req, res) => {
        res.send(String(Object.keys(req.headers).length));
      });
      return a;
    }

    test('app.listen(): keep-alive for 65 s (Keep-Alive: timeout=65), the timeouts and caps set', async () => {
      const { server, port } = await listenApp(app());
      const answer = await rawRequest(port, 'GET', '/count', keepAlive);
      assert.equal(answer.headers['keep-alive'], 'timeout=65');
      assert.deepEqual(
        [server.keepAliveTimeout, server.headersTimeout, server.requestTimeout, server.maxHeadersCount],
        [65_000, 66_000, 300_000, 200],
      );
      server.close();
    });

    test('a head over 16 KiB gets 431; headers past 200 are not read', async () => {
      const { server, port } = await listenApp(app());
      const big = await rawRequest(port, 'GET', '/count', { 'x-big': 'a'.repeat(17_000) });
      assert.equal(big.status, 431);
      // Host first, as clients send it (a Host past the cap would be dropped too: 400).
      const conn = await connectRaw(port);
      const lines = Array.from({ length: 250 }, (_, i) => `X-H${i}: 1\r\n`).join('');
      conn.socket.write(`GET /count HTTP/1.1\r\nHost: localhost\r\n${lines}Connection: close\r\n\r\n`);
      const raw = await conn.closed;
      assert.equal(heads(raw)[0]!.status, 200);
      assert.equal(raw.slice(raw.indexOf('\r\n\r\n') + 4), '200');
      server.close();
    });

    test("the 'server limits' setting changes some, keeping the other defaults; false keeps node's", async () => {
      const a = app();
      a.set('server limits', { keepAliveTimeout: 75_000, headersTimeout: 76_000 });
      const { server, port } = await listenApp(a);
      assert.equal((await rawRequest(port, 'GET', '/count', keepAlive)).headers['keep-alive'], 'timeout=75');
      assert.equal(server.maxHeadersCount, 200);
      server.close();
      const b = app();
      b.set('server limits', false);
      const plain = await listenApp(b);
      assert.equal((await rawRequest(plain.port, 'GET', '/count', keepAlive)).headers['keep-alive'], 'timeout=5');
      plain.server.close();
    });

    test('an invalid setting is a TypeError at listen; applyServerLimits() gives a server made elsewhere the same limits', () => {
      const a = app();
      a.set('server limits', { keepAliveTimeout: 'long' } as never);
      assert.throws(() => a.listen(0), { name: 'TypeError', code: 'TRESTLE_ERR_INVALID_SETTING' });
      const server = trestle.applyServerLimits(http.createServer(app()));
      assert.deepEqual([server.keepAliveTimeout, server.headersTimeout], [65_000, 66_000]);
    });
  });
}
