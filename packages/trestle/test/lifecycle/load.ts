// A bounded load for the lifecycle tests: `total` requests, `concurrency` at
// a time over keep-alive connections, GETs (some slow) and POSTs with bodies.
// Each request ends answered (its whole body read, the answer checked) or
// failed with the client's error code.
import * as http from 'node:http';

export interface LoadResult {
  answered: number;
  /** Answers with a status other than 200 or an unexpected body, by `status body`. */
  wrong: string[];
  /** Failed requests by error code. */
  failed: Record<string, number>;
  /** With `orders`: the ids of the POSTs answered 201. */
  ordered: string[];
}

export interface LoadOptions {
  port: number;
  total: number;
  concurrency: number;
  /** Requests per second at most (0: as fast as answers come). */
  rate?: number;
  /** Called after each answer with the count so far. */
  onAnswer?: (answered: number) => void;
  /** The `Host` header (nginx's backend tests). */
  host?: string;
  /** POSTs go to /orders, each carrying the id `<orders>-<i>` as its body, answered 201 with it. */
  orders?: string;
}

/** The i-th request: a POST with a body every 4th, a slow GET every 8th, else a fast GET. */
function requestFor(i: number, orders: string | undefined): { method: string; path: string; body?: string; expect: string; status: number } {
  if (i % 4 === 0 && orders !== undefined) {
    const id = `${orders}-${i}`;
    return { method: 'POST', path: '/orders', body: id, expect: id, status: 201 };
  }
  if (i % 4 === 0) {
    const body = 'x'.repeat(100 + (i % 900));
    return { method: 'POST', path: '/echo', body, expect: String(body.length), status: 200 };
  }
  if (i % 8 === 1) return { method: 'GET', path: '/slow?ms=100', expect: 'slow', status: 200 };
  return { method: 'GET', path: '/fast', expect: 'fast', status: 200 };
}

export async function runLoad(options: LoadOptions): Promise<LoadResult> {
  const agent = new http.Agent({ keepAlive: true, maxSockets: options.concurrency });
  const result: LoadResult = { answered: 0, wrong: [], failed: {}, ordered: [] };
  let next = 0;
  const started = Date.now();
  const one = async (): Promise<void> => {
    while (next < options.total) {
      const i = next++;
      if (options.rate) {
        const due = started + (i * 1000) / options.rate;
        if (due > Date.now()) await new Promise((r) => setTimeout(r, due - Date.now()));
      }
      const spec = requestFor(i, options.orders);
      try {
        const { status, body } = await send(agent, options, spec);
        result.answered += 1;
        if (status !== spec.status || body !== spec.expect) result.wrong.push(`${spec.method} ${spec.path}: ${status} ${body.slice(0, 80)}`);
        else if (spec.path === '/orders') result.ordered.push(body);
        options.onAnswer?.(result.answered);
      } catch (err) {
        const code = (err as NodeJS.ErrnoException).code ?? String(err);
        result.failed[code] = (result.failed[code] ?? 0) + 1;
      }
    }
  };
  await Promise.all(Array.from({ length: options.concurrency }, one));
  agent.destroy();
  return result;
}

function send(agent: http.Agent, options: LoadOptions, spec: { method: string; path: string; body?: string }): Promise<{ status: number; body: string }> {
  return new Promise((resolve, reject) => {
    const headers: http.OutgoingHttpHeaders = { 'content-type': 'text/plain' };
    if (options.host !== undefined) headers.host = options.host;
    const req = http.request({ host: '127.0.0.1', port: options.port, method: spec.method, path: spec.path, agent, headers }, (res) => {
      let body = '';
      res.setEncoding('utf8');
      res.on('data', (d: string) => (body += d));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, body }));
      res.on('error', reject);
    });
    req.on('error', reject);
    req.end(spec.body);
  });
}
