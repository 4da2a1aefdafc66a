// Bad input: every malformed path, host, body or injection attempt below is
// answered with a clear 4xx (or handled as data, where Express 5 does), the
// answer is a well-formed HTTP message (read by the strict client in
// fixtures/hardening/wire.ts), and a normal request succeeds right after.
import assert from 'node:assert/strict';
import { EventEmitter, once } from 'node:events';
import { existsSync, mkdtempSync, readdirSync, rmSync } from 'node:fs';
import * as net from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Writable } from 'node:stream';
import { after, before, describe, test } from 'node:test';
import * as v8 from 'node:v8';
import * as vm from 'node:vm';
import * as zlib from 'node:zlib';
import logger from 'logline-http';
import trestle, { type ErrorRequestHandler, type RequestHandler } from 'trestle';
import trestleLegacy from 'trestle/legacy';
import { serve, type Served } from './helpers';
import { abortAfter, tapBody } from './middleware-helpers';
import {
  ask,
  assertPrototypesIntact,
  assertServing,
  exchange,
  parseResponses,
  PUBLIC_ROOT,
  prototypeSnapshot,
  SECRET_MARK,
  type WireResponse,
  wire,
} from './fixtures/hardening/wire';

const ok: RequestHandler = (_req, res) => {
  res.send('ok');
};

/** What an error handler saw: the fields the built-in middleware set. */
interface Seen {
  name: string;
  message: string;
  status?: number;
  type?: string;
  length?: number;
  received?: number;
  limit?: number;
}

/**
 * Answers an error with its status and what it carried, as JSON, and tells
 * `seen` (so a test can wait for the handler chain to end even when the
 * client is gone).
 */
function reportTo(seen: EventEmitter): ErrorRequestHandler {
  return (err: Error & Omit<Seen, 'name' | 'message'>, _req, res, _next) => {
    const report: Seen = { name: err.name, message: err.message, status: err.status, type: err.type, length: err.length, received: err.received, limit: err.limit };
    seen.emit('handled', report);
    res.status(err.status ?? 500).json(report);
  };
}

/** Polls `done` every 10 ms until it holds or 10 s have passed. */
async function waitUntil(done: () => boolean): Promise<void> {
  const deadline = Date.now() + 10000;
  while (!done() && Date.now() < deadline) await new Promise((resolve) => setTimeout(resolve, 10));
}

/** The next report of the app's error handler, within 5 s. */
async function nextReport(seen: EventEmitter): Promise<Seen> {
  const [report] = (await once(seen, 'handled', { signal: AbortSignal.timeout(5000) })) as [Seen];
  return report;
}

function json(res: WireResponse): unknown {
  return JSON.parse(res.body.toString('utf8'));
}

/** A POST with `type` and `body` sent as the bytes given. */
function post(path: string, type: string, body: Buffer | string, extra: string[] = []): Buffer {
  const bytes = typeof body === 'string' ? Buffer.from(body, 'utf8') : body;
  const head = wire(`POST ${path} HTTP/1.1`, [`Content-Type: ${type}`, `Content-Length: ${bytes.length}`, ...extra]);
  return Buffer.concat([Buffer.from(head, 'latin1'), bytes]);
}

async function askPost(port: number, path: string, type: string, body: Buffer | string, extra?: string[]): Promise<WireResponse> {
  const answers = parseResponses(await exchange(port, post(path, type, body, extra)), ['POST']);
  assert.equal(answers.length, 1);
  return answers[0]!;
}

describe('bad input: paths', () => {
  let server: Served;
  before(async () => {
    const app = trestle();
    app.set('env', 'test');
    app.get('/health', ok);
    app.get('/p/:id', (req, res) => {
      res.json({ id: req.params.id });
    });
    app.use('/static', trestle.static(PUBLIC_ROOT));
    app.use('/strict', trestle.static(PUBLIC_ROOT, { fallthrough: false }));
    app.get('/file/*name', (req, res) => res.sendFile((req.params.name as string[]).join('/'), { root: PUBLIC_ROOT }));
    app.get('/download/*name', (req, res) => res.download((req.params.name as string[]).join('/'), { root: PUBLIC_ROOT }));
    app.get('/host', (req, res) => {
      res.json({ host: req.host ?? null, hostname: req.hostname ?? null, subdomains: req.subdomains });
    });
    server = await serve(app);
  });
  after(() => server.close());

  test('malformed percent-encoding in a route parameter is 400', async () => {
    for (const bad of ['%zz', '%E0%A4%A', '%', 'a%2', '%C0%80', '%ED%A0%80']) {
      const res = await ask(server.port, wire(`GET /p/${bad} HTTP/1.1`));
      assert.equal(res.status, 400, bad);
      assert.ok(res.body.toString().includes(`URIError: Failed to decode param &#39;${bad}&#39;`), bad);
      await assertServing(server.port);
    }
  });

  test('a null byte in a parameter reaches the handler as data, as in Express', async () => {
    const res = await ask(server.port, wire('GET /p/a%00b HTTP/1.1'));
    assert.equal(res.status, 200);
    assert.deepEqual(json(res), { id: 'a\u0000b' });
  });

  test('static, sendFile and download never serve a file outside the root', async () => {
    // [path under the mount, status from static without fallthrough, sendFile and download]
    const attempts: Array<[string, number]> = [
      ['../secret.txt', 403],
      ['..%2fsecret.txt', 403],
      ['%2e%2e/secret.txt', 403],
      ['%2e%2e%2fsecret.txt', 403],
      ['%2E%2E%2Fsecret.txt', 403],
      ['.%2e/secret.txt', 403],
      ['sub/../../secret.txt', 403],
      ['sub/%2e%2e/%2e%2e/secret.txt', 403],
      ['sub%2f..%2f..%2fsecret.txt', 403],
      ['..%5csecret.txt', 403],
      ['..%2f..%2f..%2f..%2f..%2f..%2fetc%2fpasswd', 403],
      ['%252e%252e%252fsecret.txt', 404],
      ['....//secret.txt', 404],
      ['..;/secret.txt', 404],
      ['%2fetc%2fpasswd', 404],
      ['..%00/secret.txt', 400],
      ['hello.txt%00', 400],
      ['hello.txt%00.png', 400],
      ['%00', 400],
      ['%zz', 400],
    ];
    for (const [path, status] of attempts) {
      for (const [mount, expected] of [['static', 404], ['strict', status], ['file', status], ['download', status]] as const) {
        const res = await ask(server.port, wire(`GET /${mount}/${path} HTTP/1.1`));
        assert.equal(res.status, expected, `${mount}/${path}`);
        assert.ok(!res.body.toString('latin1').includes(SECRET_MARK), `${mount}/${path} served the secret`);
        await assertServing(server.port);
      }
    }
    // The same mounts do serve what is inside the root.
    for (const mount of ['static', 'strict', 'file', 'download']) {
      const res = await ask(server.port, wire(`GET /${mount}/sub/inner.txt HTTP/1.1`));
      assert.equal(res.status, 200, mount);
      assert.equal(res.body.toString(), 'inner file\n');
    }
  });

  test('an overlong URL or header block is refused by the runtime with 431', async () => {
    const long = 'a'.repeat(20000);
    const many = Array.from({ length: 300 }, (_, i) => `X-Filler-${i}: ${'v'.repeat(60)}`);
    for (const request of [wire(`GET /p/${long} HTTP/1.1`), wire(`GET /p/${long.slice(0, 10)}?q=${long} HTTP/1.1`), wire('GET /health HTTP/1.1', [`X-Long: ${long}`]), wire('GET /health HTTP/1.1', many)]) {
      const res = await ask(server.port, request);
      assert.equal(res.status, 431);
      await assertServing(server.port);
    }
  });

  test('Host with a port, IPv6 brackets or garbage: host, hostname and subdomains as Express 5 gives them', async () => {
    const cases: Array<[string, { host: string | null; hostname: string | null; subdomains: string[] }]> = [
      ['example.com:8080', { host: 'example.com:8080', hostname: 'example.com', subdomains: [] }],
      ['a.b.example.com:1', { host: 'a.b.example.com:1', hostname: 'a.b.example.com', subdomains: ['b', 'a'] }],
      ['[::1]:3000', { host: '[::1]:3000', hostname: '[::1]', subdomains: [] }],
      ['[::1]', { host: '[::1]', hostname: '[::1]', subdomains: [] }],
      ['[::1', { host: '[::1', hostname: '[', subdomains: [] }],
      [']:[', { host: ']:[', hostname: ']', subdomains: [] }],
      [':::', { host: ':::', hostname: '', subdomains: [] }],
      ['127.0.0.1:80', { host: '127.0.0.1:80', hostname: '127.0.0.1', subdomains: [] }],
      ['..', { host: '..', hostname: '..', subdomains: [''] }],
      ['<script>..', { host: '<script>..', hostname: '<script>..', subdomains: ['<script>'] }],
      ['a b', { host: 'a b', hostname: 'a b', subdomains: [] }],
      ['', { host: null, hostname: null, subdomains: [] }],
    ];
    for (const [host, expected] of cases) {
      const res = await ask(server.port, wire('GET /host HTTP/1.1', [`Host: ${host}`]));
      assert.equal(res.status, 200, host);
      assert.deepEqual(json(res), expected, host);
    }
    // HTTP/1.1 without Host is the runtime's 400.
    assert.equal((await ask(server.port, 'GET /host HTTP/1.1\r\nConnection: close\r\n\r\n')).status, 400);
    await assertServing(server.port);
  });
});

// node's HTTP parser (llhttp) answers these itself, before any app code, and
// closes the connection. The suite runs on every supported node (20 to 26):
// all of them answer alike today; a case that starts to differ fails here.
describe('bad input: request line and header block, refused by node on every version', () => {
  let server: Served;
  let reached: string[] = [];
  before(async () => {
    const app = trestle();
    app.use((req, _res, next) => {
      reached.push(req.url);
      next();
    });
    app.get('/health', ok);
    app.all('/echo', (req, res) => {
      res.json({ method: req.method, url: req.url, host: req.headers.host ?? null, value: req.headers['x-a'] ?? null });
    });
    server = await serve(app);
  });
  after(() => server.close());

  test('a malformed method, version, header name, header value or line ending is 400, and the app never sees it', async () => {
    const head = 'Host: localhost\r\nConnection: close';
    const requests: Record<string, string> = {
      'an unknown method': `FOO /echo HTTP/1.1\r\n${head}\r\n\r\n`,
      'a lower-case method': `get /echo HTTP/1.1\r\n${head}\r\n\r\n`,
      'HTTP/1.2': `GET /echo HTTP/1.2\r\n${head}\r\n\r\n`,
      'a space in a header name': `GET /echo HTTP/1.1\r\n${head}\r\nX A: 1\r\n\r\n`,
      'a space before the colon': `GET /echo HTTP/1.1\r\n${head}\r\nX-A : 1\r\n\r\n`,
      'a header line without a colon': `GET /echo HTTP/1.1\r\n${head}\r\nX-A\r\n\r\n`,
      'NUL in a value': `GET /echo HTTP/1.1\r\n${head}\r\nX-A: a\0b\r\n\r\n`,
      'a control character in a value': `GET /echo HTTP/1.1\r\n${head}\r\nX-A: a\x01b\r\n\r\n`,
      'DEL in a value': `GET /echo HTTP/1.1\r\n${head}\r\nX-A: a\x7fb\r\n\r\n`,
      'a bare CR in a value': `GET /echo HTTP/1.1\r\n${head}\r\nX-A: a\rb\r\n\r\n`,
      'bare LF line ends': 'GET /echo HTTP/1.1\nHost: localhost\nConnection: close\n\n',
      'a folded header (obs-fold)': `GET /echo HTTP/1.1\r\n${head}\r\nX-A: a\r\n b\r\n\r\n`,
      'Transfer-Encoding beside Content-Length': `POST /echo HTTP/1.1\r\n${head}\r\nContent-Length: 3\r\nTransfer-Encoding: chunked\r\n\r\n0\r\n\r\n`,
      'a Transfer-Encoding that does not end in chunked': `POST /echo HTTP/1.1\r\n${head}\r\nTransfer-Encoding: chunked, gzip\r\n\r\n0\r\n\r\n`,
      'HTTP/1.1 without Host': 'GET /echo HTTP/1.1\r\nConnection: close\r\n\r\n',
    };
    for (const [name, request] of Object.entries(requests)) {
      reached = [];
      const res = await ask(server.port, request);
      assert.equal(res.status, 400, name);
      assert.deepEqual(reached, [], `${name}: reached the app`);
      await assertServing(server.port);
    }
  });

  test('what node lets through reaches the app as sent: obs-text in a value, the absolute form, HTTP/1.0 without Host, a second Host', async () => {
    const echo = async (request: string): Promise<unknown> => {
      const res = await ask(server.port, request);
      assert.equal(res.status, 200, request);
      return json(res);
    };
    // Header values are read as latin1: the byte 0xE9 is 'é'.
    assert.deepEqual(await echo(wire('GET /echo HTTP/1.1', ['X-A: caf\xe9'])), { method: 'GET', url: '/echo', host: 'localhost', value: 'caf\u00e9' });
    assert.deepEqual(await echo(wire('GET http://example.com/echo?a=1 HTTP/1.1')), { method: 'GET', url: 'http://example.com/echo?a=1', host: 'localhost', value: null });
    assert.deepEqual(await echo('GET /echo HTTP/1.0\r\n\r\n'), { method: 'GET', url: '/echo', host: null, value: null });
    // node keeps the first Host and drops the second.
    assert.deepEqual(await echo(wire('GET /echo HTTP/1.1', ['Host: first', 'Host: second'])), { method: 'GET', url: '/echo', host: 'first', value: null });
  });
});

describe('bad input: bodies', () => {
  const seen = new EventEmitter();
  const chunks = new EventEmitter();
  let server: Served;
  before(async () => {
    const echo: RequestHandler = (req, res) => {
      res.json({ body: Buffer.isBuffer(req.body) ? `buffer:${req.body.length}` : req.body });
    };
    const app = trestle();
    app.set('env', 'test');
    app.get('/health', ok);
    app.use(tapBody(chunks));
    app.post('/json', trestle.json({ limit: '1kb' }), echo);
    app.post('/json-big', trestle.json(), (req, res) => {
      // Depth measured without recursion: a deep body must not need a deep stack.
      let depth = 0;
      for (let v: unknown = req.body; Array.isArray(v); v = v[0]) depth++;
      res.json({ depth });
    });
    app.post('/form', trestle.urlencoded({ extended: false }), echo);
    app.post('/form-extended', trestle.urlencoded({ extended: true }), (req, res) => {
      const a = (req.body as { a?: unknown }).a;
      res.json(Array.isArray(a) ? { length: a.length } : { body: req.body });
    });
    app.post('/text', trestle.text(), echo);
    app.post('/raw', trestle.raw(), echo);
    app.use(reportTo(seen));
    server = await serve(app);
  });
  after(() => server.close());

  test('a huge declared length is refused with 413 before a byte is read, and what follows is dropped, not kept', async () => {
    // Memory is measured after full collections, at the moment the last
    // byte arrives: a parser that kept the body would still hold all of it.
    // (The second collection finishes sweeping the buffers the first freed.)
    v8.setFlagsFromString('--expose-gc');
    const collect = vm.runInNewContext('gc') as () => void;
    const gc = () => {
      collect();
      collect();
    };
    const total = 128 * 1024 * 1024;
    let received = 0;
    let heldAtEnd = -1;
    const app = trestle();
    app.set('env', 'test');
    app.use((req, _res, next) => {
      req.on('data', (chunk: Buffer) => {
        received += chunk.length;
        if (received === total) {
          gc();
          heldAtEnd = process.memoryUsage().arrayBuffers;
        }
      });
      next();
    });
    app.use(trestle.json({ limit: '1kb' }));
    app.use(reportTo(new EventEmitter()));
    const big = await serve(app);
    try {
      gc();
      const baseline = process.memoryUsage().arrayBuffers;
      const socket = net.connect(big.port, '127.0.0.1');
      const parts: Buffer[] = [];
      socket.on('data', (d: Buffer) => parts.push(d));
      const closed = once(socket, 'close', { signal: AbortSignal.timeout(30000) });
      await once(socket, 'connect');
      socket.write(`POST / HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nContent-Length: ${total}\r\nConnection: close\r\n\r\n`);
      const block = Buffer.alloc(64 * 1024, 0x20);
      for (let sent = 0; sent < total; sent += block.length) {
        if (!socket.write(block)) await once(socket, 'drain', { signal: AbortSignal.timeout(10000) });
      }
      await closed;
      const [res] = parseResponses(Buffer.concat(parts), ['POST']);
      assert.equal(res!.status, 413);
      assert.deepEqual(json(res!), { name: 'PayloadTooLargeError', message: 'request entity too large', status: 413, type: 'entity.too.large', length: total, limit: 1024 });
      assert.equal(received, total);
      const held = heldAtEnd - baseline;
      assert.ok(held < total / 4, `${(held / 1048576).toFixed(1)} MiB held after ${total / 1048576} MiB`);
    } finally {
      await big.close();
    }
  });

  test('a client that declares a terabyte and gives up: the chain ends with 413 and the server serves on', async () => {
    const reported = nextReport(seen);
    await abortAfter(server.port, 'POST /json HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nContent-Length: 1000000000000', Buffer.alloc(256 * 1024, 0x20), chunks);
    const report = await reported;
    assert.equal(report.status, 413);
    assert.equal(report.type, 'entity.too.large');
    assert.equal(report.length, 1e12);
    await assertServing(server.port);
  });

  test('a Content-Length that lies, or that the runtime cannot frame, is 400', async () => {
    const head = 'POST /json HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nConnection: close\r\n';
    const requests = [
      // Shorter than the body: the body is cut (400 entity.parse.failed) and the rest is no request.
      `${head}Content-Length: 5\r\n\r\n{"a":1}`,
      `${head}Content-Length: 7\r\nTransfer-Encoding: chunked\r\n\r\n7\r\n{"a":1}\r\n0\r\n\r\n`,
      `${head}Content-Length: abc\r\n\r\n{"a":1}`,
      `${head}Content-Length: -1\r\n\r\n{"a":1}`,
      `${head}Content-Length: +7\r\n\r\n{"a":1}`,
      `${head}Content-Length: 7 7\r\n\r\n{"a":1}`,
      `${head}Content-Length: 7\r\nContent-Length: 8\r\n\r\n{"a":1}`,
      `${head}Transfer-Encoding: chunked\r\n\r\nzz\r\n{"a":1}\r\n0\r\n\r\n`,
      `${head}Transfer-Encoding: chunked\r\n\r\n10\r\n{"a":1}\r\n0\r\n\r\n`,
    ];
    for (const request of requests) {
      const answers = parseResponses(await exchange(server.port, request, { end: true }), ['POST', 'POST']);
      assert.ok(answers.length >= 1, request);
      for (const answer of answers) assert.equal(answer.status, 400, request);
      await assertServing(server.port);
    }
  });

  test('a body cut short (hang-up or half-close): the handler chain ends with 400 request.aborted', async () => {
    const cases: Array<[string, string]> = [
      ['/json', 'application/json'],
      ['/form', 'application/x-www-form-urlencoded'],
      ['/text', 'text/plain'],
      ['/raw', 'application/octet-stream'],
    ];
    for (const [path, type] of cases) {
      for (const framing of ['Content-Length: 1000', 'Transfer-Encoding: chunked']) {
        const start = framing.startsWith('Content') ? 'a=1&b' : '5\r\na=1&b\r\n';
        const reported = nextReport(seen);
        await abortAfter(server.port, `POST ${path} HTTP/1.1\r\nHost: x\r\nContent-Type: ${type}\r\n${framing}`, start, chunks);
        const report = await reported;
        assert.equal(report.status, 400, `${path} ${framing}`);
        assert.equal(report.type, 'request.aborted');
        await assertServing(server.port);
      }
    }
    // A half-close (the client sends no more, but still reads) ends the request the same way.
    const reported = nextReport(seen);
    const answer = exchange(server.port, 'POST /json HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nContent-Length: 100\r\n\r\n{"a":', { end: true });
    assert.equal((await reported).type, 'request.aborted');
    await answer;
    await assertServing(server.port);
  });

  test('malformed JSON is 400 entity.parse.failed', async () => {
    for (const body of ['{', '{"a":}', '[1,]', '{"a":1}}', "{'a':1}", '{"a":NaN}', 'tru', '\ufeff{', '{"a":"\u0000"}', '"str"', '1']) {
      const res = await askPost(server.port, '/json', 'application/json', body);
      assert.equal(res.status, 400, JSON.stringify(body));
      assert.equal((json(res) as Seen).type, 'entity.parse.failed');
      await assertServing(server.port);
    }
  });

  test('deep nesting: JSON parses without deep recursion; urlencoded stops past depth 32', async () => {
    const deep = `${'['.repeat(40000)}${']'.repeat(40000)}`;
    const parsed = await askPost(server.port, '/json-big', 'application/json', deep);
    assert.equal(parsed.status, 200);
    assert.deepEqual(json(parsed), { depth: 40000 });
    assert.equal((await askPost(server.port, '/json-big', 'application/json', '['.repeat(80000))).status, 400);

    const form = 'application/x-www-form-urlencoded';
    const tooDeep = await askPost(server.port, '/form-extended', form, `a${'[b]'.repeat(33)}=1`);
    assert.equal(tooDeep.status, 400);
    assert.equal((json(tooDeep) as Seen).type, 'querystring.parse.rangeError');
    assert.equal((await askPost(server.port, '/form-extended', form, `a${'[b]'.repeat(32)}=1`)).status, 200);
    await assertServing(server.port);
  });

  test('huge arrays and parameter counts in urlencoded: limits hold', async () => {
    const form = 'application/x-www-form-urlencoded';
    const list = (n: number) => Array.from({ length: n }, (_, i) => `a[]=${i}`).join('&');
    assert.deepEqual(json(await askPost(server.port, '/form-extended', form, list(1000))), { length: 1000 });
    for (const [path, body] of [['/form-extended', list(1001)], ['/form', Array.from({ length: 1001 }, (_, i) => `k${i}=1`).join('&')]]) {
      const res = await askPost(server.port, path!, form, body!);
      assert.equal(res.status, 413);
      assert.equal((json(res) as Seen).type, 'parameters.too.many');
      await assertServing(server.port);
    }
    // A huge index makes an object key, never a sparse array of that length.
    assert.deepEqual(json(await askPost(server.port, '/form-extended', form, 'a[100000000]=x&a[0]=y')), { body: { a: { 0: 'y', 100000000: 'x' } } });
  });

  test('an unsupported charset or content encoding is 415', async () => {
    const cases: Array<[string, string, string[], string]> = [
      ['/json', 'application/json; charset=latin1', [], 'charset.unsupported'],
      ['/json', 'application/json; charset=koi8-r', [], 'charset.unsupported'],
      ['/form', 'application/x-www-form-urlencoded; charset=utf-16', [], 'charset.unsupported'],
      ['/text', 'text/plain; charset=x-no-such-charset', [], 'charset.unsupported'],
      ['/json', 'application/json', ['Content-Encoding: compress'], 'encoding.unsupported'],
      ['/json', 'application/json', ['Content-Encoding: gzip, br'], 'encoding.unsupported'],
      ['/text', 'text/plain', ['Content-Encoding: x-bomb'], 'encoding.unsupported'],
    ];
    for (const [path, type, extra, errorType] of cases) {
      const res = await askPost(server.port, path, type, '{"a":1}', extra);
      assert.equal(res.status, 415, `${type} ${extra}`);
      assert.equal((json(res) as Seen).type, errorType);
      await assertServing(server.port);
    }
  });

  test('compression bombs: the limit applies to the inflated size, reading stops near it', async () => {
    const inflated = Buffer.alloc(64 * 1024 * 1024, 0x20);
    const bombs: Array<[string, Buffer]> = [
      ['gzip', zlib.gzipSync(inflated, { level: 9 })],
      ['deflate', zlib.deflateSync(inflated, { level: 9 })],
      ['br', zlib.brotliCompressSync(inflated)],
    ];
    for (const [encoding, bomb] of bombs) {
      assert.ok(bomb.length < 100 * 1024, `${encoding} bomb is ${bomb.length} bytes`);
      const res = await askPost(server.port, '/text', 'text/plain', bomb, [`Content-Encoding: ${encoding}`]);
      assert.equal(res.status, 413, encoding);
      const report = json(res) as Seen;
      assert.equal(report.type, 'entity.too.large');
      assert.ok(report.received! > 102400 && report.received! <= 102400 + 65536, `${encoding}: ${report.received} bytes inflated`);
      await assertServing(server.port);
    }
  });
});

const MULTIPART = 'multipart/form-data; boundary=b';

/** One part of a multipart body with boundary `b`: a field, or a file when `filename` is given. */
function part(name: string, filename: string | null, content: string): string {
  return `--b\r\nContent-Disposition: form-data; name="${name}"${filename === null ? '' : `; filename="${filename}"`}\r\n\r\n${content}\r\n`;
}

type Legacy = typeof trestleLegacy & {
  bodyParser(options?: Record<string, unknown>): RequestHandler;
};
const legacy = trestleLegacy as Legacy;

describe('bad input: legacy bodyParser multipart uploads', () => {
  const seen = new EventEmitter();
  const chunks = new EventEmitter();
  let uploadDir: string;
  let server: Served;
  before(async () => {
    uploadDir = mkdtempSync(join(tmpdir(), 'trestle-hardening-'));
    const app = legacy();
    app.set('env', 'test');
    // Middleware before the first route (the legacy router is mounted where the first route is
    // defined), and one per app.use (the legacy generation takes a function argument as the only one).
    app.use(tapBody(chunks) as never);
    app.use(legacy.bodyParser({ uploadDir }) as never);
    app.get('/health', ok);
    app.post('/', (req, res) => {
      const files = (req as unknown as { files: Record<string, { name: string } | Array<{ name: string }>> }).files;
      const names = Object.fromEntries(Object.entries(files).map(([field, f]) => [field, Array.isArray(f) ? f.map((x) => x.name) : f.name]));
      res.json({ body: req.body, files: names, filesProto: Object.getPrototypeOf(files) === Object.prototype });
    });
    app.use(reportTo(seen) as never);
    server = await serve(app);
  });
  after(async () => {
    await server.close();
    rmSync(uploadDir, { recursive: true, force: true });
  });


  /**
   * Waits (bounded) until the temporary files of failed uploads are gone:
   * each is removed once its descriptor is closed, which a busy file system
   * may take a while to report.
   */
  async function uploadsCleared(): Promise<void> {
    await waitUntil(() => readdirSync(uploadDir).length === 0);
    assert.deepEqual(readdirSync(uploadDir), []);
  }

  test('a malformed or cut-short multipart body is 400: no crash, no hang, no file left', async (t) => {
    // The test runner survives an uncaught exception; a server would not. The monitor sees every one.
    const uncaught: unknown[] = [];
    const monitor = (err: unknown) => uncaught.push(err);
    process.on('uncaughtExceptionMonitor', monitor);
    t.after(() => process.off('uncaughtExceptionMonitor', monitor));
    const fileHead = (name: string) => `--b\r\nContent-Disposition: form-data; name="${name}"; filename="t.txt"\r\n`;
    const bodies: Array<[string, string]> = [
      // Ends mid-file, with and without the part's own line end, and in a dropped `__proto__` file.
      [part('f', 't.txt', 'hello world'), 'Unexpected end of form'],
      [`${fileHead('f')}\r\nhello`, 'Unexpected end of form'],
      [`${fileHead('__proto__')}\r\nhello`, 'Unexpected end of form'],
      // Ends in the next part's header.
      [`${part('title', null, 'x')}--b\r\nContent-Dispo`, 'Unexpected end of form'],
      // A header block ending on the boundary, then a part cut short: busboy never ends that file.
      [`${fileHead('f')}\r\n--b\r\n--`, 'Unexpected end of form'],
      [`${part('p', 'p.txt', 'plain')}${fileHead('f')}\r\n--b\r\n--`, 'Unexpected end of form'],
      // A malformed part, then a file busboy still announces after the error.
      [`${part('a', null, '')}--b\r\n\r\n${part('c', 'a.txt', '')}`, 'Malformed part header'],
    ];
    for (const [body, message] of bodies) {
      const res = await askPost(server.port, '/', MULTIPART, body);
      assert.equal(res.status, 400, `${JSON.stringify(body)}: ${res.body.toString()}`);
      assert.equal((json(res) as Seen).message, message, JSON.stringify(body));
      await assertServing(server.port);
      await uploadsCleared();
    }
    assert.deepEqual(uncaught, []);
  });

  test('an upload cut short mid-file ends the handler chain with 400, and leaves no file or descriptor open', async () => {
    const fds = () => (existsSync('/proc/self/fd') ? readdirSync('/proc/self/fd').length : 0);
    const before = fds();
    for (let i = 0; i < 10; i++) {
      const reported = nextReport(seen);
      const start = `--b\r\nContent-Disposition: form-data; name="f"; filename="t${i}.txt"\r\n\r\n${'x'.repeat(5000)}`;
      await abortAfter(server.port, `POST / HTTP/1.1\r\nHost: x\r\nContent-Type: ${MULTIPART}\r\nContent-Length: 100000`, start, chunks);
      const report = await reported;
      assert.equal(report.status, 400);
      assert.equal(report.type, 'request.aborted');
      await assertServing(server.port);
    }
    await uploadsCleared();
    // Ten leaked write streams would be ten more descriptors; sockets closing may lag by one or two.
    await waitUntil(() => fds() - before < 3);
    assert.ok(fds() - before < 3, `${fds() - before} more descriptors open`);
  });
});

describe('injection: prototype keys never pollute', () => {
  const ATTEMPT = '__proto__[polluted]=1&constructor[prototype][polluted]=2&a[__proto__][polluted]=3&prototype=4&__proto__=5&toString=6&b[constructor][prototype][polluted]=7';
  const EXTENDED = { constructor: { prototype: { polluted: '2' } }, a: {}, prototype: '4', toString: '6', b: { constructor: { prototype: { polluted: '7' } } } };
  let server: Served;
  const before_ = prototypeSnapshot();
  before(async () => {
    const show: RequestHandler = (req, res) => {
      res.json({ query: req.query, body: req.body ?? null });
    };
    const simple = trestle();
    simple.set('query parser', 'simple');
    simple.get('/', show);
    const app = trestle();
    app.set('env', 'test');
    app.set('query parser', 'extended');
    app.use('/simple', simple);
    app.get('/health', ok);
    app.get('/', show);
    app.post('/json', trestle.json(), show);
    app.post('/form', trestle.urlencoded({ extended: false }), show);
    app.post('/form-extended', trestle.urlencoded({ extended: true }), show);
    server = await serve(app);
  });
  after(() => server.close());

  test('query strings, simple and extended parsers', async () => {
    const simple = await ask(server.port, wire(`GET /simple?${ATTEMPT} HTTP/1.1`));
    assert.deepEqual(json(simple), {
      query: {
        '__proto__[polluted]': '1',
        'constructor[prototype][polluted]': '2',
        'a[__proto__][polluted]': '3',
        prototype: '4',
        ['__proto__']: '5',
        toString: '6',
        'b[constructor][prototype][polluted]': '7',
      },
      body: null,
    });
    const extended = await ask(server.port, wire(`GET /?${ATTEMPT} HTTP/1.1`));
    assert.deepEqual(json(extended), { query: EXTENDED, body: null });
    assertPrototypesIntact(before_);
    await assertServing(server.port);
  });

  test('bodies: json, urlencoded simple and extended', async () => {
    const attempt = '{"__proto__":{"polluted":1},"constructor":{"prototype":{"polluted":2}},"a":{"__proto__":{"polluted":3}}}';
    const fromJson = await askPost(server.port, '/json', 'application/json', attempt);
    // JSON.parse makes `__proto__` an own key, as Express gives it.
    assert.equal(fromJson.body.toString(), `{"query":{},"body":${attempt}}`);
    const simple = await askPost(server.port, '/form', 'application/x-www-form-urlencoded', ATTEMPT);
    assert.deepEqual(json(simple), {
      query: {},
      body: {
        '__proto__[polluted]': '1',
        'constructor[prototype][polluted]': '2',
        'a[__proto__][polluted]': '3',
        prototype: '4',
        toString: '6',
        'b[constructor][prototype][polluted]': '7',
      },
    });
    assert.deepEqual(json(await askPost(server.port, '/form-extended', 'application/x-www-form-urlencoded', ATTEMPT)), { query: {}, body: EXTENDED });
    assertPrototypesIntact(before_);
    await assertServing(server.port);
  });

  test('legacy bodyParser: json, urlencoded and multipart fields and file field names', async () => {
    const uploadDir = mkdtempSync(join(tmpdir(), 'trestle-hardening-'));
    const app = legacy();
    app.set('env', 'test');
    app.use(legacy.bodyParser({ uploadDir }) as never);
    app.get('/health', ok as never);
    app.post('/', (req, res) => {
      const files = (req as unknown as { files: Record<string, { name: string }> }).files;
      res.json({
        body: req.body,
        files: Object.fromEntries(Object.keys(files).map((field) => [field, Array.isArray(files[field]) ? 'array' : files[field]!.name])),
        filesProto: Object.getPrototypeOf(files) === Object.prototype,
      });
    });
    const served = await serve(app);
    try {
      const attempt = '{"__proto__":{"polluted":1},"constructor":{"prototype":{"polluted":2}}}';
      assert.equal((await askPost(served.port, '/', 'application/json', attempt)).body.toString(), `{"body":${attempt},"files":{},"filesProto":true}`);
      assert.deepEqual(json(await askPost(served.port, '/', 'application/x-www-form-urlencoded', ATTEMPT)), { body: EXTENDED, files: {}, filesProto: true });
      const multipart =
        part('__proto__[polluted]', null, '1') +
        part('constructor[prototype][polluted]', null, '2') +
        part('__proto__', null, '5') +
        part('toString', null, '6') +
        part('constructor', 'a.txt', 'A') +
        part('toString', 'b.txt', 'B') +
        part('hasOwnProperty', 'c.txt', 'C') +
        part('__proto__', 'd.txt', 'D') +
        '--b--\r\n';
      const res = await askPost(served.port, '/', MULTIPART, multipart);
      assert.equal(res.status, 200);
      // Files whose field is named like an Object.prototype member are plain own entries; `__proto__` is dropped, as qs drops it from fields.
      assert.deepEqual(json(res), {
        body: { constructor: { prototype: { polluted: '2' } }, toString: '6' },
        files: { constructor: 'a.txt', toString: 'b.txt', hasOwnProperty: 'c.txt' },
        filesProto: true,
      });
      assert.equal(readdirSync(uploadDir).length, 3);
      assertPrototypesIntact(before_);
      await assertServing(served.port);
    } finally {
      await served.close();
      rmSync(uploadDir, { recursive: true, force: true });
    }
  });
});

describe('injection: CR and LF in response headers never split a header', () => {
  const VALUE = 'a\r\nX-Injected: 1';
  // Each handler tries one way in; `null` means the call must throw a TypeError the app handles.
  const cases: Array<[string, (res: trestle.Response) => void, Record<string, string> | null]> = [
    ['set', (res) => res.set('X-A', VALUE).send('ok'), null],
    ['set object', (res) => res.set({ 'X-A': VALUE }).send('ok'), null],
    ['set name', (res) => res.set('X-A\r\nX-Injected', '1').send('ok'), null],
    ['set Content-Type', (res) => res.set('Content-Type', `text/html${VALUE}`).send('ok'), null],
    ['append', (res) => res.append('X-A', ['ok', VALUE]).send('ok'), null],
    ['type', (res) => res.type(`text/plain${VALUE}`).send('ok'), null],
    ['links', (res) => res.links({ next: `/a${VALUE}` }).send('ok'), null],
    ['vary', (res) => res.vary(`X${VALUE}`).send('ok'), null],
    ['cookie name', (res) => res.cookie(`n${VALUE}`, 'v').send('ok'), null],
    ['cookie path', (res) => res.cookie('n', 'v', { path: `/${VALUE}` }).send('ok'), null],
    ['cookie domain', (res) => res.cookie('n', 'v', { domain: `x${VALUE}` }).send('ok'), null],
    ['cookie value', (res) => res.cookie('n', VALUE).send('ok'), { 'set-cookie': 'n=a%0D%0AX-Injected%3A%201; Path=/' }],
    ['cookie object', (res) => res.cookie('n', { a: VALUE }).send('ok'), { 'set-cookie': 'n=j%3A%7B%22a%22%3A%22a%5Cr%5CnX-Injected%3A%201%22%7D; Path=/' }],
    ['location', (res) => res.location(`/a${VALUE}`).send('ok'), { location: '/aa%0D%0AX-Injected:%201' }],
    ['redirect', (res) => res.redirect(`/a${VALUE}`), { location: '/aa%0D%0AX-Injected:%201' }],
    ['redirect LF', (res) => res.redirect('/a\nX-Injected: 1'), { location: '/a%0AX-Injected:%201' }],
    [
      'attachment',
      (res) => res.attachment(`x${VALUE}.txt`).send('ok'),
      { 'content-disposition': `attachment; filename="xa??X-Injected: 1.txt"; filename*=UTF-8''xa%0D%0AX-Injected%3A%201.txt` },
    ],
    ['download', (res) => res.download(join(PUBLIC_ROOT, 'hello.txt'), `x${VALUE}`), { 'content-disposition': `attachment; filename="xa??X-Injected: 1"; filename*=UTF-8''xa%0D%0AX-Injected%3A%201` }],
  ];
  let server: Served;
  before(async () => {
    const app = trestle();
    app.set('env', 'test');
    app.get('/health', ok);
    app.get('/case/:n', (req, res) => cases[Number(req.params.n)]![1](res));
    app.use(((err: Error, _req, res, _next) => {
      res.status(422).send(`handled ${err.name}`);
    }) as ErrorRequestHandler);
    server = await serve(app);
  });
  after(() => server.close());

  test('set, append, type, links, vary, cookie, location, redirect, attachment, download', async () => {
    for (const [i, [name, , headers]] of cases.entries()) {
      const res = await ask(server.port, wire(`GET /case/${i} HTTP/1.1`));
      assert.ok(!res.lines.some(([field]) => field.toLowerCase() === 'x-injected'), `${name}: header split`);
      if (headers === null) {
        assert.equal(res.status, 422, name);
        assert.equal(res.body.toString(), 'handled TypeError', name);
      } else {
        assert.ok(res.status === 200 || res.status === 302, `${name}: ${res.status}`);
        for (const [field, value] of Object.entries(headers)) assert.deepEqual(res.headers[field], [value], name);
      }
      await assertServing(server.port);
    }
  });
});

describe('injection: script', () => {
  let server: Served;
  before(async () => {
    const app = trestle();
    // Outside production the error pages carry the error's stack, message first.
    app.set('env', 'test');
    app.set('query parser', 'extended');
    app.get('/health', ok);
    app.get('/jsonp', (_req, res) => res.jsonp({ msg: '</script>\u2028' }));
    app.get('/p/:id', ok);
    app.get('/redirect', (req, res) => res.redirect(String(req.query.to)));
    app.get('/throw', (req) => {
      throw new Error(`bad ${String(req.query.m)}`);
    });
    app.post('/json', trestle.json(), ok);
    server = await serve(app);
  });
  after(() => server.close());

  test('a JSONP callback keeps only identifier characters', async () => {
    const payload = '({"msg":"</script>\\u2028"});';
    const cases: Array<[string, string | null]> = [
      ['callback=alert(1);//', 'alert1'],
      [`callback=${encodeURIComponent('</script><script>alert(1)</script>')}`, 'scriptscriptalert1script'],
      ['callback=a.b[0]', 'a.b[0]'],
      ['callback=cb%E2%80%A8x', 'cbx'],
      ['callback=%0d%0aX:1', 'X1'],
      ['callback=x&callback=y', 'x'],
      ['callback[a]=1', null],
      ['callback=', null],
    ];
    for (const [query, name] of cases) {
      const res = await ask(server.port, wire(`GET /jsonp?${query} HTTP/1.1`));
      assert.equal(res.status, 200);
      assert.deepEqual(res.headers['x-content-type-options'], ['nosniff']);
      if (name === null) {
        assert.deepEqual(res.headers['content-type'], ['application/json; charset=utf-8'], query);
        assert.equal(res.body.toString(), '{"msg":"</script>\u2028"}', query);
      } else {
        assert.deepEqual(res.headers['content-type'], ['text/javascript; charset=utf-8'], query);
        assert.equal(res.body.toString(), `/**/ typeof ${name} === 'function' && ${name}${payload}`, query);
      }
    }
  });

  test('error pages and redirect bodies HTML-escape what the request carried', async () => {
    const pages: Array<[string | Buffer, string, number, string]> = [
      [wire('GET /<script>alert(1)</script> HTTP/1.1'), '<script>', 404, 'Cannot GET /%3Cscript%3Ealert(1)%3C/script%3E'],
      [wire(`GET /"'&<img> HTTP/1.1`), '<img>', 404, 'Cannot GET /%22&#39;&amp;%3Cimg%3E'],
      [wire('GET /p/%3Cimg%20src=x%20onerror=alert(1)%3E%zz HTTP/1.1'), '<img', 400, 'Failed to decode param &#39;%3Cimg%20src=x%20onerror=alert(1)%3E%zz&#39;'],
      [wire('GET /throw?m=%3Cscript%3Ealert(1)%3C/script%3E HTTP/1.1'), '<script>', 500, 'Error: bad &lt;script&gt;alert(1)&lt;/script&gt;'],
      [post('/json', 'application/json', '{"<script>":<img src=x>}'), '<img', 400, '&quot;&lt;script&gt;&quot;:&lt;img src=x&quot;'],
      [wire('GET /redirect?to=%22%3E%3Cscript%3Ealert(1)%3C/script%3E HTTP/1.1', ['Accept: text/html']), '<script>', 302, 'Redirecting to %22%3E%3Cscript%3Ealert(1)%3C/script%3E'],
      [wire(`GET /redirect?to=/a'"<b> HTTP/1.1`, ['Accept: text/html']), '<b>', 302, 'Redirecting to /a&#39;%22%3Cb%3E'],
    ];
    for (const [request, raw, status, escaped] of pages) {
      const res = await ask(server.port, request);
      const body = res.body.toString();
      assert.equal(res.status, status, escaped);
      assert.deepEqual(res.headers['content-type'], ['text/html; charset=utf-8'], escaped);
      assert.ok(body.includes(escaped), `${body.slice(0, 300)} lacks ${escaped}`);
      assert.ok(!body.includes(raw), `${raw} unescaped in ${body.slice(0, 300)}`);
      await assertServing(server.port);
    }
  });
});

describe('logline under bad input', () => {
  test('one whole line per request that reaches the app, whatever it carried', async () => {
    const lines: string[] = [];
    const written = new EventEmitter();
    const stream = new Writable({
      write(chunk: Buffer, _encoding, done) {
        lines.push(chunk.toString('latin1'));
        written.emit('line');
        done();
      },
    });
    const app = trestle();
    app.set('env', 'test');
    app.use(logger('combined', { stream }), logger(':method :url :status :req[x-odd] :res[content-length]', { stream }));
    app.get('/health', ok);
    app.get('/p/:id', ok);
    app.post('/json', trestle.json({ limit: 10 }), ok);
    const served = await serve(app);
    try {
      const requests = [
        wire('GET /p/%zz HTTP/1.1', ['Referer: \xff\xfe"quoted"', 'User-Agent: a\tb "c"', 'X-Odd: \x80\x81']),
        wire(`GET /p/${'x'.repeat(8000)} HTTP/1.1`),
        wire('GET /%0d%0aInjected:%201 HTTP/1.1'),
        post('/json', 'application/json', '{"way":"too long for ten bytes"}'),
      ];
      /** Waits (bounded) for `n` lines in all. */
      const linesWritten = async (n: number) => {
        for (let i = 0; i < n && lines.length < n; i++) await once(written, 'line', { signal: AbortSignal.timeout(5000) });
      };
      for (const request of requests) {
        await ask(served.port, request);
        await linesWritten(2);
        assert.equal(lines.length, 2, JSON.stringify(lines));
        for (const line of lines) assert.equal(line.indexOf('\n'), line.length - 1, `one whole line: ${JSON.stringify(line)}`);
        lines.length = 0;
        await assertServing(served.port);
        await linesWritten(2);
        lines.length = 0;
      }
    } finally {
      await served.close();
    }
  });
});
