// The diagnostics channels trestle publishes (docs/observability.md), on all
// three entries: what each layer run reports and in which order, the request
// start and final-handler channels, the stores a subscriber binds, and that
// nothing is published once nobody listens.
import assert from 'node:assert/strict';
import { AsyncLocalStorage } from 'node:async_hooks';
import diagnostics from 'node:diagnostics_channel';
import type * as http from 'node:http';
import { afterEach, describe, test } from 'node:test';
import trestle from 'trestle';
import { serveH2 } from './http2-helpers';
import legacy from 'trestle/legacy';
import trestleV4 from 'trestle/v4';
import { rawRequest, serve } from './helpers';
import type { LayerRunContext } from '../src/observability/channels';

type Next = (err?: unknown) => void;
/** The context of a layer run, with node's request and response. */
type Ctx = LayerRunContext & { req: http.IncomingMessage; res: http.ServerResponse };
const layer = diagnostics.tracingChannel<unknown, Ctx>('trestle.layer');
const events = ['start', 'end', 'asyncStart', 'asyncEnd', 'error'] as const;
type Event = (typeof events)[number];

/** Records every event of the layer channel until the returned function is called. */
function record(): { log: Array<{ event: Event; ctx: Ctx; finished: boolean }>; stop(): void } {
  const log: Array<{ event: Event; ctx: Ctx; finished: boolean }> = [];
  const handlers = events.map((event) => [event, (ctx: unknown) => log.push({ event, ctx: ctx as Ctx, finished: (ctx as Ctx).res.writableFinished })] as const);
  for (const [event, fn] of handlers) layer[event].subscribe(fn);
  return {
    log,
    stop: () => {
      for (const [event, fn] of handlers) layer[event].unsubscribe(fn);
    },
  };
}

let stopRecording: (() => void) | undefined;
afterEach(() => {
  stopRecording?.();
  stopRecording = undefined;
});

async function get(app: http.RequestListener, path: string): Promise<{ status: number; body: string }> {
  const served = await serve(app);
  try {
    const res = await rawRequest(served.port, 'GET', path);
    // Events that follow the response's end (asyncEnd of answering layers) come right after it.
    await new Promise((resolve) => setImmediate(resolve));
    return { status: res.status, body: res.body };
  } finally {
    await served.close();
  }
}

type Res = { send(body: unknown): void; status(code: number): Res };
type Handler = (req: { params: Record<string, string> }, res: Res, next: Next) => unknown;
interface AppLike extends http.RequestListener {
  get(path: string | RegExp, ...fns: Handler[]): unknown;
  use(...args: unknown[]): unknown;
  param(name: string, fn: (req: unknown, res: unknown, next: Next, value: string) => void): unknown;
}
interface Factory {
  (): AppLike;
  Router(options?: object): AppLike;
}

const entries: Array<[string, Factory]> = [
  ['trestle', trestle as unknown as Factory],
  ['trestle/v4', trestleV4 as unknown as Factory],
  ['trestle/legacy', legacy as unknown as Factory],
];

/** One route under a router mounted on a parameterised path (legacy: on the app's route table). */
function buildApp(name: string, express: Factory): AppLike {
  const app = express();
  app.use(function logger(_req: unknown, _res: unknown, next: Next) {
    next();
  });
  const routes = name === 'trestle/legacy' ? app : express.Router({ mergeParams: true });
  routes.param('id', function loadUser(_req, _res, next) {
    next();
  });
  routes.get('/users/:id', function getUser(req, res) {
    res.send(`user ${req.params.id}`);
  });
  if (routes !== app) app.use('/api/:version', routes);
  return app;
}

describe('tracing:trestle.layer', () => {
  for (const [name, express] of entries) {
    test(`${name}: each layer run, with its kind, name and paths, start to asyncEnd`, async () => {
      const app = buildApp(name, express);
      const recording = record();
      stopRecording = recording.stop;
      const path = name === 'trestle/legacy' ? '/users/7' : '/api/v2/users/7';
      assert.deepEqual(await get(app, path), { status: 200, body: 'user 7' });
      const starts = recording.log.filter((e) => e.event === 'start').map(({ ctx }) => [ctx.kind, ctx.name, ctx.mountPath, ctx.layerPath, ctx.routePath]);
      const mount = name === 'trestle/legacy' ? '' : '/api/:version';
      const route = name === 'trestle/legacy' ? '/users/:id' : '/users/:id';
      const routeLayer = name === 'trestle' ? 'handle' : name === 'trestle/v4' ? 'bound dispatch' : 'route';
      // Express 4's apps start with its query parser and init middleware.
      const builtIn = name === 'trestle/v4' ? [['middleware', 'query', '', '/', undefined], ['middleware', 'expressInit', '', '/', undefined]] : [];
      assert.deepEqual(starts, [
        ...builtIn,
        ['middleware', 'logger', '', '/', undefined],
        name === 'trestle/legacy' ? ['router', 'router', '', '/', undefined] : ['router', 'router', '', '/api/:version', undefined],
        ['param', 'loadUser', mount, undefined, undefined],
        ['route', routeLayer, mount, route, route],
        ['handler', 'getUser', mount, undefined, route],
      ]);
      // Every run publishes each of its events once, start first, asyncEnd after asyncStart.
      const runs = new Set(recording.log.map((e) => e.ctx));
      assert.equal(runs.size, starts.length);
      for (const ctx of runs) {
        const order = recording.log.filter((e) => e.ctx === ctx).map((e) => e.event);
        assert.equal(order[0], 'start', ctx.name);
        assert.deepEqual([...order].sort(), ['asyncEnd', 'asyncStart', 'end', 'start'], ctx.name);
        assert.ok(order.indexOf('asyncStart') < order.indexOf('asyncEnd'), ctx.name);
      }
      const param = [...runs].find((ctx) => ctx.kind === 'param')!;
      assert.deepEqual([param.paramName, param.paramValue], ['id', '7']);
      // The handler that answered is over when the response is: its asyncStart comes after the finish.
      const answered = recording.log.find((e) => e.event === 'asyncStart' && e.ctx.kind === 'handler')!;
      assert.equal(answered.finished, true);
      // A layer that called next() was over before the response finished.
      const passed = recording.log.find((e) => e.event === 'asyncStart' && e.ctx.kind === 'middleware')!;
      assert.equal(passed.finished, false);
    });
  }

  test('a promise: asyncEnd when it settles, with its value; a rejection is the run error', async () => {
    const app = trestle() as unknown as AppLike;
    app.get('/resolve', async function resolves(_req, res) {
      res.send('done');
      return 42;
    });
    app.get('/reject', async function rejects() {
      throw new Error('rejected');
    });
    const recording = record();
    stopRecording = recording.stop;
    assert.equal((await get(app, '/resolve')).status, 200);
    const resolved = recording.log.find((e) => e.event === 'asyncEnd' && e.ctx.name === 'resolves')!;
    assert.equal(resolved.ctx.result, 42);
    recording.log.length = 0;
    assert.equal((await get(app, '/reject')).status, 500);
    const errors = recording.log.filter((e) => e.event === 'error').map((e) => [e.ctx.kind, e.ctx.name, (e.ctx.error as Error).message]);
    // The handler failed, and so its route (the error is passed on by the route's next).
    assert.deepEqual(errors, [
      ['handler', 'rejects', 'rejected'],
      ['route', 'handle', 'rejected'],
    ]);
  });

  for (const [name, express] of entries) {
    test(`${name}: a thrown error is published once per run it leaves, then the error handler's run carries it`, async () => {
      const app = express();
      app.get('/boom', function boom() {
        throw new Error('boom');
      });
      app.use(function onError(_err: unknown, _req: unknown, res: Res, _next: Next) {
        res.status(500).send('handled');
      });
      const recording = record();
      stopRecording = recording.stop;
      assert.deepEqual(await get(app, '/boom'), { status: 500, body: 'handled' });
      const errors = recording.log.filter((e) => e.event === 'error');
      assert.deepEqual(
        errors.filter((e) => e.ctx.name === 'boom').map((e) => (e.ctx.error as Error).message),
        ['boom'],
      );
      const handler = recording.log.find((e) => e.event === 'start' && e.ctx.kind === 'error_handler')!;
      assert.equal(handler.ctx.name, 'onError');
      assert.equal((handler.ctx.handledError as Error).message, 'boom');
    });
  }

  test('a store bound to start is entered while the handler runs; one bound to asyncStart for the rest of the walk', async () => {
    const store = new AsyncLocalStorage<string>();
    const seen: Array<[string, string | undefined]> = [];
    const app = trestle() as unknown as AppLike;
    app.use(function first(_req: unknown, _res: unknown, next: Next) {
      seen.push(['first', store.getStore()]);
      setTimeout(next, 1);
    });
    app.get('/', function second(_req, res) {
      seen.push(['second', store.getStore()]);
      res.send('ok');
    });
    layer.start.bindStore(store, (ctx) => `in ${ctx.name}`);
    layer.asyncStart.bindStore(store, (ctx) => `after ${ctx.name}`);
    try {
      assert.equal((await get(app, '/')).status, 200);
    } finally {
      layer.start.unbindStore(store);
      layer.asyncStart.unbindStore(store);
    }
    assert.deepEqual(seen, [
      ['first', 'in first'],
      ['second', 'in second'],
    ]);
  });

  test("runs waiting for the response share one 'close' listener: deep nesting passes no listener limit", async () => {
    const app = trestle() as unknown as AppLike;
    let inner = trestle.Router() as unknown as AppLike;
    inner.get('/', (_req, res) => res.send('deep'));
    for (let depth = 0; depth < 14; depth++) {
      const outer = trestle.Router() as unknown as AppLike;
      outer.use('/d', inner);
      inner = outer;
    }
    app.use(inner);
    const warnings: string[] = [];
    const onWarning = (warning: Error) => warnings.push(warning.name);
    process.on('warning', onWarning);
    const recording = record();
    stopRecording = recording.stop;
    try {
      assert.deepEqual(await get(app, `${'/d'.repeat(14)}/`), { status: 200, body: 'deep' });
    } finally {
      process.off('warning', onWarning);
    }
    // 15 routers, the route and its handler: every run over, none warned about.
    assert.equal(recording.log.filter((e) => e.event === 'asyncEnd').length, 17);
    assert.deepEqual(warnings, []);
  });

  test('nothing is published once the subscribers are gone', async () => {
    const app = buildApp('trestle', trestle as unknown as Factory);
    const recording = record();
    recording.stop();
    assert.deepEqual(await get(app, '/api/v2/users/7'), { status: 200, body: 'user 7' });
    assert.deepEqual(recording.log, []);
  });
});

describe('trestle.request.start and trestle.request.final', () => {
  for (const [name, express] of entries) {
    test(name, async () => {
      const app = express();
      app.get('/ok', (_req, res) => res.send('ok'));
      app.get('/fail', () => {
        throw Object.assign(new Error('unhandled'), { status: 503 });
      });
      const started: string[] = [];
      const final: Array<[string, number, unknown]> = [];
      const onStart = (m: unknown) => started.push(String((m as { req: http.IncomingMessage }).req.url));
      const onFinal = (m: unknown) => {
        const { req, status, error, app: finalApp } = m as { req: http.IncomingMessage; status: number; error: unknown; app: unknown };
        assert.equal(finalApp, app);
        final.push([String(req.url), status, (error as Error | undefined)?.message]);
      };
      diagnostics.subscribe('trestle.request.start', onStart);
      diagnostics.subscribe('trestle.request.final', onFinal);
      try {
        assert.equal((await get(app, '/ok')).status, 200);
        assert.equal((await get(app, '/missing')).status, 404);
        assert.equal((await get(app, '/fail')).status, 503);
      } finally {
        diagnostics.unsubscribe('trestle.request.start', onStart);
        diagnostics.unsubscribe('trestle.request.final', onFinal);
      }
      assert.deepEqual(started, ['/ok', '/missing', '/fail']);
      assert.deepEqual(final, [
        ['/missing', 404, undefined],
        ['/fail', 503, 'unhandled'],
      ]);
    });
  }
});

test('trestle.request.start is published for HTTP/2 requests too (h2c, adopted server and wrapped)', async () => {
  const app = trestle();
  app.get('/h2', (_req, res) => res.send('ok'));
  const started: string[] = [];
  const onStart = (m: unknown) => started.push(String((m as { req: http.IncomingMessage }).req.url));
  diagnostics.subscribe('trestle.request.start', onStart);
  try {
    for (const wrapped of [false, true]) {
      const served = await serveH2(app, 'h2c', wrapped);
      try {
        assert.equal((await served.request('/h2')).text, 'ok');
      } finally {
        await served.close();
      }
    }
  } finally {
    diagnostics.unsubscribe('trestle.request.start', onStart);
  }
  assert.deepEqual(started, ['/h2', '/h2']);
});
