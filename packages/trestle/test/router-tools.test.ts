// Tools that read the router stack below the API: route listers parse each
// layer's `regexp` (Express 4) or walk `app.router.stack` (Express 5), and
// express-ws adds `ws()` to the object every Express 4 router inherits.
// Each lister is run on the same app built with Express and with trestle.
import assert from 'node:assert/strict';
import type * as http from 'node:http';
import { after, describe, test } from 'node:test';
import trestle from 'trestle';
import trestleV4 from 'trestle/v4';
import { aliasExpress, localRequire, pinDependency, removeAliases } from './express-alias';
import { serve } from './helpers';

type Handler = (req: unknown, res: { end(): void }) => void;
interface RouterLike {
  get(path: string, ...fns: Handler[]): this;
  post(path: string, ...fns: Handler[]): this;
  delete(path: string, ...fns: Handler[]): this;
  put(path: string, ...fns: Handler[]): this;
  route(path: string): { get(fn: Handler): { post(fn: Handler): unknown } };
  use(...args: unknown[]): this;
}
interface ExpressLike {
  (): RouterLike;
  Router(): RouterLike;
}
type ListEndpoints = (app: unknown) => Array<{ path: string; methods: string[]; middlewares: string[] }>;
type ListRoutes = (app: unknown, options: object) => Array<{ method: string; path: string }>;

const listEndpoints = localRequire('express-list-endpoints') as ListEndpoints;
const listRoutes = localRequire('express-list-routes') as ListRoutes;

function listUser(_req: unknown, res: { end(): void }): void {
  res.end();
}

/** Routes on the app, on a router, on a router inside it, and on a mounted app. */
function buildApp(express: ExpressLike): RouterLike {
  const app = express();
  app.get('/', listUser);
  app.route('/users').get(listUser).post(listUser);
  const api = express.Router();
  api.get('/items/:id', listUser);
  api.delete('/items/:id', listUser);
  const v1 = express.Router();
  v1.put('/deep/:name', listUser);
  api.use('/v1', v1);
  app.use('/api', api);
  const sub = express();
  sub.get('/ping', listUser);
  app.use('/sub', sub);
  return app;
}

after(removeAliases);

describe('route listers', () => {
  const express4 = localRequire('express4') as ExpressLike;
  // Express 5 with router 2.2, whose layers keep their last match's path as
  // trestle's do (router 2.3, of November 2026, stopped keeping it).
  pinDependency('express5', 'router', 'router22');
  const express5 = localRequire('express5') as ExpressLike;

  test('express-list-endpoints on v4: every route with its full path, as on Express 4', () => {
    const got = listEndpoints(buildApp(trestleV4 as unknown as ExpressLike));
    assert.deepEqual(got, listEndpoints(buildApp(express4)));
    assert.deepEqual(
      got.map((e) => `${e.methods.join(',')} ${e.path}`),
      // The tool lists a mounted app by its mount path only, on Express 4 as well.
      ['GET /', 'GET,POST /users', 'GET,DELETE /api/items/:id', 'PUT /api/v1/deep/:name', ' /sub'],
    );
  });

  test('express-list-routes on v4: nested routers listed under their mount paths, as on Express 4', () => {
    const options = { logger: false, color: false };
    const got = listRoutes(buildApp(trestleV4 as unknown as ExpressLike), options);
    assert.deepEqual(got, listRoutes(buildApp(express4), options));
    assert.deepEqual(
      got.map((r) => `${r.method} ${r.path}`),
      ['GET /', 'GET /users', 'POST /users', 'GET /api/items/:id', 'DELETE /api/items/:id'],
    );
  });

  test('express-list-routes on v5: the same list as on Express 5, before and after a request', async () => {
    const options = { logger: false, color: false };
    const app = buildApp(trestle as unknown as ExpressLike);
    const reference = buildApp(express5);
    const before = listRoutes(app, options);
    assert.deepEqual(before, listRoutes(reference, options));
    assert.ok(before.some((r) => r.method === 'GET' && r.path === '/users'));
    assert.ok(before.some((r) => r.method === 'DELETE' && r.path.endsWith('/items/:id')));
    // A mount layer keeps the path of its last match, which the tool then shows.
    for (const target of [app, reference]) {
      const server = await serve(target as unknown as http.RequestListener);
      try {
        const res = await fetch(`http://127.0.0.1:${server.port}/api/items/3`);
        assert.equal(res.status, 200);
      } finally {
        await server.close();
      }
    }
    const after = listRoutes(app, options);
    assert.deepEqual(after, listRoutes(reference, options));
    assert.ok(after.some((r) => r.method === 'GET' && r.path === '/api/items/:id'));
  });
});

interface WsClient {
  on(event: 'open' | 'close', fn: () => void): void;
  on(event: 'message', fn: (data: unknown) => void): void;
  on(event: 'error', fn: (err: Error) => void): void;
  send(data: string): void;
  close(): void;
}
interface WsSocket {
  on(event: 'message', fn: (data: unknown) => void): void;
  send(data: string): void;
}
type ExpressWs = (app: unknown, server: http.Server) => unknown;

describe('express-ws on trestle/v4', () => {
  test('router.ws() on a router mounted under a path', async () => {
    // express-ws adds ws() to require('express').Router: trestle/v4, installed as express 4.
    aliasExpress('trestle/v4', '4.21.2');
    const expressWs = localRequire('express-ws') as ExpressWs;
    const WebSocket = localRequire('ws') as new (url: string) => WsClient;
    const app = trestleV4();
    const nodeHttp = localRequire('http') as typeof http;
    const server = nodeHttp.createServer(app);
    expressWs(app, server);
    const chat = trestleV4.Router() as unknown as { ws(path: string, fn: (ws: WsSocket, req: { baseUrl: string; params: Record<string, string> }) => void): void };
    assert.equal(typeof chat.ws, 'function', 'ws() reaches every router through the prototype');
    chat.ws('/room/:name', (ws, req) => {
      ws.on('message', (data) => ws.send(`${String(data)} in ${req.params.name} at ${req.baseUrl}`));
    });
    app.use('/chat', chat as never);
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    try {
      const { port } = server.address() as { port: number };
      const client = new WebSocket(`ws://127.0.0.1:${port}/chat/room/lobby`);
      const reply = await new Promise<string>((resolve, reject) => {
        const timer = setTimeout(() => reject(new Error('no reply within 5 s')), 5000);
        client.on('error', reject);
        client.on('open', () => client.send('hello'));
        client.on('message', (data) => {
          clearTimeout(timer);
          resolve(String(data));
        });
      });
      client.close();
      assert.equal(reply, 'hello in lobby at /chat');
    } finally {
      server.closeAllConnections();
      await new Promise((resolve) => server.close(resolve));
    }
  });
});
