import assert from 'node:assert/strict';
import { EventEmitter } from 'node:events';
import * as http from 'node:http';
import * as https from 'node:https';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { AddressInfo } from 'node:net';
import { describe, test } from 'node:test';
import request from 'supertest';
import trestle from 'trestle';
import { rawRequest, serve } from './helpers';

describe('the factory', () => {
  test('require() returns the factory itself, with its members', () => {
    // eslint-disable-next-line @typescript-eslint/no-require-imports
    const required = require('trestle') as typeof trestle;
    assert.equal(typeof required, 'function');
    assert.equal(required, trestle);
    assert.equal(typeof required.Router, 'function');
    assert.equal(typeof required.Route, 'function');
    assert.equal(typeof required.application, 'object');
    assert.ok(Object.getPrototypeOf(required.request) === http.IncomingMessage.prototype);
    assert.ok(Object.getPrototypeOf(required.response) === http.ServerResponse.prototype);
  });

  test('import gives the same function as require', async () => {
    const esm = (await import('trestle')) as unknown as { default: unknown; Router: unknown };
    assert.equal(esm.default, trestle);
    assert.equal(esm.Router, trestle.Router);
  });

  test('an app is an event emitter and a (req, res, next) handler', async () => {
    const app = trestle();
    assert.equal(typeof app, 'function');
    assert.equal(typeof app.on, 'function');
    assert.equal(typeof app.emit, 'function');
    let heard = '';
    app.on('ping', (v: string) => (heard = v));
    app.emit('ping', 'pong');
    assert.equal(heard, 'pong');
    assert.equal(app.emit, EventEmitter.prototype.emit);
    app.get('/', (_req, res) => res.send('hi'));
    const served = await serve(app);
    try {
      const res = await rawRequest(served.port, 'GET', '/');
      assert.equal(res.status, 200);
      assert.equal(res.body, 'hi');
    } finally {
      await served.close();
    }
  });

  test('works as the callback of an https server', async () => {
    const app = trestle();
    app.get('/', (req, res) => res.send(`secure=${String(req.socket && (req.socket as { encrypted?: boolean }).encrypted)}`));
    const dir = join(__dirname, 'fixtures', 'tls');
    const server = https.createServer({ key: readFileSync(join(dir, 'key.pem')), cert: readFileSync(join(dir, 'cert.pem')) }, app);
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    try {
      const { port } = server.address() as AddressInfo;
      const body = await new Promise<string>((resolve, reject) => {
        https
          .get({ host: '127.0.0.1', port, path: '/', rejectUnauthorized: false, agent: false }, (res) => {
            let data = '';
            res.on('data', (d: Buffer) => (data += d.toString()));
            res.on('end', () => resolve(data));
          })
          .on('error', reject);
      });
      assert.equal(body, 'secure=true');
    } finally {
      server.closeAllConnections();
      await new Promise((resolve) => server.close(resolve));
    }
  });

  test('an app passed a next() hands unanswered requests back', async () => {
    const inner = trestle();
    inner.get('/inner', (_req, res) => res.send('inner'));
    const served = await serve((req, res) => {
      inner(req, res, () => {
        res.end('outer');
      });
    });
    try {
      assert.equal((await rawRequest(served.port, 'GET', '/inner')).body, 'inner');
      assert.equal((await rawRequest(served.port, 'GET', '/other')).body, 'outer');
    } finally {
      await served.close();
    }
  });
});

describe('app.listen', () => {
  test('takes the runtime listen arguments and returns the server', async () => {
    const app = trestle();
    app.get('/', (_req, res) => res.send('listening'));
    let server: http.Server | undefined;
    await new Promise<void>((resolve) => {
      server = app.listen(0, '127.0.0.1', () => resolve());
    });
    assert.ok(server instanceof http.Server);
    try {
      const { port } = server!.address() as AddressInfo;
      const res = await rawRequest(port, 'GET', '/');
      assert.equal(res.body, 'listening');
      assert.equal(res.headers['x-powered-by'], 'Trestle');
    } finally {
      server!.closeAllConnections();
      await new Promise((resolve) => server!.close(resolve));
    }
  });

  test('requests on its server still get the app prototypes', async () => {
    const app = trestle();
    (app.request as unknown as { hello: string }).hello = 'from app.request';
    app.get('/', (req, res) => res.send((req as unknown as { hello: string }).hello));
    const server = await new Promise<http.Server>((resolve) => {
      const s = app.listen(0, '127.0.0.1', () => resolve(s));
    });
    try {
      const { port } = server.address() as AddressInfo;
      assert.equal((await rawRequest(port, 'GET', '/')).body, 'from app.request');
    } finally {
      server.closeAllConnections();
      await new Promise((resolve) => server.close(resolve));
    }
  });

  test('a listen error reaches the callback', async () => {
    const first = trestle().listen(0, '127.0.0.1');
    await new Promise((resolve) => first.once('listening', resolve));
    const { port } = first.address() as AddressInfo;
    try {
      const err = await new Promise<unknown>((resolve) => {
        trestle().listen(port, '127.0.0.1', (e?: Error) => resolve(e));
      });
      assert.equal((err as NodeJS.ErrnoException).code, 'EADDRINUSE');
    } finally {
      await new Promise((resolve) => first.close(resolve));
    }
  });
});

describe('http.createServer(app)', () => {
  test('every request, not only the first, sees the app prototypes', async () => {
    const app = trestle();
    (app.request as unknown as { tag: string }).tag = 'app-proto';
    app.get('/', (req, res) => res.send(`${(req as unknown as { tag: string }).tag}|${typeof req.get}`));
    const served = await serve(app);
    try {
      for (let i = 0; i < 3; i++) assert.equal((await rawRequest(served.port, 'GET', '/')).body, 'app-proto|function');
    } finally {
      await served.close();
    }
  });

  test('a server the app does not own alone keeps making plain requests', async () => {
    const app = trestle();
    app.get('/app', (_req, res) => res.send('app'));
    const served = await serve((req, res) => {
      if (req.url === '/app') app(req, res);
      else res.end(`get:${typeof (req as unknown as { get?: unknown }).get}`);
    });
    try {
      assert.equal((await rawRequest(served.port, 'GET', '/app')).body, 'app');
      assert.equal((await rawRequest(served.port, 'GET', '/other')).body, 'get:undefined');
      assert.equal((await rawRequest(served.port, 'GET', '/app')).body, 'app');
    } finally {
      await served.close();
    }
  });
});

describe('settings', () => {
  test('defaults of the spec table', () => {
    const app = trestle();
    app.set('env', 'development');
    assert.equal(app.get('trust proxy'), false);
    assert.equal(app.get('jsonp callback name'), 'callback');
    assert.equal(app.get('json replacer'), null);
    assert.equal(app.get('json spaces'), 2);
    assert.ok(!app.enabled('case sensitive routing'));
    assert.ok(!app.enabled('strict routing'));
    assert.equal(app.get('view cache'), false);
    assert.equal(app.get('view engine'), undefined);
    assert.equal(app.get('views'), join(process.cwd(), 'views'));
    assert.equal(app.get('query parser'), 'simple');
    assert.equal(app.get('subdomain offset'), 2);
    assert.equal(app.get('etag'), 'weak');
    assert.equal(app.get('x-powered-by'), true);
  });

  test('env comes from NODE_ENV, else development', () => {
    const saved = process.env.NODE_ENV;
    try {
      process.env.NODE_ENV = 'staging';
      assert.equal(trestle().get('env'), 'staging');
      delete process.env.NODE_ENV;
      assert.equal(trestle().get('env'), 'development');
    } finally {
      process.env.NODE_ENV = saved;
    }
  });

  test('json spaces and view cache follow env until set', () => {
    const app = trestle();
    app.set('env', 'production');
    assert.equal(app.get('json spaces'), 0);
    assert.equal(app.get('view cache'), true);
    app.set('env', 'development');
    assert.equal(app.get('json spaces'), 2);
    assert.equal(app.get('view cache'), false);
    app.set('json spaces', 4);
    app.set('env', 'production');
    assert.equal(app.get('json spaces'), 4);
  });

  test('set/get/enable/disable/enabled/disabled', () => {
    const app = trestle();
    assert.equal(app.set('foo', 'bar'), app);
    assert.equal(app.get('foo'), 'bar');
    assert.equal(app.set('foo'), 'bar');
    assert.equal(app.enable('flag'), app);
    assert.equal(app.get('flag'), true);
    assert.ok(app.enabled('flag'));
    assert.ok(!app.disabled('flag'));
    app.disable('flag');
    assert.equal(app.get('flag'), false);
    assert.ok(app.disabled('flag'));
    assert.ok(app.disabled('never-set'));
    assert.equal(app.get('never-set'), undefined);
  });

  test('json spaces shapes JSON answers: 2 in development, 0 in production', async () => {
    const dev = trestle();
    dev.set('env', 'development');
    dev.get('/', (_req, res) => res.json({ a: 1 }));
    await request(dev).get('/').expect(200, '{\n  "a": 1\n}');
    const prod = trestle();
    prod.set('env', 'production');
    prod.get('/', (_req, res) => res.json({ a: 1 }));
    await request(prod).get('/').expect(200, '{"a":1}');
  });

  test('json replacer and json escape', async () => {
    const app = trestle();
    app.set('env', 'production');
    app.set('json replacer', (key: string, value: unknown) => (key === 'secret' ? undefined : value));
    app.set('json escape', true);
    app.get('/', (_req, res) => res.json({ secret: 'x', html: '<b>&</b>' }));
    await request(app).get('/').expect(200, '{"html":"\\u003cb\\u003e\\u0026\\u003c/b\\u003e"}');
  });

  test('x-powered-by is on by default and can be disabled', async () => {
    const app = trestle();
    app.get('/', (_req, res) => res.send('x'));
    const on = await request(app).get('/');
    assert.equal(on.headers['x-powered-by'], 'Trestle');
    app.disable('x-powered-by');
    const off = await request(app).get('/');
    assert.equal(off.headers['x-powered-by'], undefined);
  });

  test('etag: weak by default, strong, false, or a function', async () => {
    const make = (value?: unknown) => {
      const app = trestle();
      if (value !== undefined) app.set('etag', value as never);
      app.get('/', (_req, res) => res.send('hello'));
      return app;
    };
    const weak = await request(make()).get('/');
    assert.match(weak.headers.etag as string, /^W\/"5-/);
    const strong = await request(make('strong')).get('/');
    assert.match(strong.headers.etag as string, /^"5-/);
    const none = await request(make(false)).get('/');
    assert.equal(none.headers.etag, undefined);
    const custom = await request(make((body: string | Buffer) => `"len-${body.length}"`)).get('/');
    assert.equal(custom.headers.etag, '"len-5"');
    assert.throws(() => trestle().set('etag', 'bogus' as never), /unknown value for etag function: bogus/);
  });

  test('query parser: simple by default, extended, false, or a function', async () => {
    const make = (value?: unknown) => {
      const app = trestle();
      app.set('env', 'production');
      if (value !== undefined) app.set('query parser', value as never);
      app.get('/', (req, res) => res.json(req.query));
      return app;
    };
    await request(make()).get('/?a[b]=1&c=2&c=3').expect('{"a[b]":"1","c":["2","3"]}');
    await request(make('extended')).get('/?a[b]=1&c=2&c=3').expect('{"a":{"b":"1"},"c":["2","3"]}');
    await request(make(false)).get('/?a=1').expect('{}');
    await request(make((s: string) => ({ raw: s }))).get('/?a=1&b').expect('{"raw":"a=1&b"}');
    assert.throws(() => trestle().set('query parser', 'bogus' as never), /unknown value for query parser function: bogus/);
  });
});

describe('app.locals, mountpath, parent, path()', () => {
  test('locals is a function object that merges what it is called with, and exposes settings', () => {
    const app = trestle();
    assert.equal(typeof app.locals, 'function');
    assert.equal(app.locals.settings, app.settings);
    app.locals.title = 'My App';
    const returned = app.locals({ a: 1, b: 2 });
    assert.equal(returned, app.locals);
    assert.equal(app.locals.a, 1);
    assert.equal(app.locals.title, 'My App');
    assert.equal((app.locals as unknown as { name: string }).name, 'locals');
  });

  test('mountpath, parent, the mount event and path()', () => {
    const app = trestle();
    const blog = trestle();
    const admin = trestle();
    let mountedOn: unknown;
    blog.on('mount', (parent: unknown) => (mountedOn = parent));
    assert.equal(blog.mountpath, '/');
    app.use('/blog', blog);
    blog.use('/admin', admin);
    assert.equal(mountedOn, app);
    assert.equal(blog.mountpath, '/blog');
    assert.equal(blog.parent, app);
    assert.equal(admin.path(), '/blog/admin');
    assert.equal(app.path(), '');
    const multi = trestle();
    app.use(['/a', '/b'], multi);
    assert.deepEqual(multi.mountpath, ['/a', '/b']);
  });
});

describe('sub-apps', () => {
  test('serve under their mount path with baseUrl and req.app right, inside and after', async () => {
    const app = trestle();
    const blog = trestle();
    blog.get('/post', (req, res, next) => {
      res.set('X-Inner', `${req.app === blog}|${(res as unknown as { app: unknown }).app === blog}|${req.baseUrl}|${req.url}|${req.originalUrl}`);
      next();
    });
    app.use('/blog', blog);
    app.use((req, res) => {
      res.send(`${req.app === app}|${(res as unknown as { app: unknown }).app === app}|${req.url}`);
    });
    const res = await request(app).get('/blog/post?x=1').expect(200);
    assert.equal(res.headers['x-inner'], 'true|true|/blog|/post?x=1|/blog/post?x=1');
    assert.equal(res.text, 'true|true|/blog/post?x=1');
  });

  test('mounted on several paths at once', async () => {
    const app = trestle();
    const sub = trestle();
    sub.get('/', (req, res) => res.send(`at ${req.baseUrl}`));
    app.use(['/a', '/b'], sub);
    await request(app).get('/a').expect('at /a');
    await request(app).get('/b').expect('at /b');
    await request(app).get('/c').expect(404);
  });

  test('inherit the parent settings unless they set their own, keeping their own defaults', async () => {
    const app = trestle();
    app.set('env', 'production');
    app.set('json spaces', 3);
    app.set('etag', false);
    app.set('custom', 'parent');
    const sub = trestle();
    sub.set('custom', 'child');
    app.use('/sub', sub);
    assert.equal(sub.get('json spaces'), 3);
    assert.equal(sub.get('custom'), 'child');
    // env and etag are among the defaults every app has as its own, as in Express.
    assert.equal(sub.get('env'), process.env.NODE_ENV || 'development');
    sub.get('/', (_req, res) => res.json({ a: 1 }));
    const res = await request(app).get('/sub').expect(200, '{\n   "a": 1\n}');
    assert.match(String(res.headers.etag), /^W\//);
  });

  test('inherit the parent request and response prototypes', async () => {
    const app = trestle();
    const sub = trestle();
    (app.request as unknown as { who: string }).who = 'parent';
    (app.response as unknown as { shout(this: { send(s: string): void }, s: string): void }).shout = function (s) {
      this.send(s.toUpperCase());
    };
    app.use('/sub', sub);
    sub.get('/', (req, res) => (res as unknown as { shout(s: string): void }).shout((req as unknown as { who: string }).who));
    await request(app).get('/sub').expect('PARENT');
    const other = trestle();
    other.get('/', (req, res) => res.send(String((req as unknown as { who?: string }).who)));
    await request(other).get('/').expect('undefined');
  });

  test('members given to the child prototypes apply inside it only, also when added after mounting', async () => {
    const app = trestle();
    const sub = trestle();
    app.use('/sub', sub);
    sub.get('/', (req, res, next) => {
      res.set('X-Inside', String((req as unknown as { who?: string }).who));
      next();
    });
    app.use((req, res) => res.send(String((req as unknown as { who?: string }).who)));
    await request(app).get('/sub').expect('undefined');
    (sub.request as unknown as { who: string }).who = 'child';
    const res = await request(app).get('/sub').expect('undefined');
    assert.equal(res.headers['x-inside'], 'child');
  });

  test('a child whose handle() was wrapped gets its requests through the wrapper', async () => {
    const app = trestle();
    const sub = trestle();
    const seen: string[] = [];
    const handle = sub.handle.bind(sub);
    sub.handle = ((req: trestle.Request, res: trestle.Response, next?: trestle.NextFunction) => {
      seen.push(req.url);
      handle(req, res, next);
    }) as typeof sub.handle;
    sub.get('/', (req, res) => res.send(String(req.app === sub)));
    app.use('/sub', sub);
    await request(app).get('/sub').expect(200, 'true');
    assert.deepEqual(seen, ['/']);
  });

  test('nested sub-apps: each level sees its own app and settings, and hands back the one before', async () => {
    const app = trestle();
    const mid = trestle();
    const leaf = trestle();
    app.set('trust proxy', false);
    mid.set('trust proxy', true);
    leaf.set('trust proxy', false);
    const seen: string[] = [];
    const note = (name: string) => (req: trestle.Request, _res: trestle.Response, next: trestle.NextFunction) => {
      const which = req.app === app ? 'app' : req.app === mid ? 'mid' : req.app === leaf ? 'leaf' : '?';
      seen.push(`${name}:${which}:${req.ip}:${req.baseUrl}`);
      next();
    };
    leaf.use(note('leaf'));
    mid.use('/leaf', leaf);
    mid.use(note('mid after leaf'));
    app.use('/mid', mid);
    app.use(note('app after mid'));
    app.use((_req, res) => res.send('done'));
    await request(app).get('/mid/leaf').set('X-Forwarded-For', '203.0.113.7').expect(200, 'done');
    assert.deepEqual(seen, [
      'leaf:leaf:127.0.0.1:/mid/leaf',
      'mid after leaf:mid:203.0.113.7:/mid',
      'app after mid:app:127.0.0.1:',
    ]);
  });

  test('an error in a sub-app reaches the parent error handler', async () => {
    const app = trestle();
    const sub = trestle();
    sub.get('/', () => {
      throw new Error('from sub');
    });
    app.use('/sub', sub);
    app.use((err: Error, req: trestle.Request, res: trestle.Response, _next: trestle.NextFunction) => {
      res.status(500).send(`${err.message} seen by ${req.app === app ? 'parent' : 'child'}`);
    });
    await request(app).get('/sub').expect(500, 'from sub seen by parent');
  });
});

describe('routing methods', () => {
  test('app.VERB exists for every method the runtime knows, QUERY included', async () => {
    const app = trestle() as unknown as Record<string, unknown>;
    for (const m of http.METHODS) assert.equal(typeof app[m.toLowerCase()], 'function', m);
    const real = trestle();
    real.propfind('/dav', (_req, res) => res.send('propfind'));
    const served = await serve(real);
    try {
      assert.equal((await rawRequest(served.port, 'PROPFIND', '/dav')).body, 'propfind');
    } finally {
      await served.close();
    }
  });

  // QUERY came with node 20.19.3 and 22.2.0 (the methods come from http.METHODS). Each generation's
  // routing of it is a conformance case; here, what the runtime's support means for an app.
  test('QUERY: app.query and route().query where the runtime has it; where not, no method and node refuses the request', async () => {
    const supported = http.METHODS.includes('QUERY');
    const app = trestle();
    const routes = app as unknown as Record<string, unknown>;
    assert.equal(typeof routes.query, supported ? 'function' : 'undefined');
    assert.equal(typeof (app.route('/r') as unknown as Record<string, unknown>).query, supported ? 'function' : 'undefined');
    app.all('/any', (req, res) => res.send(`all ${req.method}`));
    if (supported) {
      app.query('/search', (req, res) => res.send(`query ${req.method}`));
      app.route('/item').get((_req, res) => res.send('get item')).query((_req, res) => res.send('query item'));
    }
    const served = await serve(app);
    try {
      const search = await rawRequest(served.port, 'QUERY', '/search', { 'content-type': 'text/plain' }, 'q');
      const any = await rawRequest(served.port, 'QUERY', '/any', { 'content-type': 'text/plain' }, 'q');
      if (supported) {
        assert.equal(search.body, 'query QUERY');
        assert.equal(any.body, 'all QUERY');
        assert.equal((await rawRequest(served.port, 'QUERY', '/item')).body, 'query item');
      } else {
        // node's parser answers 400 itself: app.all never sees the method.
        assert.equal(search.status, 400);
        assert.equal(any.status, 400);
      }
      assert.equal((await rawRequest(served.port, 'GET', '/any')).body, 'all GET');
    } finally {
      await served.close();
    }
  });

  test('app.all answers every method; app.route chains', async () => {
    const app = trestle();
    app.all('/any', (req, res) => res.send(`all ${req.method}`));
    app
      .route('/item')
      .get((_req, res) => res.send('get item'))
      .post((_req, res) => res.send('post item'));
    await request(app).delete('/any').expect('all DELETE');
    await request(app).put('/any').expect('all PUT');
    await request(app).get('/item').expect('get item');
    await request(app).post('/item').expect('post item');
  });

  test('app.router is the lazily created application router', () => {
    const app = trestle();
    const router = app.router;
    assert.equal(typeof router, 'function');
    assert.equal(app.router, router);
    app.get('/x', (_req, res) => res.send('x'));
    assert.equal(router.stack.length, 1);
  });

  test('app.param with a name or a list of names', async () => {
    const app = trestle();
    const seen: string[] = [];
    app.param(['a', 'b'], (_req, _res, next, value, name) => {
      seen.push(`${name}=${String(value)}`);
      next();
    });
    app.get('/:a/:b', (req, res) => res.send(`${req.params.a}-${req.params.b}`));
    await request(app).get('/x/y').expect('x-y');
    assert.deepEqual(seen, ['a=x', 'b=y']);
  });
});
