// One app object behind HTTP/1.1, HTTPS and HTTP/2 servers at once; the
// classes requests keep; members users add to app.request / trestle.request
// as HTTP/2 requests see them; the headers HTTP/2 forbids; the built-in
// middleware and compression/helmet over HTTP/2, on each entry.
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import * as http from 'node:http';
import * as http2 from 'node:http2';
import * as https from 'node:https';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { describe, test } from 'node:test';
import { gzipSync } from 'node:zlib';
import compression from 'compression';
import helmet from 'helmet';
import trestle from 'trestle';
import trestleLegacy from 'trestle/legacy';
import trestleV4 from 'trestle/v4';
import { connect, h2Request, type H2Served, modes, serveH2, tls } from './http2-helpers';

type App = trestle.Application;
type Loose = Record<string, unknown>;

const generations: Array<[string, typeof trestle]> = [
  ['trestle', trestle],
  ['trestle/v4', trestleV4 as unknown as typeof trestle],
  ['trestle/legacy', trestleLegacy as unknown as typeof trestle],
];

const STATIC_ROOT = join(__dirname, 'fixtures', 'static', 'public');
const LARGE_TEXT = 'All work and no play. '.repeat(200);

async function withH2<T>(app: unknown, mode: 'h2c' | 'h2', run: (served: H2Served) => Promise<T>): Promise<T> {
  const served = await serveH2(app, mode);
  try {
    return await run(served);
  } finally {
    await served.close();
  }
}

async function listen(server: http.Server | https.Server | http2.Http2SecureServer): Promise<number> {
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return (server.address() as AddressInfo).port;
}

/** One HTTP/1.1 GET (over TLS when `secure`), the body as text. */
function get1(port: number, path: string, secure: boolean): Promise<{ status: number; body: string }> {
  const client = secure ? https : http;
  return new Promise((resolve, reject) => {
    client
      .get({ host: '127.0.0.1', port, path, agent: false, rejectUnauthorized: false }, (res) => {
        let body = '';
        res.setEncoding('utf8');
        res.on('data', (d: string) => (body += d));
        res.on('end', () => resolve({ status: res.statusCode ?? 0, body }));
      })
      .on('error', reject);
  });
}

for (const [entry, factory] of generations) {
  describe(`${entry}: one app, every server`, () => {
    test('http, https and http2 (h2 and HTTP/1.1 over ALPN) serve the same app at once, each request keeping its class', async () => {
      const app = factory();
      (app.request as unknown as Loose).label = 'mine';
      app.get('/who', (req, res) => {
        const kind = req instanceof http2.Http2ServerRequest ? 'h2-request' : req instanceof http.IncomingMessage ? 'http-request' : 'other';
        const resKind = res instanceof http2.Http2ServerResponse ? 'h2-response' : res instanceof http.ServerResponse ? 'http-response' : 'other';
        res.send(`${kind} ${resKind} ${req.httpVersion} ${req.protocol} ${String((req as unknown as Loose).label)} ${String(req.app === app)}`);
      });
      const plain = http.createServer(app);
      const secure = https.createServer(tls, app);
      const both = http2.createSecureServer({ ...tls, allowHTTP1: true }, app);
      const ports = [await listen(plain), await listen(secure), await listen(both)];
      const session = connect(`https://127.0.0.1:${ports[2]!}`);
      try {
        // Interleaved, so each kind of request meets the others' prototypes in use.
        const answers = await Promise.all([
          get1(ports[0]!, '/who', false),
          h2Request(session, '/who'),
          get1(ports[1]!, '/who', true),
          get1(ports[2]!, '/who', true),
          h2Request(session, '/who'),
          get1(ports[0]!, '/who', false),
        ]);
        assert.deepEqual(
          answers.map((a) => ('text' in a ? a.text : a.body)),
          [
            'http-request http-response 1.1 http mine true',
            'h2-request h2-response 2.0 https mine true',
            'http-request http-response 1.1 https mine true',
            'http-request http-response 1.1 https mine true',
            'h2-request h2-response 2.0 https mine true',
            'http-request http-response 1.1 http mine true',
          ],
        );
      } finally {
        session.destroy();
        for (const server of [plain, secure, both]) {
          if ('closeAllConnections' in server) server.closeAllConnections();
          await new Promise((resolve) => server.close(resolve));
        }
      }
    });
  });

  describe(`${entry}: members users add, over HTTP/2`, () => {
    test('app.request / app.response members added before serving, and after, for the next connection', async () => {
      const app = factory();
      (app.request as unknown as Loose).early = 'early';
      app.get('/m', (req, res) => res.send(`${String((req as unknown as Loose).early)} ${String((req as unknown as Loose).late)} ${String((res as unknown as Loose).resLate)}`));
      await withH2(app, 'h2c', async (served) => {
        assert.equal((await served.request('/m')).text, 'early undefined undefined');
        (app.request as unknown as Loose).late = 'late';
        (app.response as unknown as Loose).resLate = 'resLate';
        Object.defineProperty(app.request, 'early', { value: 'changed', configurable: true, writable: true, enumerable: true });
        served.session().destroy();
        assert.equal((await served.request('/m')).text, 'changed late resLate');
        delete (app.request as unknown as Loose).late;
        served.session().destroy();
        assert.equal((await served.request('/m')).text, 'changed undefined resLate');
      });
    });

    test("the framework's request and response (trestle.request) reach every app's HTTP/2 requests, replaced members too", async () => {
      const fw = factory as unknown as { request: Loose; response: Loose };
      const originalJson = fw.response.json as (this: trestle.Response, body: unknown) => unknown;
      fw.request.h2Everywhere = function (this: trestle.Request) {
        return `everywhere ${this.path}`;
      };
      fw.response.json = function (this: trestle.Response, body: unknown) {
        this.set('X-Wrapped', 'yes');
        return originalJson.call(this, body);
      };
      try {
        const app = factory();
        app.get('/e', (req, res) => res.json((req as unknown as { h2Everywhere(): string }).h2Everywhere()));
        await withH2(app, 'h2', async (served) => {
          const res = await served.request('/e');
          assert.equal(res.text, '"everywhere /e"');
          assert.equal(res.headers['x-wrapped'], 'yes');
        });
      } finally {
        delete fw.request.h2Everywhere;
        fw.response.json = originalJson;
      }
    });
  });

  describe(`${entry}: headers HTTP/2 forbids`, () => {
    for (const mode of modes) {
      test(`${mode}: Connection, Keep-Alive, Proxy-Connection, Transfer-Encoding, Upgrade are dropped in every path, never thrown; no status message, no warning`, async () => {
        const warnings: string[] = [];
        const onWarning = (w: Error) => warnings.push(w.message);
        process.on('warning', onWarning);
        const app = factory();
        // A middleware written for HTTP/1.1, calling node's setHeader directly.
        app.use((_req, res, next) => {
          res.setHeader('Connection', 'keep-alive');
          res.setHeader('Keep-Alive', 'timeout=5');
          next();
        });
        app.get('/set', (_req, res) => res.set({ 'Transfer-Encoding': 'chunked', Upgrade: 'websocket', 'Proxy-Connection': 'keep-alive', 'X-Kept': 'yes' }).send('set'));
        app.get('/single', (_req, res) => res.set('Connection', 'close').header('TE', 'gzip').send('single'));
        app.get('/append', (_req, res) => res.append('Connection', 'close').append('Keep-Alive', ['a', 'b']).append('X-Kept', 'yes').send('append'));
        app.get('/write-head-object', (_req, res) => {
          res.writeHead(200, { Connection: 'close', 'Content-Type': 'text/plain', 'X-Kept': 'yes', 'transfer-encoding': 'chunked' });
          res.end('object');
        });
        app.get('/write-head-list', (_req, res) => {
          res.writeHead(200, 'Fine', ['Connection', 'close', 'X-Kept', 'yes', 'Upgrade', 'h2c']);
          res.end('list');
        });
        app.get('/status-message', (_req, res) => {
          res.statusMessage = 'Fine';
          res.status(202).send('message');
        });
        const forbidden = ['connection', 'keep-alive', 'proxy-connection', 'transfer-encoding', 'upgrade', 'te'];
        try {
          await withH2(app, mode, async (served) => {
            for (const [path, body, status] of [
              ['/set', 'set', 200],
              ['/single', 'single', 200],
              ['/append', 'append', 200],
              ['/write-head-object', 'object', 200],
              ['/write-head-list', 'list', 200],
              ['/status-message', 'message', 202],
            ] as const) {
              const res = await served.request(path);
              assert.equal(res.status, status, path);
              assert.equal(res.text, body, path);
              for (const name of forbidden) assert.equal(res.headers[name], undefined, `${path}: ${name}`);
              if (path !== '/single' && path !== '/status-message') assert.equal(res.headers['x-kept'], 'yes', path);
            }
          });
          assert.deepEqual(warnings, []);
        } finally {
          process.off('warning', onWarning);
        }
      });
    }

    test('on HTTP/1.1 the same headers are still sent (HTTP/1.1 responses are untouched)', async () => {
      const app = factory();
      app.get('/', (_req, res) => res.set('Connection', 'close').set('Keep-Alive', 'timeout=5').send('h1'));
      const server = http.createServer(app);
      const port = await listen(server);
      try {
        const res = await new Promise<http.IncomingMessage>((resolve, reject) => http.get({ host: '127.0.0.1', port, agent: false }, resolve).on('error', reject));
        res.resume();
        assert.equal(res.headers.connection, 'close');
        assert.equal(res.headers['keep-alive'], 'timeout=5');
      } finally {
        server.closeAllConnections();
        await new Promise((resolve) => server.close(resolve));
      }
    });
  });

  describe(`${entry}: built-in middleware over HTTP/2`, () => {
    for (const mode of modes) {
      test(`${mode}: json, urlencoded, raw, text with limits, 413 and inflation`, async () => {
        const app = factory();
        app.post('/json', factory.json({ limit: '1kb' }), (req, res) => res.json({ body: req.body as unknown }));
        app.post('/form', factory.urlencoded({ extended: false }), (req, res) => res.json({ body: req.body as unknown }));
        app.post('/raw', factory.raw(), (req, res) => res.send(`raw ${(req.body as Buffer).length} ${String(Buffer.isBuffer(req.body))}`));
        app.post('/text', factory.text(), (req, res) => res.send(`text ${String(req.body)}`));
        await withH2(app, mode, async (served) => {
          const json = await served.request('/json', { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{"a":[1,2]}' });
          assert.deepEqual(JSON.parse(json.text), { body: { a: [1, 2] } });
          const big = await served.request('/json', { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ a: 'x'.repeat(2000) }) });
          assert.equal(big.status, 413);
          assert.match(big.text, /request entity too large/i);
          const gz = await served.request('/json', {
            method: 'POST',
            headers: { 'content-type': 'application/json', 'content-encoding': 'gzip' },
            body: gzipSync('{"zipped":true}'),
          });
          assert.deepEqual(JSON.parse(gz.text), { body: { zipped: true } });
          const form = await served.request('/form', { method: 'POST', headers: { 'content-type': 'application/x-www-form-urlencoded' }, body: 'a=1&b=two' });
          assert.deepEqual(JSON.parse(form.text), { body: { a: '1', b: 'two' } });
          const raw = await served.request('/raw', { method: 'POST', headers: { 'content-type': 'application/octet-stream' }, body: Buffer.alloc(300, 7) });
          assert.equal(raw.text, 'raw 300 true');
          const text = await served.request('/text', { method: 'POST', headers: { 'content-type': 'text/plain' }, body: 'plain words' });
          assert.equal(text.text, 'text plain words');
        });
      });

      test(`${mode}: static: index, redirect of a directory, ranges, 304`, async () => {
        const app = factory();
        app.use('/static', factory.static(STATIC_ROOT));
        await withH2(app, mode, async (served) => {
          const index = await served.request('/static/');
          assert.equal(index.status, 200);
          assert.equal(index.text, readFileSync(join(STATIC_ROOT, 'index.html'), 'utf8'));
          const dir = await served.request('/static/sub');
          assert.equal(dir.status, 301);
          assert.equal(dir.headers.location, '/static/sub/');
          const range = await served.request('/static/digits.txt', { headers: { range: 'bytes=-3' } });
          assert.equal(range.status, 206);
          assert.equal(range.text, readFileSync(join(STATIC_ROOT, 'digits.txt'), 'utf8').slice(-3));
          const cached = await served.request('/static/digits.txt', { headers: { 'if-none-match': String((await served.request('/static/digits.txt')).headers.etag) } });
          assert.equal(cached.status, 304);
        });
      });

      test(`${mode}: compression and helmet`, async () => {
        const app = factory();
        app.use(helmet());
        app.use(compression());
        app.get('/text', (_req, res) => res.type('text').send(LARGE_TEXT));
        await withH2(app, mode, async (served) => {
          const res = await served.request('/text', { headers: { 'accept-encoding': 'gzip' } });
          assert.equal(res.status, 200);
          assert.equal(res.headers['content-encoding'], 'gzip');
          assert.equal(res.headers['content-length'], undefined);
          const { gunzipSync } = await import('node:zlib');
          assert.equal(gunzipSync(res.body).toString(), LARGE_TEXT);
          assert.equal(res.headers['x-powered-by'], undefined);
          assert.equal(res.headers['x-content-type-options'], 'nosniff');
          assert.match(String(res.headers['content-security-policy']), /default-src 'self'/);
          assert.equal(res.headers['strict-transport-security'], 'max-age=31536000; includeSubDomains');
        });
      });
    }
  });
}



