// Routers with many layers look candidates up by literal prefix instead of
// asking every layer. These tests use stacks large enough for that index
// to be used, and check that nothing about matching or order changes.
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import request from 'supertest';
import trestle from 'trestle';
import trestleV4 from 'trestle/v4';

function manyRoutes(app: { get(path: string, fn: trestle.RequestHandler): unknown }, count: number): void {
  for (let i = 0; i < count; i++) app.get(`/api/v1/resource${i}/:id/items/:itemId`, (req, res) => res.json({ i, ...req.params }));
}

describe('routing with a large stack (layer index)', () => {
  test('the right route answers, including one whose prefix is a prefix of another', async () => {
    const app = trestle();
    app.set('env', 'production');
    manyRoutes(app, 60);
    await request(app).get('/api/v1/resource59/a/items/b').expect('{"i":59,"id":"a","itemId":"b"}');
    await request(app).get('/api/v1/resource5/a/items/b').expect('{"i":5,"id":"a","itemId":"b"}');
    await request(app).get('/api/v1/resource599/a/items/b').expect(404);
  });

  test('middleware, regular expressions and routes still run in definition order', async () => {
    const app = trestle();
    app.set('env', 'production');
    const trace: string[] = [];
    const mark = (name: string): trestle.RequestHandler => (_req, _res, next) => {
      trace.push(name);
      next();
    };
    app.use(mark('use-all-1'));
    for (let i = 0; i < 20; i++) app.get(`/static/page${i}`, mark(`page${i}`));
    app.use('/static', mark('use-static'));
    app.get(/^\/static\/page1\d$/, mark('regexp'));
    app.get('/static/:name', mark('param-route'));
    app.use(mark('use-all-2'));
    app.get('/static/page12', (_req, res) => res.send(trace.join(',')));
    await request(app).get('/static/page12').expect('use-all-1,page12,use-static,regexp,param-route,use-all-2');
  });

  test('case-insensitive by default, case-sensitive when asked', async () => {
    const loose = trestle();
    manyRoutes(loose, 20);
    await request(loose).get('/API/V1/Resource7/x/ITEMS/y').expect(200);
    const strict = trestle();
    strict.enable('case sensitive routing');
    manyRoutes(strict, 20);
    await request(strict).get('/API/V1/Resource7/x/ITEMS/y').expect(404);
    await request(strict).get('/api/v1/resource7/x/items/y').expect(200);
  });

  test('routes added or removed after requests are seen', async () => {
    const app = trestle();
    manyRoutes(app, 20);
    await request(app).get('/late/route').expect(404);
    app.get('/late/route', (_req, res) => res.send('late'));
    await request(app).get('/late/route').expect(200, 'late');
    const stack = app.router.stack;
    stack.splice(stack.length - 1, 1);
    await request(app).get('/late/route').expect(404);
  });

  test('malformed percent-encoding in an indexed route is still a 400', async () => {
    const app = trestle();
    app.set('env', 'production');
    manyRoutes(app, 20);
    await request(app).get('/api/v1/resource3/%E0%A4%A/items/1').expect(400);
  });

  test('prefixes nested in each other, in any case: the same answer as asking every layer in order', async () => {
    // Paths from a small alphabet, so that many share prefixes, end inside
    // each other and differ only in case; a seeded generator keeps it replayable.
    let seed = 20261122;
    const pick = (n: number): number => {
      seed = (seed * 1103515245 + 12345) % 2147483648;
      return seed % n;
    };
    const path = (): string => {
      const parts: string[] = [];
      for (let i = 0, n = 1 + pick(3); i < n; i++) parts.push(['a', 'ab', 'B', 'abc', 'b1'][pick(5)]!);
      return `/${parts.join('/')}`;
    };
    const mounts = Array.from({ length: 6 }, path);
    const routes = Array.from({ length: 24 }, path);
    const app = trestle();
    mounts.forEach((mount, i) => {
      app.use(mount, (_req, res, next) => {
        res.append('X-Mounts', String(i));
        next();
      });
    });
    routes.forEach((route, i) => app.get(route, (_req, res) => res.send(`route ${i}`)));
    const same = (a: string, b: string) => a.toLowerCase() === b.toLowerCase();
    for (let n = 0; n < 60; n++) {
      const url = n % 3 === 0 ? routes[pick(routes.length)]!.toUpperCase() : path();
      const mounted = mounts.flatMap((m, i) => (same(url, m) || url.toLowerCase().startsWith(`${m.toLowerCase()}/`) ? [String(i)] : []));
      const route = routes.findIndex((r) => same(r, url));
      const res = await request(app).get(url).expect(route === -1 ? 404 : 200);
      if (route !== -1) assert.equal(res.text, `route ${route}`, url);
      assert.equal(res.headers['x-mounts'] ?? '', mounted.join(', '), url);
    }
  });

  test('routes without parameters answer their own path, with a trailing slash unless routing is strict, and no longer one', async () => {
    // [path, status, body, X-Mounted] as Express 5 answers each, loose then strict.
    const expected: Record<string, Array<[string, number, string, string]>> = {
      loose: [
        ['/resource14/42', 200, 'item 14 42', ''], ['/resource1', 200, 'list 1', ''], ['/RESOURCE1', 200, 'list 1', ''],
        ['/resource1/', 200, 'list 1', ''], ['/resource1//', 404, '', ''], ['/resource10', 200, 'list 10', ''],
        ['/resource1x', 404, '', ''], ['/resource3', 200, 'list 3', ''], ['/resource3/', 200, 'list 3', ''],
        ['/resource3//', 404, '', 'yes'], ['/resource3/x', 200, 'item 3 x', ''],
      ],
      strict: [
        ['/resource14/42', 200, 'item 14 42', ''], ['/resource1', 200, 'list 1', ''], ['/RESOURCE1', 200, 'list 1', ''],
        ['/resource1/', 404, '', ''], ['/resource1//', 404, '', ''], ['/resource10', 200, 'list 10', ''],
        ['/resource1x', 404, '', ''], ['/resource3', 200, 'list 3', ''], ['/resource3/', 200, 'list 3 with a slash', 'yes'],
        ['/resource3//', 404, '', 'yes'], ['/resource3/x', 200, 'item 3 x', ''],
      ],
    };
    for (const mode of ['loose', 'strict']) {
      const app = trestle();
      app.set('env', 'production');
      if (mode === 'strict') app.enable('strict routing');
      // A REST app's usual pair per resource: the list, then the item.
      for (let i = 0; i < 15; i++) {
        app.get(`/resource${i}`, (_req, res) => res.send(`list ${i}`));
        app.get(`/resource${i}/:id`, (req, res) => res.send(`item ${i} ${req.params.id}`));
      }
      // A mount and two more list routes on a path the index already holds.
      app.use('/resource3', (_req, res, next) => {
        res.set('X-Mounted', 'yes');
        next();
      });
      app.get('/resource3', (_req, res) => res.send('second list 3'));
      app.get('/resource3/', (_req, res) => res.send('list 3 with a slash'));
      for (const [path, status, body, mounted] of expected[mode]!) {
        const res = await request(app).get(path);
        assert.equal(res.status, status, `${mode} ${path}`);
        if (status === 200) assert.equal(res.text, body, `${mode} ${path}`);
        assert.equal(res.headers['x-mounted'] ?? '', mounted, `${mode} ${path}`);
      }
    }
  });

  test('v4 optional parameters and wildcards among many routes', async () => {
    const app = trestleV4();
    app.set('env', 'production');
    for (let i = 0; i < 20; i++) app.get(`/section${i}/:page?`, (req, res) => res.json({ i, page: req.params.page ?? null }));
    app.get('/files/*', (req, res) => res.json(req.params));
    await request(app).get('/section4').expect('{"i":4,"page":null}');
    await request(app).get('/section4/').expect('{"i":4,"page":null}');
    await request(app).get('/section14/2').expect('{"i":14,"page":"2"}');
    await request(app).get('/files/a/b').expect('{"0":"a/b"}');
  });
});
