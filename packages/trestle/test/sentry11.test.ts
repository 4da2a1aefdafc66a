// Sentry 11 with its documented setup and nothing else: `Sentry.init()`,
// then the app, then `Sentry.setupExpressErrorHandler(app)`. Sentry 11 no
// longer uses OpenTelemetry for Express: it rewrites Express's layer files
// as they load and listens on `orchestrion:*` diagnostics channels, which
// trestle publishes on itself (src/observability/orchestrion.ts). Spans go
// to a transport that keeps the envelopes in memory. trestle's two entries
// run first, before any real Express or router is loaded, so Sentry hears of
// Express from trestle alone; then real Express 5 and 4 (loaded after
// Sentry.init, so its hook rewrites them) run the same app, and each
// trestle entry must give exactly the spans its Express gives.
import assert from 'node:assert/strict';
import type * as http from 'node:http';
import { createRequire } from 'node:module';
import { after, before, describe, test } from 'node:test';
import type * as SentryNode from 'sentry11';
import { type Envelope, getOnce, memoryOptions, type Next, type Res } from './sentry-memory';

const localRequire = createRequire(__filename);
const envelopes: Envelope[] = [];
let Sentry: typeof SentryNode;
let nodeHttp: typeof http;

before(() => {
  Sentry = localRequire('sentry11') as typeof SentryNode;
  Sentry.init(memoryOptions(envelopes, {}));
  // Required after Sentry.init, as the app would be.
  nodeHttp = localRequire('http') as typeof http;
});
after(async () => {
  await Sentry.close(2000);
});

interface Req {
  params: Record<string, string>;
}
type Handler = (req: Req, res: Res, next: Next) => unknown;
interface AppLike extends http.RequestListener {
  get(path: string, ...fns: Handler[]): unknown;
  use(...args: unknown[]): unknown;
}
interface Factory {
  (): AppLike;
  Router(): AppLike;
}

/** Middleware, a router mounted on a parameter, a route, a route that throws, Sentry's error handler and the app's own. */
function buildApp(express: Factory, label: string): AppLike {
  const app = express();
  const api = express.Router();
  api.get('/users/:id', function getUser(req, res) {
    res.send(`user ${req.params.id}`);
  });
  app.use(function logger(_req: Req, _res: Res, next: Next) {
    next();
  });
  app.use('/api/:version', api);
  app.get('/users/:id', (req, res) => res.send(`user ${req.params.id}`));
  app.get('/boom/:kind', () => {
    throw new Error(`boom on ${label}`);
  });
  Sentry.setupExpressErrorHandler(app as unknown as Parameters<typeof Sentry.setupExpressErrorHandler>[0]);
  app.use(function ownErrorHandler(err: Error, _req: Req, res: Res, _next: Next) {
    res.status(500).send(`own: ${err.message}`);
  });
  return app;
}

async function get(app: AppLike, path: string): Promise<string> {
  const { status, body } = await getOnce(nodeHttp, app, path);
  return `${status} ${body}`;
}

interface Span {
  name: string;
  span_id: string;
  parent_span_id?: string;
  is_segment: boolean;
  start_timestamp: number;
  attributes: Record<string, { value: unknown } | undefined>;
}
const attr = (span: Span, key: string): unknown => span.attributes[key]?.value;

/** Each HTTP server transaction sent so far: its name, then its Express spans (nested ones too) as `name type route`, in the order they started. */
function transactions(): string[][] {
  const spans = envelopes.flatMap(([, items]) => items.filter(([h]) => h.type === 'span').flatMap(([, p]) => p.items as Span[]));
  return spans
    .filter((s) => s.is_segment && attr(s, 'sentry.op') === 'http.server')
    .map((segment) => [
      segment.name,
      ...spans
        .filter((s) => attr(s, 'sentry.segment.id') === segment.span_id && attr(s, 'sentry.origin') === 'auto.http.express')
        .sort((a, b) => a.start_timestamp - b.start_timestamp)
        .map((s) => `${s.name} ${String(attr(s, 'express.type'))} ${String(attr(s, 'http.route'))}`),
    ])
    .sort((a, b) => a[0]!.localeCompare(b[0]!));
}

/** The error events sent so far: `message | transaction | mechanism`. */
function errorEvents(): string[] {
  return envelopes.flatMap(([, items]) => items.filter(([h]) => h.type === 'event')).map(([, e]) => {
    const exception = (e.exception as { values: Array<{ value: string; mechanism?: { type: string } }> }).values[0]!;
    return `${exception.value} | ${String(e.transaction)} | ${exception.mechanism?.type}`;
  });
}

/** Runs the three requests on the app built with `express`; what Sentry received. */
async function observe(express: Factory, label: string): Promise<{ answers: string[]; transactions: string[][]; errors: string[] }> {
  envelopes.length = 0;
  const app = buildApp(express, label);
  const answers = [await get(app, '/users/7'), await get(app, '/api/v2/users/9'), await get(app, '/boom/now')];
  await Sentry.flush(2000);
  return { answers, transactions: transactions(), errors: errorEvents() };
}

const seen = new Map<string, { transactions: string[][]; errors: string[] }>();
const generations = [
  { entry: 'trestle', express: 'Express 5', load: () => localRequire('express5') as Factory },
  {
    entry: 'trestle/v4',
    express: 'Express 4',
    // Sentry's hook rewrites only a package named `express` (4.x); the workspace has one (a peer of express-async-errors).
    load: () => {
      assert.match((localRequire('express/package.json') as { version: string }).version, /^4\./);
      return localRequire('express') as Factory;
    },
  },
];

describe('Sentry 11, its documented setup only', () => {
  for (const { entry } of generations) {
    test(`${entry}: transactions and spans named by route, the handler's error captured once`, async () => {
      const { answers, transactions: txs, errors } = await observe(localRequire(entry) as Factory, entry);
      assert.deepEqual(answers, ['200 user 7', '200 user 9', `500 own: boom on ${entry}`]);
      assert.deepEqual(txs.map((t) => t[0]), ['GET /api/:version/users/:id', 'GET /boom/:kind', 'GET /users/:id']);
      const users = txs.find((t) => t[0] === 'GET /users/:id')!;
      assert.ok(users.includes('logger middleware undefined'), users.join('\n'));
      assert.ok(users.includes('/users/:id request_handler /users/:id'), users.join('\n'));
      const nested = txs.find((t) => t[0] === 'GET /api/:version/users/:id')!;
      assert.ok(nested.includes('/api/:version router /api/:version'), nested.join('\n'));
      assert.ok(nested.includes('/api/:version/users/:id request_handler /api/:version/users/:id'), nested.join('\n'));
      assert.deepEqual(errors, [`boom on ${entry} | GET /boom/:kind | auto.http.express`]);
      seen.set(entry, { transactions: txs, errors });
    });
  }

  test('a rejected promise is captured as a thrown error is (v5 and v4)', async () => {
    for (const { entry } of generations) {
      envelopes.length = 0;
      const app = (localRequire(entry) as Factory)();
      app.get('/async/:id', async () => {
        await Promise.resolve();
        throw new Error(`async on ${entry}`);
      });
      Sentry.setupExpressErrorHandler(app as unknown as Parameters<typeof Sentry.setupExpressErrorHandler>[0]);
      app.use((err: Error, _req: Req, res: Res, _next: Next) => res.status(500).send(err.message));
      assert.equal(await get(app, '/async/1'), `500 async on ${entry}`);
      await Sentry.flush(2000);
      assert.deepEqual(errorEvents(), [`async on ${entry} | GET /async/:id | auto.http.express`]);
    }
  });

  for (const { entry, express, load } of generations) {
    test(`${entry} gives the spans and events ${express} gives`, async (t) => {
      const ours = seen.get(entry);
      if (ours === undefined) return t.skip(`${entry}'s own test failed`);
      const theirs = await observe(load(), entry);
      assert.deepEqual(ours.transactions, theirs.transactions);
      assert.deepEqual(ours.errors, theirs.errors);
    });
  }
});
