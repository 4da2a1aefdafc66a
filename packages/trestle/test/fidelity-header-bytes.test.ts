// The bytes of a header value outside ASCII (`res.set('X-Name', 'café')`),
// read off a raw socket. node writes a response's head in the encoding of
// the first body chunk when that is a string, else in latin1. Express 5 and
// 4 send a string body as a Buffer when they tag it or when it is 1,000
// characters long: `é` goes out as the byte E9. Express 3 sent strings as
// strings: `é` went out as UTF-8 (C3 A9). Checked against express@5, @4 and
// @3 black-box, and each test runs on the real packages too (twin.ts).
import assert from 'node:assert/strict';
import type * as http from 'node:http';
import * as net from 'node:net';
import { describe } from 'node:test';
import { serve } from './helpers';
import { type Family, twinTest } from './twin';

type Generation = 'v5' | 'v4' | 'legacy';
const GENERATIONS: Generation[] = ['v5', 'v4', 'legacy'];

type Loose = Record<string, (...args: unknown[]) => unknown>;
type Handler = (req: unknown, res: Loose & http.ServerResponse) => void;
interface LooseApp {
  get(path: string, fn: Handler): unknown;
  set(name: string, value: unknown): unknown;
}

function appOf(x: Family, gen: Generation): LooseApp & http.RequestListener {
  return (x[gen] as unknown as () => LooseApp & http.RequestListener)();
}

/** The head and the body as sent, each byte one character (latin1). */
async function rawAnswer(app: http.RequestListener, method: string, path: string): Promise<{ head: string; body: Buffer }> {
  const server = await serve(app);
  try {
    const bytes = await new Promise<Buffer>((resolve, reject) => {
      const socket = net.connect(server.port, '127.0.0.1', () => {
        socket.end(`${method} ${path} HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n`);
      });
      const chunks: Buffer[] = [];
      socket.on('data', (c: Buffer) => chunks.push(c));
      socket.on('end', () => resolve(Buffer.concat(chunks)));
      socket.on('error', reject);
    });
    const end = bytes.indexOf('\r\n\r\n');
    return { head: bytes.subarray(0, end).toString('latin1'), body: bytes.subarray(end + 4) };
  } finally {
    await server.close();
  }
}

/** `café` as the byte E9, and as its UTF-8 bytes C3 A9 (each read as latin1). */
const LATIN1 = 'X-Name: caf\u00e9';
const UTF8 = 'X-Name: caf\u00c3\u00a9';
/** Express 5 and 4 write the head in latin1 here, Express 3 in UTF-8. */
const TAGGED = { v5: LATIN1, v4: LATIN1, legacy: UTF8 };

interface Case {
  what: string;
  method?: string;
  etag?: false;
  handler: Handler;
  /** The header line expected, per generation. */
  expect: Record<Generation, string>;
  /** The body's bytes, when there is one to check. */
  body?: string;
}

const name: Handler = (_req, res) => res.set('X-Name', 'café');

const cases: Case[] = [
  { what: 'res.set, then send(string), tagged', handler: (req, res) => (name(req, res), res.send('ok')), expect: TAGGED, body: 'ok' },
  { what: 'res.setHeader, then json(object), tagged', handler: (_req, res) => (res.setHeader('X-Name', 'café'), res.json({ a: 1 })), expect: TAGGED },
  { what: 'send(string outside ASCII), tagged: the body stays UTF-8', handler: (req, res) => (name(req, res), res.send('héllo €')), expect: TAGGED, body: 'héllo €' },
  { what: 'send(short string) with etag off: node writes the head with the string', etag: false, handler: (req, res) => (name(req, res), res.send('ok')), expect: { v5: UTF8, v4: UTF8, legacy: UTF8 } },
  { what: 'send(string of 1,000 characters) with etag off', etag: false, handler: (req, res) => (name(req, res), res.send('é'.repeat(1000))), expect: TAGGED, body: 'é'.repeat(1000) },
  { what: 'send(Buffer)', handler: (req, res) => (name(req, res), res.send(Buffer.from('ok'))), expect: { v5: LATIN1, v4: LATIN1, legacy: LATIN1 } },
  { what: 'HEAD of send(string): no body, the head alone', method: 'HEAD', handler: (req, res) => (name(req, res), res.send('ok')), expect: { v5: LATIN1, v4: LATIN1, legacy: LATIN1 } },
  { what: 'res.end(string) by hand: node writes the head with the string', handler: (req, res) => (name(req, res), res.end('ok')), expect: { v5: UTF8, v4: UTF8, legacy: UTF8 } },
  // node re-reads a latin1 Content-Disposition as UTF-8 (é becomes U+FFFD)
  // before writing it; content-disposition 1 (v5) sends ASCII alone.
  {
    what: "attachment('café.txt')",
    handler: (_req, res) => (res.attachment('café.txt'), res.send('ok')),
    expect: {
      v5: `Content-Disposition: attachment; filename="caf?.txt"; filename*=UTF-8''caf%C3%A9.txt`,
      v4: 'Content-Disposition: attachment; filename="caf\u00fd.txt"',
      legacy: 'Content-Disposition: attachment; filename="caf\u00ef\u00bf\u00bd.txt"',
    },
  },
];

describe('header values outside ASCII: the bytes on the wire', () => {
  for (const gen of GENERATIONS) {
    for (const c of cases) {
      twinTest(`${gen}: ${c.what}`, async (x) => {
        const app = appOf(x, gen);
        if (c.etag === false) app.set('etag', false);
        app.get('/', c.handler);
        const { head, body } = await rawAnswer(app, c.method ?? 'GET', '/');
        assert.ok(head.split('\r\n').includes(c.expect[gen]), `${JSON.stringify(c.expect[gen])} in ${JSON.stringify(head)}`);
        if (c.body !== undefined) assert.deepEqual(body, Buffer.from(c.body));
      });
    }
  }
});

describe('what a custom etag fn is given', () => {
  const given = { v5: 'Buffer', v4: 'Buffer', legacy: 'string' };
  for (const gen of GENERATIONS) {
    twinTest(`${gen}: a ${given[gen]} for send(string), with "utf8" when a string`, async (x) => {
      const app = appOf(x, gen);
      app.set('etag', (body: unknown, encoding: unknown) => `"${Buffer.isBuffer(body) ? 'Buffer' : typeof body}-${String(encoding)}"`);
      app.get('/', (_req, res) => res.send('ok'));
      const { head } = await rawAnswer(app, 'GET', '/');
      const expected = given[gen] === 'string' ? 'string-utf8' : 'Buffer-undefined';
      assert.ok(head.split('\r\n').includes(`ETag: "${expected}"`), head);
    });
  }
});
