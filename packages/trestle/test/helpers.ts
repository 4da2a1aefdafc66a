// Shared by the trestle tests: a server on 127.0.0.1 and a raw HTTP client
// for what supertest cannot send (custom methods, literal paths).
import * as http from 'node:http';
import type { AddressInfo } from 'node:net';

export interface Served {
  port: number;
  close(): Promise<void>;
}

/** Listens on an ephemeral port of 127.0.0.1. */
export async function serve(handler: http.RequestListener): Promise<Served> {
  const server = http.createServer(handler);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    port,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

export interface RawResponse {
  status: number;
  headers: http.IncomingHttpHeaders;
  body: string;
}

/** One request with the method and path exactly as given. */
export function rawRequest(port: number, method: string, path: string, headers: http.OutgoingHttpHeaders = {}, body?: string): Promise<RawResponse> {
  return new Promise((resolve, reject) => {
    const req = http.request({ host: '127.0.0.1', port, method, path, headers, agent: false }, (res) => {
      let data = '';
      res.setEncoding('utf8');
      res.on('data', (d: string) => (data += d));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, headers: res.headers, body: data }));
      res.on('error', reject);
    });
    req.on('error', reject);
    req.end(body);
  });
}

/** The messages of the deprecation warnings `fn` caused (depd emits them on the process, instead of printing, while someone listens). */
export async function deprecations(fn: () => Promise<void>): Promise<string[]> {
  const warnings: string[] = [];
  const onDeprecation = (err: Error) => warnings.push(err.message);
  process.on('deprecation', onDeprecation);
  try {
    await fn();
  } finally {
    process.removeListener('deprecation', onDeprecation);
  }
  return warnings;
}
