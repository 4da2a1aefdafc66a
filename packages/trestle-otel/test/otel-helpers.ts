// Shared by the trestle-otel tests: one tracer provider with an in-memory
// exporter, the HTTP instrumentation (for the server span) and a way to read
// the spans of one request, parents by name, so runs compare across servers.
import assert from 'node:assert/strict';
import type * as http from 'node:http';
import { createRequire } from 'node:module';
import type { ContextManager } from '@opentelemetry/api';
import type { Instrumentation } from '@opentelemetry/instrumentation';
import { registerInstrumentations } from '@opentelemetry/instrumentation';
import { HttpInstrumentation } from '@opentelemetry/instrumentation-http';
import { InMemorySpanExporter, type ReadableSpan, SimpleSpanProcessor } from '@opentelemetry/sdk-trace-base';
import { NodeTracerProvider } from '@opentelemetry/sdk-trace-node';

export const localRequire = createRequire(__filename);

export interface Tracing {
  exporter: InMemorySpanExporter;
  provider: NodeTracerProvider;
  /** node's http, required after the HTTP instrumentation was registered (so it is patched). */
  http: typeof http;
  stop(): Promise<void>;
}

/** Registers a provider (with `contextManager`, or the default one), the HTTP instrumentation and `instrumentations`. */
export function startTracing(instrumentations: Instrumentation[], contextManager?: ContextManager): Tracing {
  const exporter = new InMemorySpanExporter();
  const provider = new NodeTracerProvider({ spanProcessors: [new SimpleSpanProcessor(exporter)] });
  provider.register(contextManager === undefined ? undefined : { contextManager });
  const unregister = registerInstrumentations({ tracerProvider: provider, instrumentations: [new HttpInstrumentation(), ...instrumentations] });
  return {
    exporter,
    provider,
    http: localRequire('http') as typeof http,
    async stop() {
      unregister();
      await provider.shutdown();
    },
  };
}

export { type SpanView, view } from '../../trestle/test/span-view';

/** Serves `app` on 127.0.0.1 for one request to `path`; returns the status, the body and the finished spans. */
export async function oneRequest(tracing: Tracing, app: http.RequestListener, path: string): Promise<{ status: number; body: string; spans: ReadableSpan[] }> {
  tracing.exporter.reset();
  const server = tracing.http.createServer(app);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  try {
    const { port } = server.address() as { port: number };
    const res = await fetch(`http://127.0.0.1:${port}${path}`);
    const body = await res.text();
    // The server span ends when the response has gone: wait for it, bounded.
    for (let i = 0; i < 100 && !tracing.exporter.getFinishedSpans().some((s) => s.kind === 1 /* SERVER */); i++) {
      await new Promise((resolve) => setTimeout(resolve, 10));
    }
    const spans = tracing.exporter.getFinishedSpans().filter((s) => s.kind !== 2 /* CLIENT */);
    assert.ok(spans.some((s) => s.kind === 1), `no server span for ${path}`);
    return { status: res.status, body, spans };
  } finally {
    server.closeAllConnections();
    await new Promise((resolve) => server.close(resolve));
  }
}

/** The server span of a request. */
export function serverSpan(spans: ReadableSpan[]): ReadableSpan {
  const span = spans.find((s) => s.kind === 1);
  assert.ok(span, 'no server span');
  return span;
}
