// What a finished OpenTelemetry span shows, in a form two runs can compare:
// parents by name, no ids or times. Shared by the router's tests against
// @opentelemetry/instrumentation-express and by trestle-otel's tests (which
// import it from here, as they import express-alias.ts).
import type { ReadableSpan } from '@opentelemetry/sdk-trace-base';

export interface SpanView {
  name: string;
  parent: string | undefined;
  route: unknown;
  type: unknown;
  expressName: unknown;
  status: number;
  exception: string | undefined;
  /** Attributes a test's hook set (`test.*`). */
  hooked: Record<string, unknown>;
}

/** What each span shows, its parent by name, sorted: ids and times differ between runs. */
export function view(spans: ReadableSpan[]): SpanView[] {
  const byId = new Map(spans.map((s) => [s.spanContext().spanId, s.name]));
  return spans
    .map((s) => ({
      name: s.name,
      parent: s.parentSpanContext === undefined ? undefined : byId.get(s.parentSpanContext.spanId),
      route: s.attributes['http.route'],
      type: s.attributes['express.type'],
      expressName: s.attributes['express.name'],
      status: s.status.code,
      exception: s.events.find((e) => e.name === 'exception')?.attributes?.['exception.message'] as string | undefined,
      hooked: Object.fromEntries(Object.entries(s.attributes).filter(([key]) => key.startsWith('test.'))),
    }))
    .sort((a, b) => JSON.stringify(a).localeCompare(JSON.stringify(b)));
}
