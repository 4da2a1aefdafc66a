// trestle.routes(app) on each entry: every route with its full path, methods,
// parameters and handlers' names, read from the live stack, and checked
// against what the app answers over HTTP on 127.0.0.1.
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import trestle from 'trestle';
import trestleLegacy from 'trestle/legacy';
import trestleV4 from 'trestle/v4';
import { rawRequest, serve } from '../helpers';

type Listed = ReturnType<typeof trestle.routes>[number];

function summary(list: Listed[]): Array<[string, string, Array<string | number>, string[], boolean]> {
  return list.map((r) => [r.methods.join(','), r.path, r.params, r.handlers, r.openapi]);
}

/** Answers a listed route over HTTP: the app must really serve what the table says. */
async function answers(app: (req: never, res: never) => void, method: string, path: string): Promise<string> {
  const server = await serve(app as never);
  try {
    const res = await rawRequest(server.port, method, path);
    assert.equal(res.status, 200, `${method} ${path} was not answered (status ${res.status})`);
    return res.body;
  } finally {
    await server.close();
  }
}

describe('trestle.routes (v5)', () => {
  function build() {
    const app = trestle();
    const users = trestle.Router();
    function loadUser(_req: unknown, _res: unknown, next: () => void) {
      next();
    }
    users.get('/:id', loadUser, function showUser(req, res) {
      res.send(`user ${req.params.id}`);
    });
    users.route('/:id/books{/:page}').get((_req, res) => res.send('books')).post(function addBook(_req, res) {
      res.send('added');
    });
    const admin = trestle();
    admin.delete('/cache', function clearCache(_req, res) {
      res.send('cleared');
    });
    const orgs = trestle.Router({ mergeParams: true });
    orgs.get('/files/*path', function file(req, res) {
      // mergeParams: the mount path's :org is there too, which the route's path type does not know.
      const params: Record<string, unknown> = req.params;
      res.send(`${String(params.org)}:${req.params.path.join('/')}`);
    });
    app.get('/', function home(_req, res) {
      res.send('home');
    });
    app.use('/users', users);
    app.use('/admin', admin);
    app.use('/orgs/:org', orgs);
    app.all('/any', function any(_req, res) {
      res.send('any');
    });
    app.get(/^\/re\/(\d+)$/, function byRegexp(req, res) {
      res.send(String(req.params[0]));
    });
    app.get(['/a', '/b/:x'], function pair(_req, res) {
      res.send('pair');
    });
    return app;
  }

  test('lists every route with its full path, methods, parameters and handlers, mounted routers and apps included', () => {
    assert.deepEqual(summary(trestle.routes(build())), [
      ['GET', '/', [], ['home'], true],
      ['GET', '/users/:id', ['id'], ['loadUser', 'showUser'], true],
      ['GET,POST', '/users/:id/books{/:page}', ['id', 'page'], ['<anonymous>', 'addBook'], true],
      ['DELETE', '/admin/cache', [], ['clearCache'], true],
      ['GET', '/orgs/:org/files/*path', ['org', 'path'], ['file'], true],
      ['ALL', '/any', [], ['any'], true],
      ['GET', '/^\\/re\\/(\\d+)$/', [0], ['byRegexp'], false],
      ['GET', '/a', [], ['pair'], true],
      ['GET', '/b/:x', ['x'], ['pair'], true],
    ]);
  });

  test('the OpenAPI form of each path: optional parts as one path each, a regular expression with its reason', () => {
    const list = trestle.routes(build());
    const byPath = new Map(list.map((r) => [r.path, r]));
    assert.deepEqual(byPath.get('/users/:id/books{/:page}')?.openapiPaths, ['/users/{id}/books', '/users/{id}/books/{page}']);
    assert.deepEqual(byPath.get('/orgs/:org/files/*path')?.openapiPaths, ['/orgs/{org}/files/{path}']);
    assert.deepEqual(byPath.get('/')?.openapiPaths, ['/']);
    const re = list.find((r) => r.parts[0] instanceof RegExp)!;
    assert.equal(re.openapiPaths, undefined);
    assert.match(re.reason ?? '', /regular expression/);
    assert.deepEqual(byPath.get('/users/:id')?.parts, ['/users', '/:id']);
  });

  test('the listed paths are the ones the app answers', async () => {
    const app = build();
    assert.equal(await answers(app, 'GET', '/users/7'), 'user 7');
    assert.equal(await answers(app, 'POST', '/users/7/books/2'), 'added');
    assert.equal(await answers(app, 'DELETE', '/admin/cache'), 'cleared');
    assert.equal(await answers(app, 'GET', '/orgs/acme/files/a/b.txt'), 'acme:a/b.txt');
    assert.equal(await answers(app, 'PATCH', '/any'), 'any');
    assert.equal(await answers(app, 'GET', '/re/42'), '42');
  });

  test('a router lists its own routes, with no mount path', () => {
    const router = trestle.Router();
    router.get('/x/:y', function x(_req, res) {
      res.end();
    });
    assert.deepEqual(summary(trestle.routes(router)), [['GET', '/x/:y', ['y'], ['x'], true]]);
    assert.deepEqual(trestle.routes(trestle()), []);
  });

  test('a router mounted on several paths is listed under each; a mounted app inside a mounted app has both mount paths', async () => {
    const app = trestle();
    const shared = trestle.Router();
    shared.get('/info', function info(req, res) {
      res.send(req.baseUrl);
    });
    app.use(['/v1', '/v2'], shared);
    const outer = trestle();
    const inner = trestle();
    inner.put('/deep/:key', function deep(req, res) {
      res.send(req.params.key);
    });
    outer.use('/inner', inner);
    app.use('/outer', outer);
    assert.deepEqual(summary(trestle.routes(app)), [
      ['GET', '/v1/info', [], ['info'], true],
      ['GET', '/v2/info', [], ['info'], true],
      ['PUT', '/outer/inner/deep/:key', ['key'], ['deep'], true],
    ]);
    assert.equal(await answers(app, 'GET', '/v2/info'), '/v2');
    assert.equal(await answers(app, 'PUT', '/outer/inner/deep/k1'), 'k1');
  });

  test('stays true when the stack is spliced at run time: the listing and the answers change together', async () => {
    const app = build();
    const stack = app.router.stack;
    const at = stack.findIndex((layer) => (layer.route?.path as unknown) === '/any');
    assert.notEqual(at, -1, 'no /any layer in app.router.stack');
    const [removed] = stack.splice(at, 1);
    assert.ok(!trestle.routes(app).some((r) => r.path === '/any'), '/any still listed after it was spliced out');
    const server = await serve(app as never);
    try {
      assert.equal((await rawRequest(server.port, 'GET', '/any')).status, 404);
      // Put it back first: listed first, and answered.
      stack.unshift(removed!);
      assert.deepEqual(trestle.routes(app)[0]?.path, '/any');
      assert.equal((await rawRequest(server.port, 'GET', '/any')).status, 200);
      // A new array assigned to `stack` is what is listed.
      app.router.stack = stack.filter((layer) => layer.route === undefined || (layer.route.path as unknown) === '/');
      assert.deepEqual(trestle.routes(app).map((r) => r.path), ['/', '/users/:id', '/users/:id/books{/:page}', '/admin/cache', '/orgs/:org/files/*path']);
    } finally {
      await server.close();
    }
  });
});

describe('trestle.routes (v4)', () => {
  test('v4 paths as written, with their parameters and OpenAPI forms; the app answers them', async () => {
    const app = trestleV4();
    const api = trestleV4.Router();
    api.get('/items/:id?', function item(req, res) {
      res.send(`item ${req.params.id ?? 'all'}`);
    });
    api.get('/files/*', function files(req, res) {
      res.send(`file ${req.params[0]}`);
    });
    api.get('/n/:id(\\d+)', function numeric(req, res) {
      res.send(`n ${req.params.id}`);
    });
    api.get('/ab?cd', function optionalChar(_req, res) {
      res.send('abcd');
    });
    app.use('/api', api);
    const list = trestleV4.routes(app);
    assert.deepEqual(summary(list), [
      ['GET', '/api/items/:id?', ['id'], ['item'], true],
      ['GET', '/api/files/*', [0], ['files'], true],
      ['GET', '/api/n/:id(\\d+)', ['id'], ['numeric'], true],
      ['GET', '/api/ab?cd', [], ['optionalChar'], false],
    ]);
    assert.deepEqual(list.map((r) => r.syntax), ['v4', 'v4', 'v4', 'v4']);
    assert.deepEqual(list[0]!.openapiPaths, ['/api/items', '/api/items/{id}']);
    assert.deepEqual(list[1]!.openapiPaths, ['/api/files/{0}']);
    assert.deepEqual(list[2]!.openapiPaths, ['/api/n/{id}']);
    assert.match(list[3]!.reason ?? '', /regular-expression source/);
    assert.equal(await answers(app, 'GET', '/api/items'), 'item all');
    assert.equal(await answers(app, 'GET', '/api/items/3'), 'item 3');
    assert.equal(await answers(app, 'GET', '/api/files/a/b'), 'file a/b');
    assert.equal(await answers(app, 'GET', '/api/acd'), 'abcd');
  });

  test('stays true when app._router.stack is spliced at run time: the listing and the answers change together', async () => {
    const app = trestleV4();
    app.get('/a', (_req, res) => res.send('a'));
    app.get('/b', (_req, res) => res.send('b'));
    const stack = app._router?.stack ?? [];
    const at = stack.findIndex((layer) => (layer.route?.path as unknown) === '/a');
    assert.notEqual(at, -1, 'no /a layer in app._router.stack');
    stack.splice(at, 1);
    assert.deepEqual(trestleV4.routes(app).map((r) => r.path), ['/b']);
    const server = await serve(app as never);
    try {
      assert.equal((await rawRequest(server.port, 'GET', '/a')).status, 404);
      assert.equal((await rawRequest(server.port, 'GET', '/b')).status, 200);
    } finally {
      await server.close();
    }
  });
});

describe('trestle.routes (legacy)', () => {
  test("Express 3's route table (app.routes), where app.router sits, and a mounted app's", async () => {
    const app = trestleLegacy();
    const sub = trestleLegacy();
    sub.get('/status', function status(_req, res) {
      res.send('up');
    });
    app.use('/sub', sub);
    app.get('/users/:id', function user(req, res) {
      res.send(`user ${req.params.id}`);
    });
    app.post('/users', function create(_req, res) {
      res.send('created');
    });
    app.all('/ping', function ping(_req, res) {
      res.send('pong');
    });
    // The table lists by verb (GET first, as the first route was a GET); app.all() made one record per verb.
    assert.deepEqual(summary(trestleLegacy.routes(app)), [
      ['GET', '/sub/status', [], ['status'], true],
      ['GET', '/users/:id', ['id'], ['user'], true],
      ['ALL', '/ping', [], ['ping'], true],
      ['POST', '/users', [], ['create'], true],
    ]);
    assert.equal(await answers(app, 'GET', '/sub/status'), 'up');
    assert.equal(await answers(app, 'GET', '/users/5'), 'user 5');
    assert.equal(await answers(app, 'PUT', '/ping'), 'pong');
    // Deleting a record from app.routes removes the route: the listing follows.
    app.routes.post!.splice(0, 1);
    assert.ok(!trestleLegacy.routes(app).some((r) => r.path === '/users' && r.methods.includes('POST')));
    const server = await serve(app as never);
    try {
      assert.equal((await rawRequest(server.port, 'POST', '/users')).status, 404);
    } finally {
      await server.close();
    }
  });
});
