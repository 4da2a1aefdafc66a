// OpenTelemetry's Express instrumentation patches the router methods every
// router inherits (`Router.prototype` in Express 5, `Router` itself in
// Express 4) and wraps each new layer's handle. The same app, built on
// Express and on trestle of the same generation, must give the same spans:
// names, parents, `http.route` and the express attributes.
import assert from 'node:assert/strict';
import type * as http from 'node:http';
import { after, before, describe, test } from 'node:test';
import { registerInstrumentations } from '@opentelemetry/instrumentation';
import { ExpressInstrumentation } from '@opentelemetry/instrumentation-express';
import { HttpInstrumentation } from '@opentelemetry/instrumentation-http';
import { InMemorySpanExporter, SimpleSpanProcessor } from '@opentelemetry/sdk-trace-base';
import { NodeTracerProvider } from '@opentelemetry/sdk-trace-node';
import { aliasExpress, localRequire, pinDependency, removeAliases } from './express-alias';
import { type SpanView, view } from './span-view';

type Handler = (req: unknown, res: { send(body: string): void }, next: () => void) => void;
interface RouterLike {
  get(path: string, ...fns: Handler[]): unknown;
  use(...args: unknown[]): unknown;
}
interface ExpressLike {
  (): RouterLike & http.RequestListener;
  Router(): RouterLike;
}

const exporter = new InMemorySpanExporter();
const provider = new NodeTracerProvider({ spanProcessors: [new SimpleSpanProcessor(exporter)] });
let unregister: () => void = () => {};
let nodeHttp: typeof http;

before(() => {
  provider.register();
  unregister = registerInstrumentations({ tracerProvider: provider, instrumentations: [new HttpInstrumentation(), new ExpressInstrumentation()] });
  // The HTTP instrumentation patches `http` when it is required after this point.
  nodeHttp = localRequire('http') as typeof http;
  // Express 5 as released, with router 2.2: router 2.3 (November 2026) stopped
  // keeping a match's path on the layer, which the instrumentation names
  // request-handler spans with. Trestle keeps router 2.2's layer shape.
  pinDependency('express5', 'router', 'router22');
});
after(async () => {
  unregister();
  removeAliases();
  await provider.shutdown();
});

/** Loads `target` as the package `express` at `version`, so the instrumentation patches it. */
function loadAs(target: string, version: string): ExpressLike {
  return localRequire(aliasExpress(target, version)) as ExpressLike;
}

/** Middleware, a router mounted under a path with a parameterised route, a route on the app. */
function buildApp(express: ExpressLike): http.RequestListener {
  const app = express();
  app.use(function logger(_req: unknown, _res: unknown, next: () => void) {
    next();
  });
  const users = express.Router();
  users.get('/:id', function getUser(_req, res) {
    res.send('user');
  });
  app.use('/users', users);
  app.get('/health', function health(_req, res) {
    res.send('ok');
  });
  return app;
}

/** The spans of one request to `app`: waits (bounded) until the server span has ended. */
async function spansOf(app: http.RequestListener, path: string): Promise<SpanView[]> {
  exporter.reset();
  const server = nodeHttp.createServer(app);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  try {
    const { port } = server.address() as { port: number };
    const res = await fetch(`http://127.0.0.1:${port}${path}`);
    assert.equal(res.status, 200, path);
    await res.text();
    for (let i = 0; i < 100 && !exporter.getFinishedSpans().some((s) => s.kind === 1 /* SERVER */); i++) {
      await new Promise((resolve) => setTimeout(resolve, 10));
    }
  } finally {
    server.closeAllConnections();
    await new Promise((resolve) => server.close(resolve));
  }
  return view(exporter.getFinishedSpans().filter((s) => s.kind !== 2 /* CLIENT: fetch is not traced, but be sure */));
}

const generations = [
  { name: 'v5', express: ['express5', '5.1.0'], trestle: ['trestle', '5.1.0'] },
  { name: 'v4', express: ['express4', '4.21.2'], trestle: ['trestle/v4', '4.21.2'] },
] as const;

describe('@opentelemetry/instrumentation-express', () => {
  for (const gen of generations) {
    test(`${gen.name}: the same middleware, router and request-handler spans as Express`, async () => {
      const expressApp = buildApp(loadAs(gen.express[0], gen.express[1]));
      const trestleApp = buildApp(loadAs(gen.trestle[0], gen.trestle[1]));
      for (const path of ['/users/7', '/health']) {
        const want = await spansOf(expressApp, path);
        const got = await spansOf(trestleApp, path);
        // The comparison is only worth something if Express produced the spans under test.
        assert.ok(want.some((s) => s.type === 'request_handler'), `Express gave no request handler span for ${path}`);
        assert.deepEqual(got, want, path);
      }
      const handler = (await spansOf(trestleApp, '/users/7')).find((s) => s.type === 'request_handler');
      assert.equal(handler?.route, '/users/:id');
    });
  }
});
