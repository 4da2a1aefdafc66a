// trestle/legacy has no Express release the Express instrumentation traces
// (it starts at Express 4), so its spans are checked against what that
// instrumentation gives the same app on Express 4: the route table is a
// router, each matched route a request handler.
import assert from 'node:assert/strict';
import type * as http from 'node:http';
import { after, before, describe, test } from 'node:test';
import { TrestleInstrumentation } from '../src';
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
  tracing = startTracing([new TrestleInstrumentation()]);
});
after(async () => {
  await tracing.stop();
});

function buildApp(): LegacyApp {
  const express = localRequire('trestle/legacy') as () => LegacyApp;
  const app = express();
  app.use(function logger(_req: unknown, _res: unknown, next: Next) {
    next();
  });
  app.param('id', function loadUser(_req, _res, next) {
    next();
  });
  app.get('/users/:id', function getUser(_req, res) {
    res.send('user');
  });
  addEdgeRoutes(app);
  const blog = express();
  blog.get('/posts/:id', function getPost(_req, res) {
    res.send('post');
  });
  app.use('/blog', blog);
  app.use(function onError(_err: unknown, _req: unknown, res: Res, _next: Next) {
    res.status(500).send('handled');
  });
  return app;
}

/** name, parent, http.route of each span but the server's, and the server span's name, route and status. */
async function spans(app: LegacyApp, path: string): Promise<{ status: number; server: [string, unknown]; layers: Array<[string, string | undefined, unknown]> }> {
  const { status, spans } = await oneRequest(tracing, app, path);
  const server = serverSpan(spans);
  // Every span but the root (the server's), with its parent by name.
  const layers = view(spans).filter((s) => s.parent !== undefined).map((s) => [s.name, s.parent, s.route] as [string, string | undefined, unknown]);
  return { status, server: [server.name, server.attributes['http.route']], layers };
}

describe('trestle/legacy', () => {
  test('the route table, routes, params, a regular expression, a sub-app', async () => {
    const app = buildApp();
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
    const app = buildApp();
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
