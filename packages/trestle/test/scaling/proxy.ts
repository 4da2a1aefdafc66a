// A tiny reverse proxy, as nginx or a cloud load balancer would stand in front
// of several trestle processes: it terminates TLS, deals requests to the
// backends in turn, and tells them about the client the way such proxies do:
// X-Forwarded-For gets the client's address appended (what the client sent
// stays in front of it), X-Forwarded-Proto and X-Forwarded-Host are replaced.
import { readFileSync } from 'node:fs';
import * as http from 'node:http';
import * as https from 'node:https';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import type { TLSSocket } from 'node:tls';

const TLS_DIR = join(__dirname, '..', 'fixtures', 'tls');

export interface Proxy {
  /** Plain HTTP in front. */
  httpPort: number;
  /** HTTPS in front (the fixtures' self-signed certificate for localhost). */
  httpsPort: number;
  close(): Promise<void>;
}

export async function startProxy(backends: readonly number[]): Promise<Proxy> {
  const agent = new http.Agent({ keepAlive: true });
  let next = 0;
  const forward: http.RequestListener = (req, res) => {
    const port = backends[next++ % backends.length]!;
    const socket = req.socket as Partial<TLSSocket>;
    const forwardedFor = req.headers['x-forwarded-for'];
    const headers: http.OutgoingHttpHeaders = {
      ...req.headers,
      'x-forwarded-for': forwardedFor === undefined ? req.socket.remoteAddress : `${forwardedFor}, ${req.socket.remoteAddress}`,
      'x-forwarded-proto': socket.encrypted === true ? 'https' : 'http',
      'x-forwarded-host': req.headers.host,
    };
    const upstream = http.request({ host: '127.0.0.1', port, method: req.method, path: req.url, headers, agent }, (answer) => {
      res.writeHead(answer.statusCode ?? 502, answer.headers);
      answer.pipe(res);
    });
    upstream.on('error', () => {
      if (!res.headersSent) res.writeHead(502).end('Bad Gateway');
      else res.destroy();
    });
    req.pipe(upstream);
  };
  const plain = http.createServer(forward);
  const secure = https.createServer({ key: readFileSync(join(TLS_DIR, 'key.pem')), cert: readFileSync(join(TLS_DIR, 'cert.pem')) }, forward);
  const listen = (server: http.Server) =>
    new Promise<number>((resolve) => server.listen(0, '127.0.0.1', () => resolve((server.address() as AddressInfo).port)));
  const [httpPort, httpsPort] = await Promise.all([listen(plain), listen(secure)]);
  const close = (server: http.Server) =>
    new Promise<void>((resolve) => {
      server.closeAllConnections();
      server.close(() => resolve());
    });
  return {
    httpPort,
    httpsPort,
    async close() {
      await Promise.all([close(plain), close(secure)]);
      agent.destroy();
    },
  };
}
