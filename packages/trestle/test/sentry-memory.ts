// What the Sentry tests share (trestle's sentry11.test.ts, trestle-otel's
// sentry.test.ts): a transport that keeps the envelopes in memory, so
// nothing leaves the machine, and one GET through a server made with the
// `http` module Sentry instrumented.
import type * as http from 'node:http';

/** An envelope as a transport gets it: headers, then `[item header, payload]` pairs. */
export type Envelope = [unknown, Array<[{ type: string }, Record<string, unknown>]>];

/** The slice of Express's `next` and `res` the test apps use. */
export type Next = (err?: unknown) => void;
export interface Res {
  send(body: string): void;
  status(code: number): Res;
}

/** Sentry's `transport` option, pushing every envelope onto `envelopes`. */
export function memoryTransport(envelopes: Envelope[]) {
  return () => ({
    send(envelope: unknown) {
      envelopes.push(envelope as Envelope);
      return Promise.resolve({});
    },
    flush: () => Promise.resolve(true),
  });
}

/** `Sentry.init`'s options for the tests: every trace sampled, envelopes onto `envelopes`, plus `extra`. */
export function memoryOptions<T extends object>(envelopes: Envelope[], extra: T) {
  return { dsn: 'https://public@127.0.0.1/1', tracesSampleRate: 1, transport: memoryTransport(envelopes), ...extra };
}

/** Serves `app` on 127.0.0.1 with `nodeHttp` (required after Sentry.init) for one GET of `path`. */
export async function getOnce(nodeHttp: typeof http, app: http.RequestListener, path: string): Promise<{ status: number; body: string }> {
  const server = nodeHttp.createServer(app);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  try {
    const { port } = server.address() as { port: number };
    const res = await fetch(`http://127.0.0.1:${port}${path}`);
    return { status: res.status, body: await res.text() };
  } finally {
    server.closeAllConnections();
    await new Promise((resolve) => server.close(resolve));
  }
}
