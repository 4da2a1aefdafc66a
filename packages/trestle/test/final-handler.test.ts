import assert from 'node:assert/strict';
import * as http from 'node:http';
import { describe, test } from 'node:test';
import request from 'supertest';
import trestle from 'trestle';
import { serve } from './helpers';

const page = (message: string) =>
  `<!DOCTYPE html>\n<html lang="en">\n<head>\n<meta charset="utf-8">\n<title>Error</title>\n</head>\n<body>\n<pre>${message}</pre>\n</body>\n</html>\n`;

function appIn(env: string) {
  const app = trestle();
  app.set('env', env);
  return app;
}

describe('404 when nothing answers', () => {
  test('an HTML page naming method and path, with the security headers', async () => {
    const res = await request(appIn('production')).get('/missing/page?q=1').expect(404);
    assert.equal(res.text, page('Cannot GET /missing/page'));
    assert.equal(res.headers['content-type'], 'text/html; charset=utf-8');
    assert.equal(res.headers['content-security-policy'], "default-src 'none'");
    assert.equal(res.headers['x-content-type-options'], 'nosniff');
    assert.equal(res.headers['content-length'], String(Buffer.byteLength(res.text)));
  });

  test('the path is encoded so nothing from the request becomes markup', async () => {
    const served = await serve(appIn('production'));
    try {
      const body = await new Promise<string>((resolve, reject) => {
        http
          .get({ host: '127.0.0.1', port: served.port, path: '/<script>alert(1)</script>', agent: false }, (res) => {
            let data = '';
            res.on('data', (d: Buffer) => (data += d.toString()));
            res.on('end', () => resolve(data));
          })
          .on('error', reject);
      });
      assert.equal(body, page('Cannot GET /%3Cscript%3Ealert(1)%3C/script%3E'));
    } finally {
      await served.close();
    }
  });

  test('HEAD gets the status and headers without a body', async () => {
    const res = await request(appIn('production')).head('/missing').expect(404);
    assert.equal(res.text, undefined);
    assert.equal(res.headers['content-length'], String(Buffer.byteLength(page('Cannot HEAD /missing'))));
  });
});

describe('errors nobody handled', () => {
  test('in development the page shows the stack, escaped', async () => {
    const app = appIn('development');
    app.get('/', () => {
      throw new Error('bad <thing> & more');
    });
    const saved = console.error;
    const printed: string[] = [];
    console.error = (...args: unknown[]) => printed.push(args.join(' '));
    try {
      const res = await request(app).get('/').expect(500);
      assert.match(res.text, /^<!DOCTYPE html>/);
      assert.match(res.text, /<pre>Error: bad &lt;thing&gt; &amp; more<br> &nbsp; &nbsp;at /);
    } finally {
      console.error = saved;
    }
    assert.equal(printed.length, 1);
    assert.match(printed[0]!, /^Error: bad <thing> & more\n\s+at /);
  });

  test('in production only the status message, and nothing printed when env is test', async () => {
    const prod = appIn('production');
    prod.get('/', () => {
      throw new Error('secret detail');
    });
    const saved = console.error;
    console.error = () => undefined;
    try {
      const res = await request(prod).get('/').expect(500);
      assert.equal(res.text, page('Internal Server Error'));
    } finally {
      console.error = saved;
    }

    const quiet = appIn('test');
    quiet.get('/', () => {
      throw new Error('quiet');
    });
    const printed: unknown[] = [];
    console.error = (...args: unknown[]) => printed.push(args);
    try {
      await request(quiet).get('/').expect(500);
    } finally {
      console.error = saved;
    }
    assert.equal(printed.length, 0);
  });

  test('the error status (status or statusCode, 4xx/5xx) and its headers are used', async () => {
    const app = appIn('test');
    app.get('/status', () => {
      throw Object.assign(new Error('x'), { status: 403, headers: { 'X-Reason': 'policy' } });
    });
    app.get('/statusCode', () => {
      throw Object.assign(new Error('x'), { statusCode: 503 });
    });
    app.get('/not-an-error-status', () => {
      throw Object.assign(new Error('x'), { status: 200, headers: { 'X-Ignored': 'yes' } });
    });
    app.get('/res-status', (_req, res) => {
      res.status(422);
      throw new Error('x');
    });
    const forbidden = await request(app).get('/status').expect(403);
    assert.equal(forbidden.headers['x-reason'], 'policy');
    await request(app).get('/statusCode').expect(503);
    const ignored = await request(app).get('/not-an-error-status').expect(500);
    assert.equal(ignored.headers['x-ignored'], undefined);
    await request(app).get('/res-status').expect(422);
  });

  test('a non-Error value passed to next() still gets a page', async () => {
    const app = appIn('development');
    app.get('/', (_req, _res, next) => next('plain string'));
    const saved = console.error;
    console.error = () => undefined;
    try {
      const res = await request(app).get('/').expect(500);
      assert.equal(res.text, page('plain string'));
    } finally {
      console.error = saved;
    }
  });

  test('headers the failed answer had set for its body are removed', async () => {
    const app = appIn('test');
    app.get('/', (_req, res) => {
      res.set('Content-Encoding', 'gzip');
      res.set('Content-Language', 'fr');
      throw new Error('x');
    });
    const res = await request(app).get('/').expect(500);
    assert.equal(res.headers['content-encoding'], undefined);
    assert.equal(res.headers['content-language'], undefined);
  });

  test('an error after the headers went out destroys the socket; the next request is served', async () => {
    const app = appIn('test');
    app.get('/partial', (_req, res, next) => {
      res.write('partial body');
      next(new Error('too late'));
    });
    app.get('/ok', (_req, res) => res.send('ok'));
    const served = await serve(app);
    try {
      const outcome = await new Promise<string>((resolve) => {
        http
          .get({ host: '127.0.0.1', port: served.port, path: '/partial', agent: false }, (res) => {
            res.on('data', () => undefined);
            res.on('end', () => resolve('ended cleanly'));
            res.on('error', () => resolve('aborted'));
            res.on('aborted', () => resolve('aborted'));
          })
          .on('error', () => resolve('aborted'));
      });
      assert.equal(outcome, 'aborted');
      const ok = await request(app).get('/ok');
      assert.equal(ok.text, 'ok');
    } finally {
      await served.close();
    }
  });

  test('an error handler that throws reaches the next error handler or the final page', async () => {
    const app = appIn('test');
    app.get('/', () => {
      throw new Error('first');
    });
    app.use((_err: unknown, _req: trestle.Request, _res: trestle.Response, _next: trestle.NextFunction) => {
      throw new Error('handler failed');
    });
    app.use((err: Error, _req: trestle.Request, res: trestle.Response, _next: trestle.NextFunction) => {
      res.status(500).send(`caught: ${err.message}`);
    });
    await request(app).get('/').expect(500, 'caught: handler failed');
  });
});
