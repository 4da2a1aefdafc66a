// The server limits app.listen() applies (docs/production.md#server-limits),
// seen by a client over a real socket, on every entry.
import assert from 'node:assert/strict';
import * as http from 'node:http';
import type { AddressInfo } from 'node:net';
import { describe, test } from 'node:test';
import { answerTo, connectRaw, entries, heads, within } from './lifecycle-helpers';

async function listenApp(app: { listen(port: number, host: string): http.Server }): Promise<{ server: http.Server; port: number }> {
  const server = app.listen(0, '127.0.0.1');
  await new Promise((r) => server.once('listening', r));
  return { server, port: (server.address() as AddressInfo).port };
}

const keepAlive = { connection: 'keep-alive' };

/** 250 headers after Host (as clients send it first); the status line and body of the answer. */
async function manyHeaders(port: number): Promise<[number, string]> {
  const conn = await connectRaw(port);
  const lines = Array.from({ length: 250 }, (_, i) => `X-H${i}: 1\r\n`).join('');
  conn.socket.write(`GET /count HTTP/1.1\r\nHost: localhost\r\n${lines}Connection: close\r\n\r\n`);
  const raw = await within(conn.closed, 'close of the connection after the answer');
  return [heads(raw)[0]!.status, raw.slice(raw.indexOf('\r\n\r\n') + 4)];
}

/** What a bare node server answering the header count gives `manyHeaders`, with `maxHeadersCount` set or node's default. */
async function bareAnswer(maxHeadersCount: number | undefined): Promise<[number, string]> {
  const server = http.createServer((req, res) => res.end(String(Object.keys(req.headers).length)));
  if (maxHeadersCount !== undefined) server.maxHeadersCount = maxHeadersCount;
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  try {
    return await manyHeaders((server.address() as AddressInfo).port);
  } finally {
    server.close();
  }
}

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
      const answer = await answerTo(port, 'GET', '/count', keepAlive);
      assert.equal(answer.headers['keep-alive'], 'timeout=65');
      assert.deepEqual(
        [server.keepAliveTimeout, server.headersTimeout, server.requestTimeout, server.maxHeadersCount],
        [65_000, 66_000, 300_000, 200],
      );
      server.close();
    });

    test('a head over 16 KiB gets 431; more than 200 headers are capped as node caps them', async () => {
      const { server, port } = await listenApp(app());
      try {
        const big = await answerTo(port, 'GET', '/count', { 'x-big': 'a'.repeat(17_000) });
        assert.equal(big.status, 431);
        // Node 20 drops the headers past maxHeadersCount; Node 22 and later
        // refuse the request with 431. Either way trestle's server answers as
        // a bare node server capped at 200 does, not as one with node's 2000.
        const answer = await manyHeaders(port);
        assert.deepEqual(answer, await bareAnswer(200));
        assert.notDeepEqual(answer, await bareAnswer(undefined));
      } finally {
        server.closeAllConnections();
        server.close();
      }
    });

    test("the 'server limits' setting changes some, keeping the other defaults; false keeps node's", async () => {
      const a = app();
      a.set('server limits', { keepAliveTimeout: 75_000, headersTimeout: 76_000 });
      const { server, port } = await listenApp(a);
      assert.equal((await answerTo(port, 'GET', '/count', keepAlive)).headers['keep-alive'], 'timeout=75');
      assert.equal(server.maxHeadersCount, 200);
      server.close();
      const b = app();
      b.set('server limits', false);
      const plain = await listenApp(b);
      assert.equal((await answerTo(plain.port, 'GET', '/count', keepAlive)).headers['keep-alive'], 'timeout=5');
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
