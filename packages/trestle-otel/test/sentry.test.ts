// Sentry with trestle-otel registered as one of its OpenTelemetry
// instrumentations, and its Express error handler on a trestle app:
// transactions named by route, an error captured once with the request, and
// the app's own error handler still called. A transport that keeps the
// envelopes in memory: nothing leaves the machine.
import assert from 'node:assert/strict';
import type * as http from 'node:http';
import { after, before, describe, test } from 'node:test';
import * as Sentry from '@sentry/node';
import { TrestleInstrumentation, type TrestleInstrumentationConfig } from '../src';
import { localRequire } from './otel-helpers';
import { type Envelope, getOnce, memoryOptions, type Next, type Res } from '../../trestle/test/sentry-memory';
const envelopes: Envelope[] = [];
let nodeHttp: typeof http;
const instrumentation = new TrestleInstrumentation();
/** The recipe of docs/observability.md: error events get the route's name too. */
const nameErrorEvents: TrestleInstrumentationConfig = {
  requestHook(_span, { request, layerType, route }) {
    if (layerType === 'request_handler') Sentry.getIsolationScope().setTransactionName(`${(request as { method: string }).method} ${route}`);
  },
};

before(() => {
  Sentry.init(memoryOptions(envelopes, { openTelemetryInstrumentations: [instrumentation] }));
  // Required after Sentry.init, so its HTTP instrumentation has patched it.
  nodeHttp = localRequire('http') as typeof http;
});
after(async () => {
  await Sentry.close(2000);
});

interface AppLike extends http.RequestListener {
  get(path: string, fn: (req: unknown, res: Res, next: Next) => void): unknown;
  use(fn: unknown): unknown;
}

/** Every item of type `type` sent so far. */
function items(type: string): Array<Record<string, unknown>> {
  return envelopes.flatMap(([, list]) => list.filter(([header]) => header.type === type).map(([, payload]) => payload));
}

function get(app: AppLike, path: string): Promise<{ status: number; body: string }> {
  return getOnce(nodeHttp, app, path);
}

/** An app with a route, a route that throws, Sentry's error handler and its own; counts the calls of its own. */
function buildApp(entry: string): { app: AppLike; ownHandlerCalls: () => number } {
  const express = localRequire(entry) as () => AppLike;
  const app = express();
  let calls = 0;
  app.get('/users/:id', (_req, res) => res.send('user'));
  app.get('/debug/:kind', () => {
    throw new Error(`debug error on ${entry}`);
  });
  Sentry.setupExpressErrorHandler(app as unknown as Parameters<typeof Sentry.setupExpressErrorHandler>[0]);
  app.use(function ownErrorHandler(err: Error, _req: unknown, res: Res, _next: Next) {
    calls++;
    res.status(500).send(`own: ${err.message}`);
  });
  return { app, ownHandlerCalls: () => calls };
}

/** The error events of `message`. */
function errorEvents(message: string): Array<Record<string, unknown>> {
  return items('event').filter((e) => JSON.stringify(e.exception).includes(message));
}

const entries = ['trestle', 'trestle/v4', 'trestle/legacy'];

describe('Sentry', () => {
  for (const entry of entries) {
    test(`${entry}: transactions by route, the error captured once with the request, the app's handler called`, async () => {
      instrumentation.setConfig({});
      const { app, ownHandlerCalls } = buildApp(entry);
      envelopes.length = 0;
      assert.deepEqual(await get(app, '/users/7'), { status: 200, body: 'user' });
      assert.deepEqual(await get(app, '/debug/throw'), { status: 500, body: `own: debug error on ${entry}` });
      assert.equal(ownHandlerCalls(), 1);
      await Sentry.flush(2000);

      const names = items('transaction').map((t) => t.transaction);
      assert.deepEqual(names.sort(), ['GET /debug/:kind', 'GET /users/:id']);
      const errors = errorEvents(`debug error on ${entry}`);
      assert.equal(errors.length, 1, 'the error is captured once');
      const request = errors[0]!.request as { url?: string; method?: string };
      assert.equal(request.method, 'GET');
      assert.match(String(request.url), /^http:\/\/127\.0\.0\.1:\d+\/debug\/throw$/);
    });
  }

  test('with the request hook of the docs, error events carry the route name too', async () => {
    instrumentation.setConfig(nameErrorEvents);
    for (const entry of entries) {
      envelopes.length = 0;
      const { app } = buildApp(entry);
      assert.equal((await get(app, '/debug/throw')).status, 500);
      await Sentry.flush(2000);
      const errors = errorEvents(`debug error on ${entry}`);
      assert.equal(errors.length, 1, entry);
      assert.equal(errors[0]!.transaction, 'GET /debug/:kind', entry);
    }
  });
});
