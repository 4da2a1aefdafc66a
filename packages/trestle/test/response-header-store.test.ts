// The headers trestle sets on its hot path (X-Powered-By, Content-Type,
// Content-Length, ETag) skip node's setHeader (see src/header-store.ts).
// Everything that reads or changes headers through node's API must still
// see them exactly as if setHeader had been called.
import assert from 'node:assert/strict';
import * as http from 'node:http';
import { describe, test } from 'node:test';
import request from 'supertest';
import trestle, { type Response } from 'trestle';
import { serve } from './helpers';
import { appWith } from './response-helpers';

/** Calls `fn` with the response right before node writes the head (what on-headers does). */
function beforeHead(res: Response, fn: (res: Response) => void): void {
  const writeHead = res.writeHead;
  res.writeHead = function (this: Response, ...args: unknown[]) {
    fn(this);
    return (writeHead as (...a: unknown[]) => Response).apply(this, args);
  } as typeof res.writeHead;
}

/** The response's raw header lines, in the order they came on the wire. */
function rawHeaderNames(port: number, path: string): Promise<string[]> {
  return new Promise((resolve, reject) => {
    http
      .get({ host: '127.0.0.1', port, path, agent: false }, (res) => {
        res.resume();
        res.on('end', () => resolve(res.rawHeaders.filter((_v, i) => i % 2 === 0)));
      })
      .on('error', reject);
  });
}

describe('headers set by send(), json(), type() and the app', () => {
  test('are what getHeaders, getHeaderNames and hasHeader report before the head goes out', async () => {
    let seen: unknown;
    const app = appWith((_req, res) => {
      beforeHead(res, (r) => {
        seen = { headers: { ...r.getHeaders() }, names: r.getHeaderNames(), has: r.hasHeader('ETag'), type: r.getHeader('content-type') };
      });
      res.type('text/plain').send('hello');
    });
    await request(app).get('/').expect(200, 'hello');
    assert.deepEqual(seen, {
      headers: {
        'x-powered-by': 'Trestle',
        'content-type': 'text/plain; charset=utf-8',
        'content-length': '5',
        etag: 'W/"5-qvTGHdzF6KLavt4PO0gs2a6pQ00"',
      },
      names: ['x-powered-by', 'content-type', 'content-length', 'etag'],
      has: true,
      type: 'text/plain; charset=utf-8',
    });
  });

  test('go on the wire with their usual names, in the order they were set', async () => {
    const app = trestle();
    app.get('/', (_req, res) => res.json({ a: 1 }));
    const server = await serve(app);
    try {
      const names = await rawHeaderNames(server.port, '/');
      assert.deepEqual(
        names.filter((n) => !['Date', 'Connection', 'Keep-Alive'].includes(n)),
        ['X-Powered-By', 'Content-Type', 'Content-Length', 'ETag'],
      );
    } finally {
      await server.close();
    }
  });

  test('reach a setHeader that middleware replaced (instrumentation, header rewriting)', async () => {
    const calls: string[] = [];
    const app = trestle();
    app.use((_req, res, next) => {
      const setHeader = res.setHeader;
      res.setHeader = function (this: Response, name: string, value: number | string | readonly string[]) {
        calls.push(name.toLowerCase());
        return setHeader.call(this, name, name === 'Content-Type' ? 'text/x-rewritten' : value);
      } as typeof res.setHeader;
      next();
    });
    app.get('/', (_req, res) => res.type('text/plain').send('hi'));
    const res = await request(app).get('/').expect(200, 'hi');
    assert.deepEqual(calls, ['content-type', 'content-type', 'content-length', 'etag']);
    assert.equal(res.headers['content-type'], 'text/x-rewritten');
  });

  test('can be removed, replaced and appended to like any other header', async () => {
    const app = appWith((_req, res) => {
      res.removeHeader('X-Powered-By');
      res.type('html');
      res.setHeader('Content-Type', 'text/plain; charset=utf-8');
      res.appendHeader('X-Extra', 'one');
      res.send('text');
    });
    const res = await request(app).get('/').expect(200, 'text');
    assert.equal(res.headers['x-powered-by'], undefined);
    assert.equal(res.headers['content-type'], 'text/plain; charset=utf-8');
    assert.equal(res.headers['x-extra'], 'one');

    const appended = appWith((_req, res) => {
      res.appendHeader('X-Powered-By', 'PHP/8');
      res.send('ok');
    });
    const again = await request(appended).get('/').expect(200);
    assert.equal(again.headers['x-powered-by'], 'Trestle, PHP/8');
  });

  test('stay readable after the answer is finished (what loggers read), Content-Length as a string as in Express', async () => {
    const lengths: unknown[] = [];
    const app = trestle();
    app.use((_req, res, next) => {
      res.on('finish', () => lengths.push(res.getHeader('Content-Length')));
      next();
    });
    app.get('/text', (_req, res) => res.send('four'));
    app.get('/json', (_req, res) => res.json({ a: 1 }));
    app.get('/bytes', (_req, res) => res.send(Buffer.from('ab')));
    app.get('/redirect', (_req, res) => res.redirect('/text'));
    await request(app).get('/text').expect(200, 'four');
    await request(app).get('/json').expect(200, '{"a":1}');
    await request(app).get('/bytes').expect(200);
    await request(app).get('/redirect').expect(302);
    assert.deepEqual(lengths, ['4', '7', '2', '27']);
  });

  test('cannot be set once the head is sent: node’s own error', async () => {
    let caught: unknown;
    const app = appWith((_req, res) => {
      res.send('first');
      try {
        res.type('json');
      } catch (err) {
        caught = err;
      }
    });
    await request(app).get('/').expect(200, 'first');
    assert.equal((caught as { code?: string }).code, 'ERR_HTTP_HEADERS_SENT');
  });

  test('res.type() refuses a value that would split the header, and remembers nothing of it', async () => {
    const app = appWith((_req, res) => {
      res.type('text/plain\r\nX-Injected: 1').send('no');
    });
    for (let i = 0; i < 2; i++) {
      const res = await request(app).get('/').expect(520);
      assert.equal(res.body.code, 'ERR_INVALID_CHAR');
      assert.equal(res.headers['x-injected'], undefined);
    }
  });
});
