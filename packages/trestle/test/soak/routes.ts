// The traffic of the soak and cluster runs: what each kind of request is,
// what the server answers and what the log line must say. Shared by the
// servers (which mount the routes) and the load driver (which checks them).
import type { Application } from 'trestle';
import trestle from 'trestle';

/** Bytes of GET /big: more than one socket write, so a client can hang up mid-response. */
export const BIG_BYTES = 256 * 1024;

export interface Kind {
  method: 'GET' | 'POST';
  path: (n: number) => string;
  body?: (n: number) => string;
  status: number;
  /** The exact body expected, when it is small enough to compare. */
  expect?: (n: number) => string;
  /** The client reads the first bytes and hangs up. */
  hangUp?: boolean;
}

/**
 * One of each per cycle: plain text, a parameter, a JSON body echoed, an
 * error page, a 404, and a large answer the client abandons.
 */
export const kinds: readonly Kind[] = [
  { method: 'GET', path: () => '/hello', status: 200, expect: () => 'hello' },
  { method: 'GET', path: (n) => `/users/${n}`, status: 200, expect: (n) => `{"id":"${n}"}` },
  {
    method: 'POST',
    path: () => '/echo',
    body: (n) => JSON.stringify({ n, list: [1, 2, 3] }),
    status: 200,
    expect: (n) => JSON.stringify({ n, list: [1, 2, 3] }),
  },
  { method: 'GET', path: () => '/boom', status: 500 },
  { method: 'GET', path: (n) => `/missing/${n}`, status: 404 },
  { method: 'GET', path: () => '/big', status: 200, hangUp: true },
];

/** The log format: request id first, so every line can be matched to its request. */
export const LOG_FORMAT = ':req[x-request-id] :method :url :status';

/** A whole line of LOG_FORMAT, or nothing. */
export const LINE = /^(\d+) (GET|POST) (\S+) (\d{3})$/;

export function mountRoutes(app: Application): void {
  const big = Buffer.alloc(BIG_BYTES, 'x');
  app.get('/hello', (_req, res) => res.send('hello'));
  app.get('/users/:id', (req, res) => res.json({ id: req.params.id }));
  app.post('/echo', trestle.json(), (req, res) => res.json(req.body));
  app.get('/boom', () => {
    throw new Error('boom');
  });
  app.get('/big', (_req, res) => res.send(big));
}
