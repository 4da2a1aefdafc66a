// trestle/legacy has no Express release the Express instrumentation traces
// (it starts at Express 4), so its spans are checked against what that
// instrumentation gives the same app on Express 4: the route table is a
// router, each matched route a request handler. Both run here: each test
// runs the app on trestle/legacy (trestle-otel) and on express@4
// (instrumentation-express, the routes on a Router where Express 3 put
// app.router), with the same expectations and two differences asserted in
// spans(): Express 4's own query and expressInit layers, and its naming of
// a router mounted at "/".
import assert from 'node:assert/strict';
import type * as http from 'node:http';
import { after, before, describe, test } from 'node:test';
import { ExpressInstrumentation } from '@opentelemetry/instrumentation-express';
import { TrestleInstrumentation } from '../src';
import { aliasExpress, removeAliases } from '../../trestle/test/express-alias';
import { localRequire, oneRequest, serverSpan, startTracing, type Tracing, view } from './otel-helpers';
import { addEdgeRoutes } from './edge-routes';

type Next = (err?: unknown) => void;
interface Res {
  send(body: string): void;
  status(code: number): Res;
}
type Handler = (req: unknown, res: Res, next: Next) => void;
interface LegacyApp extends http.RequestListener {
  get(path: string | RegExp, ...fns: Handler[]): unknown;
  use(...args: unknown[]): unknown;
  param(name: string, fn: (req: unknown, res: unknown, next: Next, value: string) => void): unknown;
}

let tracing: Tracing;
before(() => {
  tracing = startTracing([new ExpressInstrumentation(), new TrestleInstrumentation()]);
});
after(async () => {
  removeAliases();
  await tracing.stop();
});

interface Target {
  name: string;
  load(): () => LegacyApp;
  /** Where the app's routes go: Express 3's route table is a router (app.router) among the app's middleware. */
  table(app: LegacyApp, express: () => LegacyApp): LegacyApp;
}

/** Where the app runs: trestle/legacy, and the Express 4 its expectations come from (loaded once tracing is on). */
const targets: Target[] = [
  { name: 'trestle/legacy', load: () => localRequire('trestle/legacy') as () => LegacyApp, table: (app) => app },
  {
    // The same app, its routes on a Router used where Express 3 put app.router.
    name: 'express@4',
    load: () => localRequire(aliasExpress('express4', '4.21.2')) as () => LegacyApp,
    table: (app, express) => {
      expressApps.add(app);
      const router = (express as unknown as { Router(): LegacyApp }).Router();
      app.use(router);
      return router;
    },
  },
];

function buildApp(target: Target): LegacyApp {
  const express = target.load();
  const app = express();
  app.use(function logger(_req: unknown, _res: unknown, next: Next) {
    next();
  });
  const routes = target.table(app, express);
  routes.param('id', function loadUser(_req, _res, next) {
    next();
  });
  routes.get('/users/:id', function getUser(_req, res) {
    res.send('user');
  });
  addEdgeRoutes(routes);
  const blog = express();
  target.table(blog, express).get('/posts/:id', function getPost(_req, res) {
    res.send('post');
  });
  app.use('/blog', blog);
  app.use(function onError(_err: unknown, _req: unknown, res: Res, _next: Next) {
    res.status(500).send('handled');
  });
  return app;
}

const BUILT_IN = ['middleware - query', 'middleware - expressInit'];
const expressApps = new WeakSet<object>();
const isExpress = (app: LegacyApp): boolean => expressApps.has(app);

/** name, parent, http.route of each span but the server's, and the server span's name, route and status. */
async function spans(app: LegacyApp, path: string): Promise<{ status: number; server: [string, unknown]; layers: Array<[string, string | undefined, unknown]> }> {
  const { status, spans } = await oneRequest(tracing, app, path);
  const server = serverSpan(spans);
  // Every span but the root (the server's), with its parent by name.
  const all = view(spans).filter((s) => s.parent !== undefined).map((s) => [s.name, s.parent, s.route] as [string, string | undefined, unknown]);
  // The one difference: Express 4's own first middleware (query, expressInit)
  // are layers of its router, traced; trestle/legacy has no such layers, as
  // Express 3 ran them in connect, outside its router. Asserted, then set aside.
  const builtIn = all.filter(([name]) => BUILT_IN.includes(name));
  let layers = all.filter((layer) => !builtIn.includes(layer));
  if (isExpress(app)) {
    // Each app (the main one, the blog) has them on Express 4.
    const apps = path.startsWith('/blog/') ? 2 : 1;
    assert.equal(builtIn.length, BUILT_IN.length * apps, `Express 4's built-in layers for ${path}`);
    // And a difference in naming: instrumentation-express names a router
    // mounted at "/" after the first route path defined on it ("/users/:id",
    // even for /skip); trestle-otel names a route table by its mount path.
    const routers = layers.filter(([name]) => name.startsWith('router - '));
    for (const [name] of routers) assert.match(name, /^router - \/(users|posts)\/:id$/, `Express 4's router span for ${path}`);
    layers = layers.map(([name, parent, route]): [string, string | undefined, unknown] => [name.startsWith('router - ') ? 'router - /' : name, parent, route]);
    layers.sort((a, b) => `${a[0]}\n${a[1]}`.localeCompare(`${b[0]}\n${b[1]}`));
  } else {
    assert.deepEqual(builtIn, [], `no built-in layers on trestle/legacy for ${path}`);
  }
  return { status, server: [server.name, server.attributes['http.route']], layers };
}

for (const target of targets) describe(target.name, () => {
  test('the route table, routes, params, a regular expression, a sub-app', async () => {
    const app = buildApp(target);
    assert.deepEqual(await spans(app, '/users/7'), {
      status: 200,
      server: ['GET /users/:id', '/users/:id'],
      layers: [
        ['middleware - logger', 'GET /users/:id', undefined],
        ['request handler - /users/:id', 'GET /users/:id', '/users/:id'],
        ['router - /', 'GET /users/:id', undefined],
      ],
    });
    assert.deepEqual((await spans(app, '/re/12')).server, ['GET /^\\/re\\/(\\d+)$/', '/^\\/re\\/(\\d+)$/']);
    assert.deepEqual(await spans(app, '/blog/posts/3'), {
      status: 200,
      server: ['GET /blog/posts/:id', '/blog/posts/:id'],
      layers: [
        ['middleware - logger', 'GET /blog/posts/:id', undefined],
        ['middleware - mounted_app', 'GET /blog/posts/:id', '/blog'],
        // The sub-app's layers run inside the mounting middleware, as on Express 4.
        ['request handler - /blog/posts/:id', 'middleware - mounted_app', '/blog/posts/:id'],
        ['router - /', 'GET /blog/posts/:id', undefined],
        ['router - /', 'middleware - mounted_app', '/blog'],
      ],
    });
  });

  test("next('route'), an error, a 404", async () => {
    const app = buildApp(target);
    const skip = await spans(app, '/skip');
    assert.equal(skip.status, 200);
    assert.deepEqual(
      skip.layers.filter(([name]) => name.startsWith('request handler')),
      [
        ['request handler - /skip', 'GET /skip', '/skip'],
        ['request handler - /skip', 'GET /skip', '/skip'],
      ],
    );
    const { status, spans: boom } = await oneRequest(tracing, app, '/boom');
    assert.equal(status, 500);
    const failed = view(boom).filter((s) => s.exception !== undefined);
    assert.deepEqual(failed.map((s) => [s.name, s.status, s.exception]), [['request handler - /boom', 2, 'boom']]);
    const missing = await spans(app, '/missing');
    assert.equal(missing.status, 404);
    assert.deepEqual(missing.server, ['GET', undefined]);
  });
});
