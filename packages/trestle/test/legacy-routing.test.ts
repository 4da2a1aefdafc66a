import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import request from 'supertest';
import trestleLegacy from 'trestle/legacy';

type AnyApp = ReturnType<typeof trestleLegacy> & {
  configure(...args: unknown[]): unknown;
  routes: Record<string, Array<{ path: unknown; method: string; callbacks: unknown[]; keys: Array<{ name: string | number; optional: boolean }>; regexp: RegExp }>>;
};

function appLegacy(): AnyApp {
  const app = trestleLegacy() as AnyApp;
  app.set('env', 'production');
  return app;
}

describe('trestle/legacy application', () => {
  test('app.configure calls back for no env or a matching env only', () => {
    const app = appLegacy();
    const calls: string[] = [];
    app.configure(() => calls.push('always'));
    app.configure('production', () => calls.push('production'));
    app.configure('development', () => calls.push('development'));
    app.configure('staging', 'production', () => calls.push('either'));
    assert.deepEqual(calls, ['always', 'production', 'either']);
  });

  test('app.routes holds records keyed by verb with path, method, callbacks, keys and regexp', () => {
    const app = appLegacy();
    const show = () => undefined;
    app.get('/', show);
    app.get('/user/:id', show);
    app.delete('/user/:id', show);
    assert.deepEqual(Object.keys(app.routes), ['get', 'delete']);
    const record = app.routes.get![1]!;
    assert.equal(record.path, '/user/:id');
    assert.equal(record.method, 'get');
    assert.deepEqual(record.callbacks, [show]);
    assert.deepEqual(record.keys, [{ name: 'id', optional: false }]);
    assert.ok(record.regexp instanceof RegExp);
    assert.ok(record.regexp.test('/user/7'));
  });

  test('removing a record from app.routes removes the route', async () => {
    const app = appLegacy();
    app.get('/gone', (_req, res) => res.send('still here'));
    app.get('/kept', (_req, res) => res.send('kept'));
    await request(app).get('/gone').expect(200, 'still here');
    app.routes.get!.splice(0, 1);
    await request(app).get('/gone').expect(404);
    await request(app).get('/kept').expect(200, 'kept');
  });

  test('app.use(app.router) places the routes in the middleware chain', async () => {
    const app = appLegacy();
    const order: string[] = [];
    app.use((_req, _res, next) => {
      order.push('before');
      next();
    });
    app.use(app.router);
    app.use((req, res) => {
      order.push('after');
      res.send(`fallback ${req.url}`);
    });
    // Defined after the fallback middleware, yet it runs where app.router was placed.
    app.get('/hello', (_req, res) => {
      order.push('route');
      res.send('route');
    });
    await request(app).get('/hello').expect('route');
    assert.deepEqual(order, ['before', 'route']);
    await request(app).get('/other').expect('fallback /other');
  });

  test('without app.use(app.router), the first route mounts the table where it stands', async () => {
    const app = appLegacy();
    app.use((_req, res, next) => {
      res.set('X-First', 'yes');
      next();
    });
    app.get('/r', (_req, res) => res.send('r'));
    app.use((_req, res) => res.send('late middleware'));
    const res = await request(app).get('/r').expect('r');
    assert.equal(res.headers['x-first'], 'yes');
    await request(app).get('/zzz').expect('late middleware');
  });

  test('req.route is the legacy record; params triggers and next("route") work', async () => {
    const app = appLegacy();
    app.param('id', (req, _res, next, value) => {
      (req.params as Record<string, string>).id = String(value).toUpperCase();
      next();
    });
    app.get('/u/:id', (req, _res, next) => (req.params.id === 'SKIP' ? next('route') : next()), (req, res) => {
      const route = req.route;
      res.send(`${req.params.id} ${route && 'method' in route ? route.method : ''} ${route?.path}`);
    });
    app.get('/u/:id', (_req, res) => res.send('second route'));
    await request(app).get('/u/ab').expect('AB get /u/:id');
    await request(app).get('/u/skip').expect('second route');
  });

  test('HEAD falls back to GET routes; OPTIONS is answered from the table, HEAD counting the GET routes as Express 3 did', async () => {
    const app = appLegacy();
    app.get('/x', (_req, res) => res.send('body'));
    app.post('/x', (_req, res) => res.send('post'));
    const head = await request(app).head('/x').expect(200);
    assert.equal(head.headers['content-length'], '4');
    const options = await request(app).options('/x').expect(200, 'GET,HEAD,POST');
    assert.equal(options.headers.allow, 'GET,HEAD,POST');
  });

  test('app.all adds the callbacks for every method', async () => {
    const app = appLegacy();
    app.all('/any', (req, res) => res.send(req.method));
    await request(app).put('/any').expect('PUT');
    await request(app).delete('/any').expect('DELETE');
    assert.ok(app.routes.get!.some((r) => r.path === '/any'));
    assert.ok(app.routes.patch!.some((r) => r.path === '/any'));
  });

  test('a mount path also serves paths continuing with "."', async () => {
    const app = appLegacy();
    app.use('/apple', (req, res) => res.send(`${req.baseUrl}|${req.url}`));
    await request(app).get('/apple.html').expect('/apple|/.html');
    await request(app).get('/apple/images').expect('/apple|/images');
    await request(app).get('/applesauce').expect(404);
  });

  test('app.param(fn) redefines param() without a warning', async () => {
    const app = appLegacy();
    app.param(((name: string, pattern: unknown) => {
      if (!(pattern instanceof RegExp)) return undefined;
      return (_req: unknown, _res: unknown, next: (e?: unknown) => void, value: unknown) => (pattern.test(String(value)) ? next() : next('route'));
    }) as unknown as string, undefined as never);
    app.param('id', /^\d+$/ as never);
    app.get('/n/:id', (req, res) => res.send(`number ${req.params.id}`));
    await request(app).get('/n/5').expect('number 5');
    await request(app).get('/n/x').expect(404);
  });
});
