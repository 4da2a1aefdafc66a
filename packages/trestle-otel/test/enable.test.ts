// The instrumentation subscribes and unsubscribes: disabled, a trestle app
// gets the HTTP server span only (and trestle publishes nothing, as nobody
// listens); enabled again, the layer spans are back, for routers made before.
import assert from 'node:assert/strict';
import diagnostics from 'node:diagnostics_channel';
import type * as http from 'node:http';
import { after, before, test } from 'node:test';
import { TrestleInstrumentation } from '../src';
import { localRequire, oneRequest, startTracing, type Tracing } from './otel-helpers';

const instrumentation = new TrestleInstrumentation();
let tracing: Tracing;
before(() => {
  tracing = startTracing([instrumentation]);
});
after(async () => {
  await tracing.stop();
});

test('disable() and enable()', async () => {
  const express = localRequire('trestle') as () => http.RequestListener & { get(path: string, fn: (req: unknown, res: { send(b: string): void }) => void): void };
  const app = express();
  app.get('/users/:id', (_req, res) => res.send('user'));
  const names = async () => (await oneRequest(tracing, app, '/users/1')).spans.map((s) => s.name).sort();
  assert.deepEqual(await names(), ['GET /users/:id', 'request handler - /users/:id']);
  instrumentation.disable();
  assert.equal(diagnostics.tracingChannel('trestle.layer').start.hasSubscribers, false);
  assert.deepEqual(await names(), ['GET']);
  instrumentation.enable();
  assert.deepEqual(await names(), ['GET /users/:id', 'request handler - /users/:id']);
});
