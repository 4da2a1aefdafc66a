// How trestle-otel enters a layer's context depends on node: up to node 25
// diagnostics_channel's runStores calls the bound store's run(), from node 26
// its withScope(), which trestle-otel answers with OpenTelemetry's attach.
// Here the registered context manager has no attach(): the request is served
// and traced either way; where node asks for withScope, a span started in a
// handler cannot be the handler span's child, and diag says so once.
import assert from 'node:assert/strict';
import diagnostics from 'node:diagnostics_channel';
import type * as http from 'node:http';
import { after, before, test } from 'node:test';
import { diag, DiagLogLevel, trace } from '@opentelemetry/api';
import { AsyncLocalStorageContextManager } from '@opentelemetry/context-async-hooks';
import { TrestleInstrumentation } from '../src';
import { localRequire, oneRequest, startTracing, type Tracing } from './otel-helpers';

/** node 26's runStores enters stores through withScope (channels then have withStoreScope). */
const entersByScope = typeof (diagnostics.channel('probe') as unknown as { withStoreScope?: unknown }).withStoreScope === 'function';

/** The usual manager, without the optional attach() of OpenTelemetry's ContextManager. */
class NoAttachManager extends AsyncLocalStorageContextManager {}
Object.defineProperty(NoAttachManager.prototype, 'attach', { value: undefined });

const warnings: string[] = [];
let tracing: Tracing;
before(() => {
  diag.setLogger({ error() {}, warn: (message: string) => warnings.push(message), info() {}, debug() {}, verbose() {} }, DiagLogLevel.WARN);
  tracing = startTracing([new TrestleInstrumentation()], new NoAttachManager());
});
after(async () => {
  await tracing.stop();
  diag.disable();
});

test('a context manager without attach(): served and traced; the handler span is active where node enters stores with run()', async () => {
  const express = localRequire('trestle') as () => http.RequestListener & { get(path: string, fn: (req: unknown, res: { send(b: string): void }) => void): void };
  const app = express();
  app.get('/users/:id', (_req, res) => {
    trace.getTracer('test').startSpan('inner').end();
    res.send('user');
  });
  for (let round = 0; round < 2; round++) {
    const { status, body, spans } = await oneRequest(tracing, app, '/users/1');
    assert.deepEqual([status, body], [200, 'user']);
    const byName = new Map(spans.map((s) => [s.name, s]));
    const handler = byName.get('request handler - /users/:id');
    const server = byName.get('GET /users/:id');
    assert.ok(handler && server, spans.map((s) => s.name).join(', '));
    const innerParent = byName.get('inner')?.parentSpanContext?.spanId;
    assert.equal(innerParent, entersByScope ? server.spanContext().spanId : handler.spanContext().spanId);
  }
  const ours = warnings.filter((w) => w.startsWith('trestle instrumentation'));
  assert.equal(ours.length, entersByScope ? 1 : 0, warnings.join('\n'));
});
