// The headers trestle sets on its hot path (X-Powered-By, Content-Type,
// Content-Length, ETag) skip node's setHeader (see src/header-store.ts).
// Everything that reads or changes headers through node's API must still
// see them exactly as if setHeader had been called.
import assert from 'node:assert/strict';
import * as http from 'node:http';
import { createRequire } from 'node:module';
import { describe, test } from 'node:test';
import cookieParser from 'cookie-parser';
import cors from 'cors';
import helmet from 'helmet';
import request from 'supertest';
import trestle, { type Response } from 'trestle';
import { rawRequest, serve } from './helpers';
import { serveH2 } from './http2-helpers';

/** Express 5 (installed as `express5`, untyped), called through trestle's types, which both implement here. */
const express5 = createRequire(__filename)('express5') as { (): trestle.Application; json(): trestle.RequestHandler };
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

/** The raw header lines of one answer, `[name, value]` in wire order, Date left out (it moves). */
async function wireHeaders(app: http.RequestListener, path: string, headers: http.OutgoingHttpHeaders = {}): Promise<Array<[string, string]>> {
  const server = await serve(app);
  try {
    return await new Promise((resolve, reject) => {
      http
        .get({ host: '127.0.0.1', port: server.port, path, headers, agent: false }, (res) => {
          res.resume();
          const lines: Array<[string, string]> = [];
          for (let i = 0; i < res.rawHeaders.length; i += 2) lines.push([res.rawHeaders[i]!, res.rawHeaders[i + 1]!]);
          res.on('end', () => resolve(lines.filter(([name]) => name !== 'Date')));
        })
        .on('error', reject);
    });
  } finally {
    await server.close();
  }
}

// removeHeader is trestle's own, so that the header store stays fast after
// a removal (see src/response/header-store.ts); it must do what node's does.
describe('res.removeHeader', () => {
  test('helmet, cors, cookie-parser and json() give the same header lines as on Express 5', async () => {
    // Each framework with its own json().
    const build = (app: trestle.Application, json: () => trestle.RequestHandler) => {
      app.set('env', 'production');
      app.use(helmet(), cors(), cookieParser(), json());
      app.get('/api/items/:id', (req, res) => {
        res.json({ id: req.params.id, q: req.query.q, session: (req.cookies as Record<string, string>).session });
      });
      return app as unknown as http.RequestListener;
    };
    const headers = { Cookie: 'session=abc; theme=dark', Origin: 'http://client.test' };
    const mine = await wireHeaders(build(trestle(), () => trestle.json()), '/api/items/7?q=x', headers);
    const theirs = await wireHeaders(build(express5(), () => express5.json()), '/api/items/7?q=x', headers);
    assert.deepEqual(mine, theirs);
    assert.ok(mine.some(([name, value]) => name === 'X-Content-Type-Options' && value === 'nosniff'));
    assert.ok(!mine.some(([name]) => name === 'X-Powered-By'));
  });

  test('keeps the order of the other headers for getHeaderNames, getHeaders and the wire', async () => {
    let seen: unknown;
    const app = appWith((_req, res) => {
      res.setHeader('X-One', '1');
      res.setHeader('X-Two', '2');
      res.setHeader('X-Three', '3');
      res.removeHeader('x-two');
      res.removeHeader('X-Absent');
      seen = { names: res.getHeaderNames(), headers: { ...res.getHeaders() }, has: res.hasHeader('X-Two') };
      res.setHeader('X-Two', 'again');
      res.end();
    });
    const lines = await wireHeaders(app as unknown as http.RequestListener, '/');
    assert.deepEqual(seen, { names: ['x-powered-by', 'x-one', 'x-three'], headers: { 'x-powered-by': 'Trestle', 'x-one': '1', 'x-three': '3' }, has: false });
    assert.deepEqual(lines.map(([name]) => name).slice(0, 4), ['X-Powered-By', 'X-One', 'X-Three', 'X-Two']);
  });

  test('removing Date leaves it out, as node does; Content-Length set by send() after a removal is still sent', async () => {
    const app = appWith((_req, res) => {
      res.removeHeader('Date');
      res.removeHeader('X-Powered-By');
      res.removeHeader('Content-Length');
      res.send('body');
    });
    const server = await serve(app as unknown as http.RequestListener);
    try {
      const raw = await rawRequest(server.port, 'GET', '/');
      assert.equal(raw.headers.date, undefined);
      assert.equal(raw.headers['x-powered-by'], undefined);
      assert.equal(raw.headers['content-length'], '4');
      assert.equal(raw.body, 'body');
    } finally {
      await server.close();
    }
  });

  test("node's errors: a name that is not a string, and a head already sent", async () => {
    const codes: unknown[] = [];
    const app = appWith((_req, res) => {
      try {
        res.removeHeader(42 as unknown as string);
      } catch (err) {
        codes.push((err as { code?: string }).code);
      }
      res.send('sent');
      try {
        res.removeHeader('ETag');
      } catch (err) {
        codes.push((err as { code?: string }).code);
      }
    });
    await request(app).get('/').expect(200, 'sent');
    assert.deepEqual(codes, ['ERR_INVALID_ARG_TYPE', 'ERR_HTTP_HEADERS_SENT']);
  });

  test('an HTTP/2 response removes through node’s HTTP/2 method', async () => {
    const app = appWith((_req, res) => {
      res.setHeader('X-Kept', 'yes');
      res.setHeader('X-Gone', 'no');
      res.removeHeader('X-Gone');
      res.removeHeader('X-Powered-By');
      res.send('h2');
    });
    const served = await serveH2(app, 'h2c');
    try {
      const res = await served.request('/');
      assert.equal(res.text, 'h2');
      assert.equal(res.headers['x-kept'], 'yes');
      assert.equal(res.headers['x-gone'], undefined);
      assert.equal(res.headers['x-powered-by'], undefined);
    } finally {
      await served.close();
    }
  });
});
