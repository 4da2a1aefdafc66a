// Shared by the HTTP/2 tests: an app served by node's HTTP/2 server on
// 127.0.0.1 (cleartext h2c, or TLS with ALPN) and a client on one session.
// The certificate is the test-only pair in fixtures/tls (self-signed for
// localhost, valid until 2126).
import { readFileSync } from 'node:fs';
import * as http2 from 'node:http2';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { setTimeout as delay } from 'node:timers/promises';

const tlsDir = join(__dirname, 'fixtures', 'tls');
export const tls = { key: readFileSync(join(tlsDir, 'key.pem')), cert: readFileSync(join(tlsDir, 'cert.pem')) };

export type Mode = 'h2c' | 'h2';
export const modes: Mode[] = ['h2c', 'h2'];

type Listener = (req: http2.Http2ServerRequest, res: http2.Http2ServerResponse) => void;

export interface H2Served {
  server: http2.Http2Server | http2.Http2SecureServer;
  port: number;
  origin: string;
  /** A client session, opened on first use and closed by close(). */
  session(): http2.ClientHttp2Session;
  request(path: string, options?: H2RequestOptions): Promise<H2Response>;
  close(): Promise<void>;
}

export interface H2RequestOptions {
  method?: string;
  headers?: http2.OutgoingHttpHeaders;
  body?: string | Buffer;
}

export interface H2Response {
  status: number;
  headers: http2.IncomingHttpHeaders;
  body: Buffer;
  text: string;
}

/**
 * The app behind node's HTTP/2 server: `http2.createServer(app)` or
 * `createSecureServer({ allowHTTP1: true, ... }, app)`; with `wrapped`,
 * behind a listener of its own that calls the app (a server trestle does not
 * adopt: its requests switch prototypes).
 */
export async function serveH2(app: unknown, mode: Mode, wrapped = false): Promise<H2Served> {
  const listener = wrapped ? (req: http2.Http2ServerRequest, res: http2.Http2ServerResponse) => (app as Listener)(req, res) : (app as Listener);
  const server = mode === 'h2' ? http2.createSecureServer({ ...tls, allowHTTP1: true }, listener) : http2.createServer(listener);
  const sessions = new Set<http2.ServerHttp2Session>();
  server.on('session', (s: http2.ServerHttp2Session) => {
    sessions.add(s);
    s.on('close', () => sessions.delete(s));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  const origin = `${mode === 'h2' ? 'https' : 'http'}://127.0.0.1:${port}`;
  let client: http2.ClientHttp2Session | undefined;
  const session = () => {
    if (client === undefined || client.closed || client.destroyed) {
      client = connect(origin);
      client.on('error', () => undefined);
    }
    return client;
  };
  return {
    server,
    port,
    origin,
    session,
    request: (path, options) => h2Request(session(), path, options),
    close: async () => {
      client?.destroy();
      for (const s of sessions) s.destroy();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}

/** A client session to `origin`, trusting the test certificate. */
export function connect(origin: string): http2.ClientHttp2Session {
  return http2.connect(origin, { ca: tls.cert, rejectUnauthorized: false });
}

/** One request on `session`, its whole answer read. */
export function h2Request(session: http2.ClientHttp2Session, path: string, options: H2RequestOptions = {}): Promise<H2Response> {
  return new Promise((resolve, reject) => {
    const stream = session.request({ ':method': options.method ?? 'GET', ':path': path, ...options.headers });
    const chunks: Buffer[] = [];
    let status = 0;
    let headers: http2.IncomingHttpHeaders = {};
    stream.on('response', (h) => {
      headers = h;
      status = Number(h[':status']);
    });
    stream.on('data', (d: Buffer) => chunks.push(d));
    stream.on('end', () => {
      const body = Buffer.concat(chunks);
      resolve({ status, headers, body, text: body.toString() });
    });
    stream.on('error', reject);
    stream.end(options.body);
  });
}

/** Waits until `check` holds, polling every 10 ms, at most `ms` milliseconds. */
export async function until(check: () => boolean, ms = 2000): Promise<boolean> {
  for (let waited = 0; waited < ms; waited += 10) {
    if (check()) return true;
    await delay(10);
  }
  return check();
}
