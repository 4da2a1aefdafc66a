// The router as each Express generation exposes it below the API: what
// `Router` is, where router methods live, `app.router` / `app._router`, the
// fields of layers, `req._parsedUrl`, and misuse in each generation's words.
// Where Express itself can answer, the answer is compared with Express's.
import assert from 'node:assert/strict';
import type * as http from 'node:http';
import { createRequire } from 'node:module';
import { describe, test } from 'node:test';
import trestle from 'trestle';
import legacy from 'trestle/legacy';
import trestleV4 from 'trestle/v4';
import { rawRequest, serve } from './helpers';

const require_ = createRequire(__filename);
type Next = (err?: unknown) => void;
type Req = http.IncomingMessage & Record<string, unknown>;
type Res = http.ServerResponse & { send(body: unknown): void; set(field: string, value: string): void };
type Fn = (req: Req, res: Res, next: Next) => void;
interface LayerLike {
  name: string;
  handle: unknown;
  path?: string;
  params?: Record<string, unknown>;
  keys?: Array<{ name: string | number }>;
  regexp?: RegExp & { fast_slash?: boolean; fast_star?: boolean };
  slash?: boolean;
  matchers?: unknown[];
  method?: string;
  route?: { stack: LayerLike[] };
}
interface RouterLike {
  (req: Req, res: Res, next: Next): void;
  stack: LayerLike[];
  get(path: string | RegExp | string[], ...fns: Fn[]): this;
  use(...args: unknown[]): this;
  route(path: string): unknown;
  param(name: string, fn?: unknown): this;
}
interface AppLike extends RouterLike {
  router: RouterLike;
  _router?: RouterLike;
  routes?: Record<string, Array<{ regexp: RegExp; path: string; keys: unknown[] }>>;
}
interface ExpressLike {
  (): AppLike;
  Router: ((options?: object) => RouterLike) & { prototype: Record<string, unknown>; Route?: unknown } & Record<string, unknown>;
}

const v5 = trestle as unknown as ExpressLike;
const v4 = trestleV4 as unknown as ExpressLike;
const old = legacy as unknown as ExpressLike;
const express5 = require_('express5') as ExpressLike;
const express4 = require_('express4') as ExpressLike;

/** What `fn` throws, as Express's tests would see it: the class and the message. */
function thrown(fn: () => void): { type: string; message: string } | undefined {
  try {
    fn();
  } catch (err) {
    return { type: (err as Error).constructor.name, message: (err as Error).message };
  }
  return undefined;
}

/** The `code` of what `fn` throws. */
function thrownCode(fn: () => void): unknown {
  try {
    fn();
  } catch (err) {
    return (err as { code?: unknown }).code;
  }
  return undefined;
}

const junk: unknown[] = [undefined, null, 123, 'text', {}, new Date(0), Symbol('s'), [() => undefined, 5]];

/** Each case called with each junk value throws on ours as on theirs, with trestle's code. */
function assertSameMisuse<F>(ours: F, theirs: F, cases: Array<[string, (express: F, x: unknown) => void]>): void {
  for (const [label, c] of cases) {
    for (const x of junk) {
      const ourError = thrown(() => c(ours, x));
      assert.ok(ourError, `${label}(${String(x)})`);
      assert.deepEqual(ourError, thrown(() => c(theirs, x)), `${label}(${String(x)})`);
      assert.equal(thrownCode(() => c(ours, x)), 'TRESTLE_ERR_ROUTE_HANDLER');
    }
  }
}

/** Any value's methods, called with what the types would refuse. */
function untyped(value: unknown): Record<string, (...args: unknown[]) => unknown> {
  return value as Record<string, (...args: unknown[]) => unknown>;
}

/** One GET through `app` on a fresh server. */
async function get(app: unknown, path: string): Promise<{ status: number; body: string }> {
  const server = await serve(app as http.RequestListener);
  try {
    const res = await rawRequest(server.port, 'GET', path);
    return { status: res.status, body: res.body };
  } finally {
    await server.close();
  }
}

/** Runs `fn` with `obj[key]` replaced by `wrap(original)`, restoring it after. */
async function withPatched(obj: Record<string, unknown>, key: string, wrap: (original: (...a: unknown[]) => unknown) => unknown, fn: () => Promise<void>): Promise<void> {
  const original = obj[key] as (...a: unknown[]) => unknown;
  obj[key] = wrap(original);
  try {
    await fn();
  } finally {
    obj[key] = original;
  }
}

describe('v5: Router is a constructor, routers inherit Router.prototype', () => {
  test('routers are instances, with or without new; Router.Route is the route class of req.route', async () => {
    const R = v5.Router as unknown as new () => RouterLike;
    assert.ok(new R() instanceof (v5.Router as unknown as new () => RouterLike));
    const router = v5.Router();
    assert.ok(router instanceof R);
    for (const name of ['route', 'use', 'handle', 'param', 'all', 'get', 'post']) {
      assert.equal(typeof v5.Router.prototype[name], 'function', name);
      assert.equal(Object.hasOwn(router, name), false, `${name} is inherited`);
    }
    const app = v5();
    assert.ok(app.router instanceof R);
    assert.equal('_router' in app, false, 'Express 5 has no app._router');
    app.get('/r', (req, res) => res.send(String(req.route instanceof (v5.Router.Route as new () => unknown))));
    assert.deepEqual(await get(app, '/r'), { status: 200, body: 'true' });
  });

  test('replacing Router.prototype.route and .use reaches app.get, app.use and every router', async () => {
    const seen: string[] = [];
    await withPatched(
      v5.Router.prototype,
      'route',
      (original) =>
        function (this: unknown, ...args: unknown[]) {
          seen.push(`route ${String(args[0])}`);
          return original.apply(this, args);
        },
      () =>
        withPatched(
          v5.Router.prototype,
          'use',
          (original) =>
            function (this: RouterLike, ...args: unknown[]) {
              const result = original.apply(this, args);
              // Tracing tools wrap the handle of the layer just added.
              const layer = this.stack[this.stack.length - 1]!;
              const inner = layer.handle as Fn;
              layer.handle = function traced(req: Req, res: Res, next: Next) {
                res.setHeader('X-Traced', layer.name);
                inner(req, res, next);
              };
              return result;
            },
          async () => {
            const app = v5();
            app.use(function logger(_req: Req, _res: Res, next: Next) {
              next();
            });
            const users = v5.Router();
            users.get('/:id', (req, res) => res.send(`user ${String((req.params as Record<string, string>).id)}`));
            app.use('/users', users);
            app.get('/health', (_req, res) => res.send('ok'));
            const server = await serve(app as unknown as http.RequestListener);
            try {
              const res = await rawRequest(server.port, 'GET', '/users/7');
              assert.equal(res.body, 'user 7');
              assert.equal(res.headers['x-traced'], 'router');
            } finally {
              await server.close();
            }
          },
        ),
    );
    assert.deepEqual(seen, ['route /:id', 'route /health']);
  });

  test('layers have Express 5 fields; a match leaves its path and params on the layer', async () => {
    const app = v5();
    const inner = v5.Router();
    inner.get('/:id', (_req, res) => res.send('x'));
    app.use('/users', inner);
    app.use((_req: Req, _res: Res, next: Next) => next());
    const [mount, slash] = app.router.stack as [LayerLike, LayerLike];
    const routeLayer = inner.stack[0]!;
    assert.deepEqual([mount.slash, slash.slash, routeLayer.slash], [false, true, false]);
    assert.equal(mount.name, 'router');
    assert.equal(routeLayer.name, 'handle');
    assert.equal(routeLayer.route?.stack[0]?.method, 'get');
    assert.equal(mount.regexp, undefined, 'Express 5 layers have matchers, not a regexp');
    assert.ok(Array.isArray(mount.matchers));
    await get(app, '/users/42');
    assert.equal(mount.path, '/users');
    assert.equal(routeLayer.path, '/42');
    assert.deepEqual({ ...routeLayer.params }, { id: '42' });
    assert.deepEqual(routeLayer.keys?.map((k) => k.name), ['id']);
  });
});

describe('v4 and legacy: Router is the prototype of every router', () => {
  for (const [name, framework] of [['v4', v4], ['legacy', old]] as const) {
    test(`${name}: Router.route, use, handle, process_params are its own; Router.ws = fn reaches every router`, async () => {
      for (const key of ['route', 'use', 'handle', 'process_params', 'param', 'get']) {
        assert.ok(Object.hasOwn(framework.Router, key), key);
      }
      const router = framework.Router();
      assert.equal(Object.getPrototypeOf(router), framework.Router);
      framework.Router.ws = function ws(this: RouterLike, path: string, fn: Fn) {
        return this.get(`${path}/.websocket`, fn);
      };
      try {
        (router as unknown as { ws(path: string, fn: Fn): void }).ws('/live', (_req, res) => res.send('ws route'));
        const app = framework();
        app.use('/r', router);
        assert.deepEqual(await get(app, '/r/live/.websocket'), { status: 200, body: 'ws route' });
      } finally {
        delete framework.Router.ws;
      }
    });

    test(`${name}: app._router is created on first use, and its handle is Router.handle`, async () => {
      const app = framework();
      assert.equal(app._router, undefined);
      app.use((_req: Req, res: Res) => res.send('hi'));
      assert.equal(Object.getPrototypeOf(app._router), framework.Router);
      let handled = 0;
      await withPatched(
        framework.Router,
        'handle',
        (original) =>
          function (this: unknown, ...args: unknown[]) {
            handled++;
            return original.apply(this, args);
          },
        async () => {
          assert.deepEqual(await get(app, '/'), { status: 200, body: 'hi' });
        },
      );
      assert.equal(handled, 1);
    });
  }

  test('v4: app.router throws as Express 4 does; legacy: it is the route table', () => {
    assert.throws(() => v4().router, /'app.router' is deprecated!/);
    assert.equal(typeof old().router, 'function');
  });

  test("v4: '_router' in app is false until the app routes, as on Express 4, even after a request", async () => {
    const observe = async (express: ExpressLike) => {
      const seen: unknown[] = [];
      const app = express() as AppLike & { set(name: string, value: unknown): unknown; lazyrouter(): unknown };
      app.set('etag', false);
      seen.push('_router' in app, app._router);
      const empty = await serve(app as unknown as http.RequestListener);
      try {
        const res = await rawRequest(empty.port, 'GET', '/nothing');
        seen.push(res.status, res.headers['x-powered-by'], '_router' in app);
      } finally {
        await empty.close();
      }
      app.get('/x', (_req, res) => res.send('x'));
      seen.push('_router' in app, Object.keys(app).includes('_router'), app._router!.stack.length, await get(app, '/x'));
      const other = express() as typeof app;
      seen.push(other.lazyrouter() === other._router, '_router' in other);
      return seen;
    };
    const ours = await observe(v4);
    assert.deepEqual(ours, await observe(express4));
    assert.deepEqual(ours.slice(0, 5), [false, undefined, 404, undefined, false]);
  });

  test("v4: a route's _handles_method() and _options() answer as Express 4's; v5 has _handlesMethod() and _methods()", () => {
    type RouteLike = Record<string, (this: unknown, ...args: unknown[]) => unknown>;
    const observe = (express: ExpressLike, handles: string, list: string) => {
      const router = express.Router();
      const fn = () => undefined;
      const [a, b, c] = ['/a', '/b', '/c'].map((path) => router.route(path) as RouteLike);
      a!.get!.call(a, fn);
      a!.post!.call(a, fn);
      b!.all!.call(b, fn);
      c!.head!.call(c, fn);
      return [a!, b!, c!].map((route) => ({ list: route[list]!.call(route), head: route[handles]!.call(route, 'HEAD'), put: route[handles]!.call(route, 'put') }));
    };
    const ours4 = observe(v4, '_handles_method', '_options');
    assert.deepEqual(ours4, observe(express4, '_handles_method', '_options'));
    assert.deepEqual(ours4[1], { list: ['_ALL'], head: true, put: true });
    assert.deepEqual(observe(v5, '_handlesMethod', '_methods'), observe(express5, '_handlesMethod', '_methods'));
  });

  test('v4: app._router nulled, deleted or assigned is what the next route and request use, as on Express 4', async () => {
    const observe = async (express: ExpressLike) => {
      const seen: unknown[] = [];
      const answers = async (app: AppLike, ...paths: string[]) => {
        for (const path of paths) seen.push(path, (await get(app, path)).status);
      };
      // Hot reloaders start over with `app._router = null`: the old routes are gone.
      const nulled = express();
      nulled.get('/a', (_req, res) => res.send('a'));
      (nulled as { _router?: unknown })._router = null;
      nulled.get('/b', (_req, res) => res.send('b'));
      await answers(nulled, '/a', '/b');
      // Deleting it does the same, and the next route brings it back.
      const deleted = express();
      deleted.get('/a', (_req, res) => res.send('a'));
      delete (deleted as { _router?: unknown })._router;
      seen.push('_router' in deleted);
      deleted.get('/b', (_req, res) => res.send('b'));
      seen.push('_router' in deleted);
      await answers(deleted, '/a', '/b');
      // A router assigned before the app made one is the one it uses.
      const donor = express() as AppLike & { lazyrouter(): void };
      donor.get('/c', (_req, res) => res.send('c'));
      const adopted = express();
      (adopted as { _router?: unknown })._router = donor._router;
      await answers(adopted, '/c');
      seen.push(adopted._router === donor._router);
      return seen;
    };
    const ours = await observe(v4);
    assert.deepEqual(ours, await observe(express4));
    assert.deepEqual(ours, ['/a', 404, '/b', 200, false, true, '/a', 404, '/b', 200, '/c', 200, true]);
  });

  test("v4: the app router's layers are Express 4's: names, regexp source and flags, keys", async () => {
    const describeStack = (stack: LayerLike[]): unknown[] =>
      stack.map((l) => ({
        name: l.name,
        regexp: String(l.regexp),
        fast_slash: l.regexp?.fast_slash,
        fast_star: l.regexp?.fast_star,
        keys: l.keys?.map((k) => k.name),
        route: l.route?.stack.map((r) => ({ method: r.method, regexp: String(r.regexp), name: r.name })),
      }));
    const build = (express: ExpressLike): AppLike => {
      const app = express();
      app.use(function logger(_req: Req, _res: Res, next: Next) {
        next();
      });
      const users = express.Router();
      users.get('/:id', function show(_req, res) {
        res.send('user');
      });
      app.use('/users', users);
      app.use('/files/:dir', function files(_req: Req, res: Res) {
        res.send('file');
      });
      app.get('*', function all(_req, res) {
        res.send('star');
      });
      app.get(['/a', '/b/:c'], function many(_req, res) {
        res.send('many');
      });
      app.get(/^\/re\/(\d+)$/, function re(_req, res) {
        res.send('re');
      });
      return app;
    };
    const ours = build(v4);
    const theirs = build(express4);
    assert.deepEqual(describeStack(ours._router!.stack), describeStack(theirs._router!.stack));
    // [query, expressInit, logger, the users router, ...]
    assert.deepEqual(describeStack((ours._router!.stack[3]!.handle as RouterLike).stack), describeStack((theirs._router!.stack[3]!.handle as RouterLike).stack));
    assert.deepEqual(await get(ours, '/users/7'), await get(theirs, '/users/7'));
  });

  test("v4: layer keys are Express 4's whole: name, optional and path-to-regexp 0.1's offset", () => {
    const paths: Array<string | RegExp | Array<string | RegExp>> = [
      '/:id', '/a/:b?', '/:x(\\d+)', '*', '/a/*/b/:c', '/:a.:b', ['/p/:q', '/r/:s?'], /^\/re\/(\d+)$/, /^\/(?<n>[a-z]+)\/(\d)/, '/static',
    ];
    const keysOf = (express: ExpressLike) => {
      const app = express();
      for (const path of paths) app.get(path as string, (_req, res) => res.send('ok'));
      const router = express.Router();
      router.use('/m/:id', (_req: Req, _res: Res, next: Next) => next());
      return { routes: app._router!.stack.map((l) => l.keys), use: router.stack[0]!.keys, routeLayer: app._router!.stack[2]!.route!.stack[0]!.keys };
    };
    const ours = keysOf(v4);
    assert.deepEqual(ours, keysOf(express4));
    assert.deepEqual(ours.routes[3], [{ name: 'b', optional: true, offset: 2 }]);
  });

  test('legacy: every record of app.routes has its regexp from the start', () => {
    const app = old();
    app.get('/static/page', (_req, res) => res.send('page'));
    app.get('/user/:id', (_req, res) => res.send('user'));
    const records = app.routes!.get!;
    assert.equal(records.length, 2);
    for (const record of records) assert.ok(record.regexp instanceof RegExp, record.path);
    assert.ok(records[0]!.regexp.test('/static/page'));
    assert.ok(!records[0]!.regexp.test('/static/pages'));
    assert.deepEqual(records[1]!.keys.map((k) => (k as { name: string }).name), ['id']);
  });
});

describe('req._parsedUrl and req._parsedOriginalUrl', () => {
  const fields = (u: Record<string, unknown> | undefined) => u && { pathname: u.pathname, search: u.search, query: u.query, path: u.path, href: u.href };
  for (const [name, ours, theirs] of [['v5', v5, express5], ['v4', v4, express4]] as const) {
    test(`${name}: middleware inside a mount read them as on Express`, async () => {
      const build = (express: ExpressLike) => {
        const app = express();
        const router = express.Router();
        router.use((req: Req, res: Res) => res.send(JSON.stringify({ parsed: fields(req._parsedUrl as Record<string, unknown>) })));
        app.use('/mount', router);
        return app;
      };
      for (const path of ['/mount/a/b?x=1&y=2', '/mount', '/mount/%20?q', 'http://example.com/mount/abs?z']) {
        assert.deepEqual(await get(build(ours), path), await get(build(theirs), path), path);
      }
      const app = ours();
      app.use('/m', (req: Req, res: Res) => {
        const original = req._parsedOriginalUrl as { pathname: string; query: string };
        res.send(`${original.pathname}?${original.query} ${(req._parsedUrl as { pathname: string }).pathname}`);
      });
      assert.deepEqual(await get(app, '/m/deep?k=v'), { status: 200, body: '/m/deep?k=v /deep' });
    });
  }
});

describe('requests without a URL, misuse, regular-expression mounts', () => {
  for (const [name, ours, theirs] of [['v5', v5, express5], ['v4', v4, express4]] as const) {
    test(`${name}: a router called without a URL, or with a blank one, runs nothing and calls next()`, async () => {
      const build = (express: ExpressLike) => {
        const inner = express.Router();
        let ran = 0;
        inner.use((_req: Req, _res: Res, next: Next) => {
          ran++;
          next();
        });
        const app = express();
        app.use((req: Req, res: Res) => {
          const url = req.url;
          const outcomes: string[] = [];
          for (const blank of [undefined, '']) {
            (req as { url: unknown }).url = blank;
            inner(req, res, (err?: unknown) => outcomes.push(`next(${String(err)})`));
          }
          req.url = url;
          res.send(`${outcomes.join(' ')} ran ${ran}`);
        });
        return app;
      };
      const ourAnswer = await get(build(ours), '/x');
      assert.deepEqual(ourAnswer, await get(build(theirs), '/x'));
      assert.equal(ourAnswer.body, 'next(undefined) next(undefined) ran 0');
    });

    test(`${name}: use() and param() without a function throw Express's words`, () => {
      const cases: Array<(express: ExpressLike) => void> = [
        (e) => e.Router().use(),
        (e) => e.Router().use(new Date()),
        (e) => e.Router().use('/x', new Date()),
        (e) => e.Router().use('/x', 42),
        (e) => e.Router().param('id'),
        (e) => e.Router().param('id', 'nope'),
        (e) => e().use('/x', [42]),
      ];
      for (const c of cases) {
        const ourError = thrown(() => c(ours));
        assert.ok(ourError, String(c));
        assert.deepEqual(ourError, thrown(() => c(theirs)), String(c));
      }
      try {
        ours.Router().use();
      } catch (err) {
        assert.equal((err as { code?: string }).code, 'TRESTLE_ERR_ROUTER_HANDLER');
      }
      try {
        ours.Router().param('id');
      } catch (err) {
        assert.equal((err as { code?: string }).code, 'TRESTLE_ERR_PARAM_HANDLER');
      }
    });

    test(`${name}: a route method given something other than a function throws Express's words`, () => {
      assertSameMisuse<ExpressLike>(ours, theirs, [
        ['app.get', (e, x) => untyped(e()).get('/x', x)],
        ['app.post', (e, x) => untyped(e()).post('/x', () => undefined, x)],
        ['app.all', (e, x) => untyped(e()).all('/x', x)],
        ['router.delete', (e, x) => untyped(e.Router()).delete('/x', x)],
        ['route.get', (e, x) => untyped(e.Router().route('/x')).get(x)],
        ['route.all', (e, x) => untyped(e.Router().route('/x')).all(x)],
        ['new Route().put', (e, x) => untyped(new (e as unknown as { Route: new (path: string) => unknown }).Route('/x')).put(x)],
      ]);
    });

    test(`${name}: a regular-expression mount matches at the start; numeric captures merge in order`, async () => {
      const build = (express: ExpressLike) => {
        const app = express();
        app.use(/\/abc/, (req: Req, res: Res) => res.send(`abc ${String(req.baseUrl)} ${req.url}`));
        const child = (express.Router as (o: object) => RouterLike)({ mergeParams: true });
        child.get(/^\/q(\d)\/(\w)$/, (req, res) => res.send(JSON.stringify(req.params)));
        app.use(/^\/p(\d)/, child);
        return app;
      };
      for (const path of ['/x/abc', '/abc/d', '/p1/q2/z', '/x/p1/q2/z']) {
        assert.deepEqual(await get(build(ours), path), await get(build(theirs), path), path);
      }
      assert.deepEqual(await get(build(ours), '/abc/d'), { status: 200, body: 'abc /abc /d' });
      assert.deepEqual(await get(build(ours), '/p1/q2/z'), { status: 200, body: '{"0":"1","1":"2","2":"z"}' });
      assert.equal((await get(build(ours), '/x/abc')).status, 404);
    });
  }

  test('each entry has its own Route class, as each Express has: a method patched on one stays there', async () => {
    const classes = [v5, v4, old].map((e) => (e as unknown as { Route: { name: string; prototype: Record<string, unknown> } }).Route);
    assert.equal(new Set(classes).size, 3);
    assert.deepEqual(classes.map((c) => c.name), ['Route', 'Route', 'Route']);
    assert.notEqual(express5.Router.Route, (express4 as unknown as { Route: unknown }).Route);
    const proto = classes[1]!.prototype;
    const original = proto.get as (...args: unknown[]) => unknown;
    const seen: string[] = [];
    proto.get = function patched(this: unknown, ...args: unknown[]) {
      seen.push('v4');
      return original.apply(this, args);
    };
    try {
      const ours = v4();
      ours.get('/p', (_req, res) => res.send('patched'));
      const other = v5();
      other.get('/p', (_req, res) => res.send('not patched'));
      assert.deepEqual(await get(ours, '/p'), { status: 200, body: 'patched' });
      assert.deepEqual(await get(other, '/p'), { status: 200, body: 'not patched' });
      assert.deepEqual(seen, ['v4']);
    } finally {
      proto.get = original;
    }
  });

  test("legacy: app.VERB and Router's methods given something other than a function throw Express 3's words", () => {
    const express3 = require_('express3') as ExpressLike & { Router: new () => unknown };
    assertSameMisuse<ExpressLike & { Router: new () => unknown }>(old as never, express3, [
      ['app.get', (e, x) => untyped(e()).get('/x', x)],
      ['app.post', (e, x) => untyped(e()).post('/x', () => undefined, x)],
      ['app.all', (e, x) => untyped(e()).all('/x', x)],
      ['new Router().delete', (e, x) => untyped(new e.Router()).delete('/x', x)],
    ]);
  });
});
