// WebSockets over HTTP/2 (RFC 8441 extended CONNECT), on the same app as
// HTTP/1.1. The client is node's HTTP/2 client sending `:method: CONNECT`
// and `:protocol: websocket`, with a minimal WebSocket framer of its own.
import assert from 'node:assert/strict';
import * as http2 from 'node:http2';
import type { AddressInfo } from 'node:net';
import { describe, test } from 'node:test';
import trestle from 'trestle';
import { within } from './helpers';

/** A masked client text frame (payload under 126 bytes). */
function textFrame(text: string): Buffer {
  const payload = Buffer.from(text);
  const mask = Buffer.from([9, 8, 7, 6]);
  return Buffer.concat([Buffer.from([0x81, 0x80 | payload.length]), mask, Buffer.from(payload.map((b, i) => b ^ mask[i % 4]!))]);
}

/** The unmasked server frames in `data` (payloads under 126 bytes): opcode and payload. */
function frames(data: Buffer): Array<{ opcode: number; payload: Buffer }> {
  const out: Array<{ opcode: number; payload: Buffer }> = [];
  let i = 0;
  while (i + 2 <= data.length) {
    const len = data[i + 1]! & 0x7f;
    if (i + 2 + len > data.length) break;
    out.push({ opcode: data[i]! & 0x0f, payload: data.subarray(i + 2, i + 2 + len) });
    i += 2 + len;
  }
  return out;
}

function serveH2(app: ReturnType<typeof trestle>): Promise<{ server: http2.Http2Server; origin: string }> {
  const server = http2.createServer({ settings: { enableConnectProtocol: true } }, app);
  trestle.attachWebSockets(server as never, app);
  return within(
    new Promise((resolve) => server.listen(0, '127.0.0.1', () => resolve({ server, origin: `http://127.0.0.1:${(server.address() as AddressInfo).port}` }))),
    3000,
    "no 'listening'",
  );
}

async function connectStream(origin: string, path: string, headers: http2.OutgoingHttpHeaders = {}) {
  const session = http2.connect(origin);
  session.on('error', () => {});
  await within(new Promise<void>((resolve) => session.once('remoteSettings', (s) => (s.enableConnectProtocol ? resolve() : undefined))), 3000, 'the server did not advertise enableConnectProtocol');
  const stream = session.request({ ':method': 'CONNECT', ':protocol': 'websocket', ':path': path, ':scheme': 'http', ':authority': origin.slice(7), 'sec-websocket-version': '13', ...headers }, { endStream: false });
  const response = await within(new Promise<http2.IncomingHttpHeaders>((resolve, reject) => {
    stream.once('response', resolve);
    stream.once('error', reject);
  }), 3000, 'no response to the extended CONNECT');
  let data = Buffer.alloc(0);
  stream.on('data', (c: Buffer) => (data = Buffer.concat([data, c])));
  return { session, stream, status: Number(response[':status']), received: () => data };
}

describe('WebSockets over HTTP/2 (RFC 8441)', () => {
  test('extended CONNECT reaches the ws route through middleware and params; frames flow both ways', async () => {
    const app = trestle();
    app.use((req, res, next) => {
      if (req.headers.authorization !== 'Bearer ok') return void res.status(401).send('no');
      next();
    });
    app.ws('/echo/:id', (ws, req) => {
      ws.on('message', (d) => ws.send(`${req.params.id}:${String(d)}:h${req.httpVersionMajor}`));
    });
    const { server, origin } = await serveH2(app);
    try {
      const refused = await connectStream(origin, '/echo/1');
      assert.equal(refused.status, 401);
      refused.session.close();
      const missing = await connectStream(origin, '/nowhere', { authorization: 'Bearer ok' });
      assert.equal(missing.status, 404);
      missing.session.close();
      const c = await connectStream(origin, '/echo/42', { authorization: 'Bearer ok' });
      assert.equal(c.status, 200);
      c.stream.write(textFrame('hello'));
      await within(
        (async () => {
          while (frames(c.received()).length === 0) await new Promise((r) => setTimeout(r, 5));
        })(),
        3000,
        'no WebSocket frame back over the HTTP/2 stream',
      );
      const [reply] = frames(c.received());
      assert.equal(reply!.opcode, 1);
      assert.equal(String(reply!.payload), '42:hello:h2');
      c.stream.close();
      c.session.close();
    } finally {
      server.close();
    }
  });

  test('shutdown() sends 1001 to a socket on an HTTP/2 stream and finishes before its timeout', async () => {
    const app = trestle();
    app.ws('/live', () => {});
    const { server, origin } = await serveH2(app);
    try {
      const c = await connectStream(origin, '/live');
      assert.equal(c.status, 200);
      const started = Date.now();
      const report = await within(trestle.shutdown(server as never, { timeout: 10_000 }), 5000, 'shutdown did not finish');
      const close = frames(c.received()).find((f) => f.opcode === 8);
      assert.ok(close !== undefined, 'no close frame on the stream');
      assert.equal(close.payload.readUInt16BE(0), 1001);
      assert.ok(Date.now() - started < 5000);
      void report;
      c.session.destroy();
    } finally {
      server.close();
    }
  });
});
