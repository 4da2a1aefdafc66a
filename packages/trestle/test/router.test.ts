import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import request from 'supertest';
import trestle from 'trestle';
import { rawRequest, serve } from './helpers';

function prodApp() {
  const app = trestle();
  app.set('env', 'production');
  return app;
}

describe('Router', () => {
  test('is a middleware function mountable with use(), with router.use/all/METHOD/route', async () => {
    const app = prodApp();
    const router = trestle.Router();
    assert.equal(typeof router, 'function');
    router.use((req, res, next) => {
      res.set('X-Router', 'yes');
      next();
    });
    router.all('/all', (req, res) => res.send(`all ${req.method}`));
    router.get('/get', (_req, res) => res.send('get'));
    router.route('/route').post((_req, res) => res.send('route post'));
    app.use('/r', router);
    const res = await request(app).get('/r/get').expect(200, 'get');
    assert.equal(res.headers['x-router'], 'yes');
    await request(app).patch('/r/all').expect('all PATCH');
    await request(app).post('/r/route').expect('route post');
    await request(app).get('/get').expect(404);
  });

  test('new trestle.Router() works too; routers nest inside routers', async () => {
    const app = prodApp();
    const outer = new (trestle.Router as unknown as new () => trestle.Router)();
    const inner = trestle.Router();
    inner.get('/leaf', (req, res) => res.send(`${req.baseUrl}|${req.url}|${req.originalUrl}|${req.path}`));
    outer.use('/inner', inner);
    app.use('/outer', outer);
    await request(app).get('/outer/inner/leaf?q=1').expect('/outer/inner|/leaf?q=1|/outer/inner/leaf?q=1|/leaf');
  });

  test('caseSensitive option and the case sensitive routing setting, both ways', async () => {
    const loose = prodApp();
    loose.get('/Foo', (_req, res) => res.send('foo'));
    await request(loose).get('/foo').expect(200, 'foo');
    await request(loose).get('/FOO').expect(200, 'foo');

    const strictCase = prodApp();
    strictCase.enable('case sensitive routing');
    strictCase.get('/Foo', (_req, res) => res.send('Foo'));
    await request(strictCase).get('/Foo').expect(200, 'Foo');
    await request(strictCase).get('/foo').expect(404);

    const app = prodApp();
    const router = trestle.Router({ caseSensitive: true });
    router.get('/Bar/:id', (req, res) => res.send(req.params.id));
    app.use(router);
    await request(app).get('/Bar/X').expect(200, 'X');
    await request(app).get('/bar/X').expect(404);
  });

  test('strict option and the strict routing setting, both ways', async () => {
    const loose = prodApp();
    loose.get('/foo', (_req, res) => res.send('foo'));
    loose.get('/bar/', (_req, res) => res.send('bar'));
    await request(loose).get('/foo').expect(200);
    await request(loose).get('/foo/').expect(200);
    await request(loose).get('/bar').expect(200);
    await request(loose).get('/bar/').expect(200);

    const strict = prodApp();
    strict.enable('strict routing');
    strict.get('/foo', (_req, res) => res.send('foo'));
    strict.get('/bar/', (_req, res) => res.send('bar/'));
    await request(strict).get('/foo').expect(200, 'foo');
    await request(strict).get('/foo/').expect(404);
    await request(strict).get('/bar/').expect(200, 'bar/');
    await request(strict).get('/bar').expect(404);

    const app = prodApp();
    const router = trestle.Router({ strict: true });
    router.get('/baz', (_req, res) => res.send('baz'));
    app.use(router);
    await request(app).get('/baz').expect(200);
    await request(app).get('/baz/').expect(404);
  });

  test('mergeParams keeps the parent params; the child wins a clash', async () => {
    const app = prodApp();
    const merged = trestle.Router({ mergeParams: true });
    merged.get('/:id', (req, res) => res.json(req.params));
    const plain = trestle.Router();
    plain.get('/:child', (req, res) => res.json(req.params));
    app.use('/users/:user', merged);
    app.use('/teams/:team', plain);
    app.use('/clash/:id', merged);
    await request(app).get('/users/ann/42').expect(200, '{"user":"ann","id":"42"}');
    await request(app).get('/teams/red/7').expect(200, '{"child":"7"}');
    await request(app).get('/clash/outer/inner').expect(200, '{"id":"inner"}');
  });

  test('plain use(fn) middleware: all run in order, each with its own params, a long run stays off the call stack, an error skips the rest', async () => {
    const app = prodApp();
    const seen: unknown[] = [];
    // 5,000 synchronous middleware would overflow the stack if the router did not break the run up.
    for (let i = 0; i < 5000; i++) {
      app.use((req, _res, next) => {
        seen.push(req.params);
        next();
      });
    }
    const inner = trestle.Router({ mergeParams: true });
    inner.use((req, res, next) => {
      res.set('X-Inner', JSON.stringify(req.params));
      if (req.query.fail) next(new Error('stop'));
      else next();
    });
    inner.use((_req, res, next) => {
      res.set('X-Skipped', 'no');
      next();
    });
    inner.get('/', (req, res) => res.json({ params: req.params, ran: seen.length }));
    inner.use((err: Error, _req: unknown, res: { status(n: number): { send(s: string): void } }, _next: unknown) => res.status(500).send(err.message));
    app.use('/u/:id', inner);

    const res = await request(app).get('/u/7').expect(200);
    assert.deepEqual(res.body, { params: { id: '7' }, ran: 5000 });
    assert.equal(res.headers['x-inner'], '{"id":"7"}');
    assert.equal(res.headers['x-skipped'], 'no');
    assert.equal(new Set(seen).size, 5000, 'a fresh params object for every middleware');
    assert.ok(seen.every((p) => Object.keys(p as object).length === 0));

    const failed = await request(app).get('/u/8?fail=1').expect(500, 'stop');
    assert.equal(failed.headers['x-inner'], '{"id":"8"}');
    assert.equal(failed.headers['x-skipped'], undefined);
  });

  test('mergeParams with regular expressions: the parent captures come first', async () => {
    const app = prodApp();
    const router = trestle.Router({ mergeParams: true });
    router.get(/^\/(\d+)$/, (req, res) => res.json(req.params));
    app.use(/^\/(\w+)/, router);
    await request(app).get('/abc/12').expect(200, '{"0":"abc","1":"12"}');
  });

  test('middleware added through a router runs for any of its routes that match', async () => {
    const app = prodApp();
    const a = trestle.Router();
    const b = trestle.Router();
    const seen: string[] = [];
    a.use((req, _res, next) => {
      seen.push(`a:${req.url}`);
      next();
    });
    b.get('/b', (_req, res) => res.send('b'));
    app.use('/shared', a);
    app.use('/shared', b);
    await request(app).get('/shared/b').expect('b');
    assert.deepEqual(seen, ['a:/b']);
  });
});

describe('v5 path syntax', () => {
  test(':name parameters, decoded, in a null-prototype object', async () => {
    const app = prodApp();
    app.get('/users/:id/books/:bookId', (req, res) => {
      res.json({ params: req.params, proto: Object.getPrototypeOf(req.params) === null });
    });
    await request(app).get('/users/a%20b/books/%E2%9C%93').expect('{"params":{"id":"a b","bookId":"✓"},"proto":true}');
  });

  test('{:name} optional parameters', async () => {
    const app = prodApp();
    app.get('/items{/:page}', (req, res) => res.json({ page: req.params.page ?? null }));
    await request(app).get('/items').expect('{"page":null}');
    await request(app).get('/items/3').expect('{"page":"3"}');
  });

  test('*name wildcards are arrays of segments; {*name} also matches nothing', async () => {
    const app = prodApp();
    app.get('/files/*path', (req, res) => res.json(req.params.path));
    app.get('/docs{/*rest}', (req, res) => res.json(req.params.rest ?? null));
    await request(app).get('/files/a/b%20c/d.txt').expect('["a","b c","d.txt"]');
    await request(app).get('/files').expect(404);
    await request(app).get('/docs').expect('null');
    await request(app).get('/docs/x/y').expect('["x","y"]');
  });

  test('a bare * is a syntax error at definition time, as in Express 5', () => {
    assert.throws(() => prodApp().get('*', (_req, res) => res.send('x')), TypeError);
  });

  test('regular expressions: capture groups by index, named groups by name, ordinary object', async () => {
    const app = prodApp();
    app.get(/^\/re\/(\d+)\/(\w+)$/, (req, res) => res.json({ p: req.params, plain: Object.getPrototypeOf(req.params) === Object.prototype }));
    app.get(/^\/named\/(?<year>\d{4})-(?<month>\d{2})$/, (req, res) => res.json(req.params));
    await request(app).get('/re/12/ab').expect('{"p":{"0":"12","1":"ab"},"plain":true}');
    await request(app).get('/named/2024-05').expect('{"year":"2024","month":"05"}');
  });

  test('arrays of paths', async () => {
    const app = prodApp();
    app.get(['/one', '/two/:n', /^\/three$/], (req, res) => res.json(req.params));
    await request(app).get('/one').expect('{}');
    await request(app).get('/two/2').expect('{"n":"2"}');
    await request(app).get('/three').expect('{}');
    await request(app).get('/four').expect(404);
  });

  test('matching ignores the query string and a fragment, on short and long paths alike', async () => {
    const app = prodApp();
    app.get('/', (_req, res) => res.send('root'));
    app.get('/a', (_req, res) => res.send('a'));
    app.get('/long/path/segment', (_req, res) => res.send('long'));
    await request(app).get('/?a=1&b=2').expect(200, 'root');
    // Sent raw: clients drop fragments. Either delimiter ends the path, whichever comes first.
    const served = await serve(app);
    try {
      for (const path of ['/a?b#c', '/a#b?c', '/a#']) assert.equal((await rawRequest(served.port, 'GET', path)).body, 'a', path);
      for (const path of ['/long/path/segment?x=1#f', '/long/path/segment#f?x=1', '/long/path/segment#']) {
        assert.equal((await rawRequest(served.port, 'GET', path)).body, 'long', path);
      }
      assert.equal((await rawRequest(served.port, 'GET', '/long/path/segmentx?y')).status, 404);
    } finally {
      await served.close();
    }
  });

  test('malformed percent-encoding in a parameter answers 400 and the server keeps serving', async () => {
    const app = prodApp();
    app.get('/p/:id', (req, res) => res.send(req.params.id));
    const served = await serve(app);
    try {
      const bad = await rawRequest(served.port, 'GET', '/p/%E0%A4%A');
      assert.equal(bad.status, 400);
      assert.match(bad.body, /<pre>Bad Request<\/pre>/);
      const good = await rawRequest(served.port, 'GET', '/p/ok');
      assert.equal(good.status, 200);
      assert.equal(good.body, 'ok');
    } finally {
      await served.close();
    }
  });

  test('the decode error reaches error handlers with status 400', async () => {
    const app = prodApp();
    app.get('/p/:id', (_req, res) => res.send('never'));
    app.use((err: { status: number; message: string }, _req: trestle.Request, res: trestle.Response, _next: trestle.NextFunction) => {
      res.status(err.status).send(err.message);
    });
    await request(app).get('/p/%ZZ').expect(400, "Failed to decode param '%ZZ'");
  });
});

describe('mount paths', () => {
  test('match the path itself and continuations with /, not with other characters', async () => {
    const app = prodApp();
    app.use('/apple', (req, res) => res.send(`${req.baseUrl}|${req.url}|${req.path}`));
    await request(app).get('/apple').expect('/apple|/|/');
    await request(app).get('/apple/').expect('/apple|/|/');
    await request(app).get('/apple/images/x.png?s=1').expect('/apple|/images/x.png?s=1|/images/x.png');
    await request(app).get('/applesauce').expect(404);
    await request(app).get('/apple.html').expect(404);
  });

  test('the mount point is stripped for that function only', async () => {
    const app = prodApp();
    const urls: string[] = [];
    app.use('/a', (req, _res, next) => {
      urls.push(req.url);
      next();
    });
    app.use((req, res) => res.send(`${req.url}|${req.baseUrl}`));
    await request(app).get('/a/b').expect('/a/b|');
    assert.deepEqual(urls, ['/b']);
  });

  test('named parameters in mount paths', async () => {
    const app = prodApp();
    app.use('/shop/:shopId', (req, res) => res.send(`${req.params.shopId}|${req.baseUrl}|${req.url}`));
    await request(app).get('/shop/9/cart').expect('9|/shop/9|/cart');
  });

  test('absolute-form request URLs keep their scheme and host through mounting', async () => {
    const app = prodApp();
    app.use('/mount', (req, res) => res.send(`${req.url}|${req.baseUrl}|${req.path}`));
    const served = await serve(app);
    try {
      const res = await rawRequest(served.port, 'GET', 'http://example.com/mount/deep?x=1');
      assert.equal(res.body, 'http://example.com/deep?x=1|/mount|/deep');
    } finally {
      await served.close();
    }
  });
});

describe('next()', () => {
  test("next('route') skips the rest of the route's callbacks", async () => {
    const app = prodApp();
    app.get(
      '/x',
      (req, _res, next) => (req.query.skip ? next('route') : next()),
      (_req, res) => res.send('first route'),
    );
    app.get('/x', (_req, res) => res.send('second route'));
    await request(app).get('/x').expect('first route');
    await request(app).get('/x?skip=1').expect('second route');
  });

  test("next('router') leaves the router; processing continues outside it", async () => {
    const app = prodApp();
    const router = trestle.Router();
    router.use((req, _res, next) => (req.query.out ? next('router') : next()));
    router.get('/r', (_req, res) => res.send('inside'));
    app.use(router);
    app.get('/r', (_req, res) => res.send('outside'));
    await request(app).get('/r').expect('inside');
    await request(app).get('/r?out=1').expect('outside');
  });

  test('next(err) skips to error handlers (four parameters); they can pass it on or recover', async () => {
    const app = prodApp();
    const order: string[] = [];
    app.get('/e', (_req, _res, next) => next(new Error('bad')));
    app.use((_req, _res, next) => {
      order.push('skipped normal middleware');
      next();
    });
    app.use((err: Error, _req: trestle.Request, _res: trestle.Response, next: trestle.NextFunction) => {
      order.push(`first handler: ${err.message}`);
      next(err);
    });
    app.use((err: Error, _req: trestle.Request, res: trestle.Response, _next: trestle.NextFunction) => {
      order.push('second handler');
      res.status(503).send(`recovered from ${err.message}`);
    });
    await request(app).get('/e').expect(503, 'recovered from bad');
    assert.deepEqual(order, ['first handler: bad', 'second handler']);
  });

  test('an error handler that calls next() with no error resumes normal handling', async () => {
    const app = prodApp();
    app.use((_req, _res, next) => next(new Error('x')));
    app.use((_err: Error, _req: trestle.Request, _res: trestle.Response, next: trestle.NextFunction) => next());
    app.use((_req, res) => res.send('resumed'));
    await request(app).get('/').expect('resumed');
  });

  test('a synchronous throw and a rejected promise both become next(err)', async () => {
    const app = prodApp();
    app.get('/sync', () => {
      throw new Error('sync boom');
    });
    app.get('/async', async () => {
      await Promise.resolve();
      throw new Error('async boom');
    });
    app.get('/reject-undefined', () => Promise.reject(undefined));
    app.param('p', async () => {
      throw new Error('param boom');
    });
    app.get('/param/:p', (_req, res) => res.send('never'));
    app.use((err: Error, _req: trestle.Request, res: trestle.Response, _next: trestle.NextFunction) => {
      res.status(500).send(err.message);
    });
    await request(app).get('/sync').expect(500, 'sync boom');
    await request(app).get('/async').expect(500, 'async boom');
    await request(app).get('/reject-undefined').expect(500, 'Rejected promise');
    await request(app).get('/param/1').expect(500, 'param boom');
  });

  test('thousands of synchronous middleware do not overflow the stack', async () => {
    const app = prodApp();
    for (let i = 0; i < 5000; i++) app.use((_req, _res, next) => next());
    app.get('/', (_req, res) => res.send('deep'));
    await request(app).get('/').expect(200, 'deep');
  });
});

describe('HEAD and OPTIONS', () => {
  test('a GET route answers HEAD with the same headers and no body', async () => {
    const app = prodApp();
    app.get('/h', (_req, res) => res.send('hello body'));
    const head = await request(app).head('/h').expect(200);
    assert.equal(head.headers['content-length'], '10');
    assert.equal(head.text, undefined);
  });

  test('an explicit HEAD route defined first wins over GET', async () => {
    const app = prodApp();
    app.head('/h', (_req, res) => res.set('X-Head', 'own').end());
    app.get('/h', (_req, res) => res.send('get'));
    const head = await request(app).head('/h').expect(200);
    assert.equal(head.headers['x-head'], 'own');
  });

  test('OPTIONS with no handler of its own answers 200 with Allow listing the matching routes', async () => {
    const app = prodApp();
    app.get('/o', (_req, res) => res.send('get'));
    app.post('/o', (_req, res) => res.send('post'));
    app.delete('/o', (_req, res) => res.send('delete'));
    const res = await request(app).options('/o').expect(200, 'DELETE, GET, HEAD, POST');
    assert.equal(res.headers.allow, 'DELETE, GET, HEAD, POST');
    assert.equal(res.headers['content-type'], 'text/plain');
    assert.equal(res.headers['x-content-type-options'], 'nosniff');
    await request(app).options('/none').expect(404);
  });

  test('a nested router with matching routes answers OPTIONS with its own methods, as Express does', async () => {
    const app = prodApp();
    const router = trestle.Router();
    router.put('/n', (_req, res) => res.send('put'));
    app.use(router);
    app.patch('/n', (_req, res) => res.send('patch'));
    const res = await request(app).options('/n').expect(200, 'PUT');
    assert.equal(res.headers.allow, 'PUT');
  });

  test('an OPTIONS handler of its own is used', async () => {
    const app = prodApp();
    app.get('/o', (_req, res) => res.send('get'));
    app.options('/o', (_req, res) => res.set('Allow', 'GET').sendStatus(204));
    const res = await request(app).options('/o').expect(204);
    assert.equal(res.headers.allow, 'GET');
  });
});

describe('param triggers', () => {
  test('fire once per request per value, even when several routes match', async () => {
    const app = prodApp();
    let calls = 0;
    app.param('id', (req, _res, next, value) => {
      calls++;
      (req as unknown as { user: string }).user = `user-${String(value)}`;
      next();
    });
    app.get('/u/:id', (_req, _res, next) => next());
    app.get('/u/:id', (req, res) => res.send((req as unknown as { user: string }).user));
    await request(app).get('/u/7').expect('user-7');
    assert.equal(calls, 1);
  });

  test('are local to their router and do not fire for inherited params', async () => {
    const app = prodApp();
    const fired: string[] = [];
    app.param('id', (_req, _res, next, value) => {
      fired.push(`app:${String(value)}`);
      next();
    });
    const router = trestle.Router({ mergeParams: true });
    router.param('id', (_req, _res, next, value) => {
      fired.push(`router:${String(value)}`);
      next();
    });
    router.get('/', (req, res) => res.send(String((req.params as Record<string, string>).id)));
    app.use('/things/:id', router);
    await request(app).get('/things/5').expect('5');
    assert.deepEqual(fired, ['app:5']);
  });

  test('receive (req, res, next, value, name); an error goes to next(err)', async () => {
    const app = prodApp();
    app.param('id', (_req, _res, next, value, name) => {
      if (value === 'missing') return next(Object.assign(new Error(`no ${name} ${String(value)}`), { status: 404 }));
      next();
    });
    app.get('/r/:id', (req, res) => res.send(`found ${req.params.id}`));
    app.use((err: { status: number; message: string }, _req: trestle.Request, res: trestle.Response, _next: trestle.NextFunction) => {
      res.status(err.status).send(err.message);
    });
    await request(app).get('/r/1').expect(200, 'found 1');
    await request(app).get('/r/missing').expect(404, 'no id missing');
  });

  test('can change the value the route sees', async () => {
    const app = prodApp();
    app.param('n', (req, _res, next, value) => {
      (req.params as Record<string, string>).n = String(Number(value) * 2);
      next();
    });
    app.get('/double/:n', (req, res) => res.send(req.params.n));
    await request(app).get('/double/21').expect('42');
  });

  test('v5: router.param needs a name', () => {
    const router = trestle.Router();
    assert.throws(() => router.param((() => undefined) as unknown as string, () => undefined), /argument name must be a string/);
  });
});

describe('req.route and req.params reset', () => {
  test('req.route is the matched route with path, stack and methods', async () => {
    const app = prodApp();
    app.get('/users/:id', (req, res) => {
      const route = req.route!;
      res.json({ path: route.path, methods: route.methods, stack: route.stack.length });
    });
    await request(app).get('/users/1').expect('{"path":"/users/:id","methods":{"get":true},"stack":1}');
  });

  test('changes to req.params do not leak into the next layer', async () => {
    const app = prodApp();
    app.get('/p/:a', (req, _res, next) => {
      (req.params as Record<string, string>).a = 'changed';
      next();
    });
    app.get('/p/:a', (req, res) => res.send(req.params.a));
    await request(app).get('/p/original').expect('original');
  });
});

describe('argument errors', () => {
  test('use() and route methods reject what is not a function', () => {
    const app = prodApp();
    assert.throws(() => app.use('/x'), /app.use\(\) requires a middleware function/);
    assert.throws(() => app.use('/x', 'nope' as never), /argument handler must be a function/);
    assert.throws(() => app.get('/x', 'nope' as never), /argument handler must be a function/);
    assert.throws(() => trestle.Router().use(), /argument handler is required/);
    // @ts-expect-error -- the types require a handler; JavaScript callers get the runtime error
    assert.throws(() => app.route('/r').get(), /argument handler is required/);
  });
});
