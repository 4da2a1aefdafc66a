// Context propagation on all three entries: a span a handler starts is the
// child of that handler's span, whether it starts after an await, after a
// body parser read the body, or in res.sendFile's callback.
import assert from 'node:assert/strict';
import type * as http from 'node:http';
import { join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import { trace } from '@opentelemetry/api';
import { TrestleInstrumentation } from '../src';
import { localRequire, startTracing, type Tracing, view } from './otel-helpers';

type Next = (err?: unknown) => void;
interface Res {
  send(body: string): void;
  sendFile(path: string, done: (err?: Error) => void): void;
}
type Handler = (req: { body?: unknown }, res: Res, next: Next) => unknown;
interface AppLike extends http.RequestListener {
  get(path: string, ...fns: Handler[]): unknown;
  post(path: string, ...fns: Handler[]): unknown;
  use(...fns: unknown[]): unknown;
}
interface Factory {
  (): AppLike;
  json?: () => Handler;
  bodyParser?: () => Handler;
}

let tracing: Tracing;
before(() => {
  tracing = startTracing([new TrestleInstrumentation()]);
});
after(async () => {
  await tracing.stop();
});

/** Starts and ends a span named `name` in the active context. */
function mark(name: string): void {
  trace.getTracer('test').startSpan(name).end();
}

function buildApp(express: Factory): AppLike {
  const app = express();
  // A body parser as middleware, and one as a route's first handler.
  const json = express.json ?? express.bodyParser!;
  app.use(function parseFirst(_req: unknown, _res: unknown, next: Next) {
    next();
  });
  app.get('/async', async function later(_req, res) {
    await new Promise((resolve) => setTimeout(resolve, 5));
    mark('after await');
    res.send('ok');
  });
  app.post('/body', json(), function afterBody(req, res) {
    mark('after body');
    res.send(JSON.stringify(req.body));
  });
  app.get('/file', function file(_req, res) {
    res.sendFile(join(__dirname, 'fixtures', 'hello.txt'), () => mark('file sent'));
  });
  return app;
}

async function request(app: AppLike, method: string, path: string, body?: string): Promise<ReturnType<typeof view>> {
  tracing.exporter.reset();
  const server = tracing.http.createServer(app);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  try {
    const { port } = server.address() as { port: number };
    const res = await fetch(`http://127.0.0.1:${port}${path}`, { method, body, headers: body ? { 'content-type': 'application/json' } : {} });
    assert.equal(res.status, 200, path);
    await res.text();
    for (let i = 0; i < 100 && !tracing.exporter.getFinishedSpans().some((s) => s.kind === 1); i++) {
      await new Promise((resolve) => setTimeout(resolve, 10));
    }
  } finally {
    server.closeAllConnections();
    await new Promise((resolve) => server.close(resolve));
  }
  return view(tracing.exporter.getFinishedSpans());
}

function parentOf(spans: ReturnType<typeof view>, name: string): string | undefined {
  const span = spans.find((s) => s.name === name);
  assert.ok(span, `no span "${name}" in ${spans.map((s) => s.name).join(', ')}`);
  return span.parent;
}

describe('a span started in a handler is the child of the handler span', () => {
  for (const entry of ['trestle', 'trestle/v4', 'trestle/legacy']) {
    test(entry, async () => {
      const app = buildApp(localRequire(entry) as Factory);
      assert.equal(parentOf(await request(app, 'GET', '/async'), 'after await'), 'request handler - /async');
      assert.equal(parentOf(await request(app, 'POST', '/body', '{"a":1}'), 'after body'), 'request handler - /body');
      assert.equal(parentOf(await request(app, 'GET', '/file'), 'file sent'), 'request handler - /file');
    });
  }
});
