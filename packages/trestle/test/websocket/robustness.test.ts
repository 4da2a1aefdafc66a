// Bad clients never take the process down: invalid frames, floods of small
// messages, clients that vanish mid-message, slow readers (backpressure),
// and the origin check. Raw frames are written by hand over net sockets.
import assert from 'node:assert/strict';
import * as net from 'node:net';
import { describe, test } from 'node:test';
import trestle from 'trestle';
import { ask, open, serve, stop, within } from './helpers';

/** A raw client past the handshake: the socket and what it has received after the 101. */
async function rawOpen(port: number, path: string): Promise<{ socket: net.Socket; received: () => Buffer }> {
  const socket = net.connect(port, '127.0.0.1');
  let data = Buffer.alloc(0);
  socket.on('data', (chunk: Buffer) => (data = Buffer.concat([data, chunk])));
  socket.on('error', () => {});
  socket.write(`GET ${path} HTTP/1.1\r\nHost: 127.0.0.1\r\nUpgrade: websocket\r\nConnection: Upgrade\r\nSec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==\r\nSec-WebSocket-Version: 13\r\n\r\n`);
  await within(
    (async () => {
      while (!data.includes('\r\n\r\n')) await new Promise((r) => setTimeout(r, 5));
    })(),
    3000,
    'no handshake answer',
  );
  assert.match(data.toString('latin1'), /^HTTP\/1\.1 101/);
  const headEnd = data.indexOf('\r\n\r\n') + 4;
  return { socket, received: () => data.subarray(headEnd) };
}

/** A masked client frame (clients must mask). */
function frame(opcode: number, payload: Buffer, fin = true): Buffer {
  const mask = Buffer.from([1, 2, 3, 4]);
  const len = payload.length;
  const head = len < 126 ? Buffer.from([(fin ? 0x80 : 0) | opcode, 0x80 | len]) : Buffer.from([(fin ? 0x80 : 0) | opcode, 0x80 | 126, len >> 8, len & 255]);
  const body = Buffer.from(payload.map((b, i) => b ^ mask[i % 4]!));
  return Buffer.concat([head, mask, body]);
}

function echoApp() {
  const app = trestle();
  const closes: number[] = [];
  app.ws('/echo', (ws) => {
    let count = 0;
    ws.on('message', (d) => {
      count += 1;
      if (String(d) === 'count?') ws.send(String(count));
      else if (count % 1000 === 0) ws.send(`at ${count}`);
    });
    ws.on('close', (code) => closes.push(code));
  });
  return { app, closes };
}

describe('WebSockets against bad clients', () => {
  test('an invalid frame (reserved opcode) closes that socket with 1002; others keep working', async () => {
    const { app } = echoApp();
    const { server, port } = await serve(app);
    try {
      const raw = await rawOpen(port, '/echo');
      raw.socket.write(frame(0x3, Buffer.from('x')));
      await within(new Promise((r) => raw.socket.once('close', r)), 3000, 'the server did not close the bad socket');
      const closeFrame = raw.received();
      assert.equal(closeFrame[0]! & 0x0f, 0x8, 'a close frame came back');
      assert.equal(closeFrame.readUInt16BE(2), 1002);
      const good = await open(`ws://127.0.0.1:${port}/echo`);
      assert.equal(await ask(good, 'count?'), '1');
      good.close();
    } finally {
      await stop(server);
    }
  });

  test('a client that vanishes mid-message is let go; the server lives on', async () => {
    const { app, closes } = echoApp();
    const { server, port } = await serve(app);
    try {
      const raw = await rawOpen(port, '/echo');
      // A 1000-byte frame announced, 10 bytes sent, then gone.
      raw.socket.write(frame(0x1, Buffer.alloc(1000, 97)).subarray(0, 18));
      raw.socket.destroy();
      await within(
        (async () => {
          while (closes.length === 0) await new Promise((r) => setTimeout(r, 5));
        })(),
        3000,
        "no server-side 'close' for the vanished client",
      );
      assert.equal(closes[0], 1006);
      const good = await open(`ws://127.0.0.1:${port}/echo`);
      assert.equal(await ask(good, 'count?'), '1');
      good.close();
    } finally {
      await stop(server);
    }
  });

  test('a flood of 20 000 small messages is read in order and in bounded time', async () => {
    const { app } = echoApp();
    const { server, port } = await serve(app);
    try {
      const raw = await rawOpen(port, '/echo');
      const one = frame(0x1, Buffer.from('m'));
      const started = Date.now();
      raw.socket.write(Buffer.concat(Array.from({ length: 20_000 }, () => one)));
      raw.socket.write(frame(0x1, Buffer.from('count?')));
      await within(
        (async () => {
          while (!raw.received().includes('20001')) await new Promise((r) => setTimeout(r, 10));
        })(),
        10_000,
        'no count after the flood',
      );
      assert.ok(Date.now() - started < 10_000);
      raw.socket.destroy();
    } finally {
      await stop(server);
    }
  });

  test('backpressure: bufferedAmount grows while the client does not read; send callbacks come once it does', async () => {
    const app = trestle();
    let report!: (v: { peak: number; written: Promise<void> }) => void;
    const reported = new Promise<{ peak: number; written: Promise<void> }>((r) => (report = r));
    app.ws('/firehose', (ws) => {
      const chunk = Buffer.alloc(256 * 1024, 1);
      let peak = 0;
      const callbacks: Array<Promise<void>> = [];
      // Bounded: at most 64 chunks (16 MiB), stopping once 4 MiB wait in the queue.
      for (let i = 0; i < 64 && ws.bufferedAmount < 4 * 1024 * 1024; i++) {
        callbacks.push(new Promise((resolve, reject) => ws.send(chunk, (err) => (err ? reject(err) : resolve()))));
        peak = Math.max(peak, ws.bufferedAmount);
      }
      report({ peak, written: Promise.all(callbacks).then(() => undefined) });
    });
    const { server, port } = await serve(app);
    try {
      const raw = await rawOpen(port, '/firehose');
      raw.socket.pause();
      const { peak, written } = await within(reported, 3000, 'the handler did not report');
      assert.ok(peak > 1024 * 1024, `bufferedAmount stayed at ${peak} while the client read nothing`);
      raw.socket.resume();
      await within(written, 10_000, 'no send callbacks once the client read');
      raw.socket.destroy();
    } finally {
      await stop(server);
    }
  });

  test('trestle.checkOrigin refuses other origins with 403 and lets the allowed one in', async () => {
    const app = trestle();
    app.ws('/live', trestle.checkOrigin(['https://example.com']), (ws) => ws.send('in'));
    const { server, port } = await serve(app);
    try {
      await assert.rejects(open(`ws://127.0.0.1:${port}/live`, { origin: 'https://evil.example' }), { status: 403 });
      await assert.rejects(open(`ws://127.0.0.1:${port}/live`), { status: 403 });
      const ok = await open(`ws://127.0.0.1:${port}/live`, { origin: 'https://example.com' });
      ok.close();
    } finally {
      await stop(server);
    }
  });
});
