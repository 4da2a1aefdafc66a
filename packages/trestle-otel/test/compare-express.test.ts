// The same app on Express (traced by @opentelemetry/instrumentation-express)
// and on trestle of the same generation (traced by trestle-otel) must give
// the same spans: names, parents, `http.route`, the express attributes, error
// status and exception, and the same HTTP server span name and route.
import assert from 'node:assert/strict';
import type * as http from 'node:http';
import { isDeepStrictEqual } from 'node:util';
import { after, before, describe, test } from 'node:test';
import { ExpressInstrumentation } from '@opentelemetry/instrumentation-express';
import { TrestleInstrumentation, type TrestleInstrumentationConfig } from '../src';
import { aliasExpress, pinDependency, removeAliases } from '../../trestle/test/express-alias';
import { localRequire, oneRequest, serverSpan, type SpanView, startTracing, type Tracing, view } from './otel-helpers';
import { addEdgeRoutes } from './edge-routes';

type Next = (err?: unknown) => void;
interface Res {
  send(body: string): void;
  status(code: number): Res;
}
type Handler = (req: { params: Record<string, string> }, res: Res, next: Next) => void;
interface RouterLike {
  get(path: string | RegExp, ...fns: Handler[]): unknown;
  use(...args: unknown[]): unknown;
  param(name: string, fn: (req: unknown, res: unknown, next: Next, value: string) => void): unknown;
}
interface ExpressLike {
  (): RouterLike & http.RequestListener;
  Router(options?: { mergeParams?: boolean }): RouterLike;
  json(): Handler;
}

let tracing: Tracing;
const expressInstrumentation = new ExpressInstrumentation();
const trestleInstrumentation = new TrestleInstrumentation();
before(() => {
  tracing = startTracing([expressInstrumentation, trestleInstrumentation]);
  // Express 5 as released, with router 2.2 (see trestle's router-tools-otel test).
  pinDependency('express5', 'router', 'router22');
});
after(async () => {
  removeAliases();
  await tracing.stop();
});

/** Middleware (a body parser among it: its span is `middleware - jsonParser`), nested routers under a parameterised mount path, a sub-app, a param trigger, a regular expression, next('route'), a thrown error. */
function buildApp(express: ExpressLike): http.RequestListener {
  const app = express();
  app.use(function logger(_req: unknown, _res: unknown, next: Next) {
    next();
  });
  app.use(express.json());
  const users = express.Router({ mergeParams: true });
  users.param('id', function loadUser(_req, _res, next) {
    next();
  });
  users.get('/:id', function getUser(req, res) {
    res.send(`user ${req.params.id}`);
  });
  const api = express.Router({ mergeParams: true });
  api.use('/users', users);
  app.use('/api/:version', api);
  const blog = express();
  blog.get('/posts/:id', function getPost(_req, res) {
    res.send('post');
  });
  app.use('/blog', blog);
  app.get('/health', function health(_req, res) {
    res.send('ok');
  });
  addEdgeRoutes(app);
  app.use(function onError(_err: unknown, _req: unknown, res: Res, _next: Next) {
    res.status(500).send('handled');
  });
  return app;
}

const generations = [
  { name: 'v5', express: 'express5', trestle: 'trestle', version: '5.1.0' },
  { name: 'v4', express: 'express4', trestle: 'trestle/v4', version: '4.21.2' },
] as const;
/** Each request, its status, and the server span's name both must give (so the comparison is never of two empty lists). */
const requests = [
  ['/api/v2/users/7', 200, 'GET /api/:version/users/:id'],
  ['/health', 200, 'GET /health'],
  ['/blog/posts/3', 200, 'GET /blog/posts/:id'],
  ['/re/5', 200, 'GET /^\\/re\\/(\\d+)$/'],
  ['/skip', 200, 'GET /skip'],
  ['/boom', 500, 'GET /boom'],
  ['/missing', 404, 'GET'],
] as const;

describe('trestle-otel gives the spans instrumentation-express gives on Express', () => {
  for (const gen of generations) {
    test(gen.name, async () => {
      const expressApp = buildApp(localRequire(aliasExpress(gen.express, gen.version)) as ExpressLike);
      const trestleApp = buildApp(localRequire(gen.trestle) as ExpressLike);
      for (const [path, status, serverName] of requests) {
        const want = await oneRequest(tracing, expressApp, path);
        const got = await oneRequest(tracing, trestleApp, path);
        assert.equal(want.status, status, `Express ${path}`);
        assert.equal(got.status, status, `trestle ${path}`);
        assert.deepEqual(view(got.spans), view(want.spans), path);
        assert.equal(serverSpan(want.spans).name, serverName, `Express ${path}`);
        assert.equal(serverSpan(got.spans).name, serverName, `trestle ${path}`);
      }
      // The error: the failing request handler's span carries it, and nothing else does.
      const boom = view((await oneRequest(tracing, trestleApp, '/boom')).spans).filter((s) => s.exception !== undefined);
      assert.deepEqual(
        boom.map((s) => [s.name, s.status, s.exception]),
        [['request handler - /boom', 2 /* ERROR */, 'boom']],
      );
    });
  }
});

/** The options users set on the Express instrumentation, each given to both instrumentations. */
const configs: Array<[string, TrestleInstrumentationConfig]> = [
  ['ignoreLayers (string, expression, function)', { ignoreLayers: ['middleware - logger', /^router - /, (name: string) => name === 'request handler - /health'] }],
  ['ignoreLayersType', { ignoreLayersType: ['middleware', 'router'] }],
  [
    'requestHook',
    {
      requestHook(span, info) {
        span.setAttribute('test.route', info.route);
        span.setAttribute('test.type', info.layerType);
        span.setAttribute('test.method', String((info.request as { method?: string }).method));
      },
    },
  ],
  ['spanNameHook', { spanNameHook: (info, name) => (info.layerType === 'request_handler' ? `handler ${info.route}` : name) }],
];

describe('the Express instrumentation options work the same', () => {
  for (const gen of generations) {
    test(gen.name, async () => {
      const expressApp = buildApp(localRequire(aliasExpress(gen.express, gen.version)) as ExpressLike);
      const trestleApp = buildApp(localRequire(gen.trestle) as ExpressLike);
      const paths = ['/api/v2/users/7', '/health'];
      const plain = new Map<string, SpanView[]>();
      for (const path of paths) plain.set(path, view((await oneRequest(tracing, trestleApp, path)).spans));
      try {
        for (const [label, config] of configs) {
          expressInstrumentation.setConfig(config as Parameters<ExpressInstrumentation['setConfig']>[0]);
          trestleInstrumentation.setConfig(config);
          let changed = false;
          for (const path of paths) {
            const want = view((await oneRequest(tracing, expressApp, path)).spans);
            const got = view((await oneRequest(tracing, trestleApp, path)).spans);
            assert.deepEqual(got, want, `${label}: ${path}`);
            changed ||= !isDeepStrictEqual(got, plain.get(path));
          }
          assert.ok(changed, `${label} changed nothing`);
        }
      } finally {
        expressInstrumentation.setConfig({});
        trestleInstrumentation.setConfig({});
      }
    });
  }
});
