// The load driver: a number of request loops on 127.0.0.1, some sharing a
// keep-alive agent, some opening a fresh connection per request. Request n
// carries `x-request-id: n` and is of kind kinds[n % kinds.length], so the
// log line it must produce follows from n alone (nothing kept per request).
import * as http from 'node:http';
import { type Kind, kinds } from './routes';

export interface LoadOptions {
  port: number;
  /** Stop issuing requests after this long... */
  durationMs?: number;
  /** ...or after this many, whichever comes first. */
  requests?: number;
  /** Request loops running at once. */
  concurrency: number;
  /** Every `freshEvery`-th loop opens a fresh connection per request; the others keep theirs alive. */
  freshEvery: number;
  /** The id of the first request (ids continue across runs against one log). */
  firstId: number;
  /** Extra headers for request n. */
  headers?: (n: number) => http.OutgoingHttpHeaders;
}

export interface LoadResult {
  /** Requests issued: ids firstId .. firstId + sent - 1. */
  sent: number;
  /** Requests whose answer was not the expected one (status, body, or a failed exchange). */
  failed: number;
  /** The first few failures, described. */
  failures: string[];
  hungUp: number;
  /** Requests sent on a connection of their own (the others shared keep-alive connections). */
  freshRequests: number;
  elapsedMs: number;
}

/** The route kind of request n. */
export function kindOf(n: number): Kind {
  return kinds[n % kinds.length]!;
}

const MAX_DESCRIBED = 20;

export async function drive(options: LoadOptions): Promise<LoadResult> {
  const started = performance.now();
  const deadline = options.durationMs === undefined ? Infinity : started + options.durationMs;
  const limit = options.requests ?? Infinity;
  const keepAlive = new http.Agent({ keepAlive: true, maxSockets: options.concurrency });
  const result: LoadResult = { sent: 0, failed: 0, failures: [], hungUp: 0, freshRequests: 0, elapsedMs: 0 };

  const fail = (n: number, what: string): void => {
    result.failed++;
    if (result.failures.length < MAX_DESCRIBED) result.failures.push(`request ${n} (${kindOf(n).method} ${kindOf(n).path(n)}): ${what}`);
  };

  const loop = async (fresh: boolean): Promise<void> => {
    while (result.sent < limit && performance.now() < deadline) {
      const n = options.firstId + result.sent++;
      if (fresh) result.freshRequests++;
      await exchange(options.port, n, fresh ? false : keepAlive, options.headers?.(n) ?? {}, result, fail);
    }
  };
  const loops = Array.from({ length: options.concurrency }, (_v, i) => loop(i % options.freshEvery === 0));
  await Promise.all(loops);
  keepAlive.destroy();
  result.elapsedMs = performance.now() - started;
  return result;
}

/** One request and its checks; never rejects (a failure is counted instead). */
function exchange(
  port: number,
  n: number,
  agent: http.Agent | false,
  extra: http.OutgoingHttpHeaders,
  result: LoadResult,
  fail: (n: number, what: string) => void,
): Promise<void> {
  const kind = kindOf(n);
  const body = kind.body?.(n);
  const headers: http.OutgoingHttpHeaders = { 'x-request-id': String(n), ...extra };
  if (body !== undefined) {
    headers['content-type'] = 'application/json';
    headers['content-length'] = Buffer.byteLength(body);
  }
  return new Promise<void>((resolve) => {
    let done = false;
    const finish = (problem?: string): void => {
      if (done) return;
      done = true;
      if (problem !== undefined) fail(n, problem);
      resolve();
    };
    const req = http.request({ host: '127.0.0.1', port, method: kind.method, path: kind.path(n), headers, agent }, (res) => {
      if (res.statusCode !== kind.status) {
        res.resume();
        finish(`status ${res.statusCode}`);
        return;
      }
      if (kind.hangUp) {
        // Read the first bytes, then hang up: the server is mid-response.
        res.once('data', () => {
          result.hungUp++;
          req.destroy();
          finish();
        });
        res.on('error', () => undefined);
        return;
      }
      let text = '';
      res.setEncoding('utf8');
      res.on('data', (d: string) => (text += d));
      res.on('end', () => {
        const expected = kind.expect?.(n);
        finish(expected !== undefined && text !== expected ? `body ${JSON.stringify(text.slice(0, 80))}` : undefined);
      });
      res.on('error', (e: Error) => finish(`response error ${e.message}`));
    });
    req.on('error', (e: NodeJS.ErrnoException) => finish(`request error ${e.code ?? e.message}`));
    req.end(body);
  });
}

export interface LogCheck {
  lines: number;
  /** Lines that are not one whole line of the expected shape. */
  malformed: string[];
  /** Ids logged more than once, ids never logged, lines that disagree with their request. */
  duplicates: number;
  missing: number;
  mismatched: string[];
  /** The captures of `tail` per distinct value, e.g. lines per process id. */
  tails: Map<string, number>;
}

/**
 * Checks a log written with LOG_FORMAT (optionally followed by a space and
 * text matching `tail`, whose first capture is counted) against requests
 * firstId .. firstId + sent - 1.
 */
export function checkLog(text: string, firstId: number, sent: number, tail?: RegExp): LogCheck {
  const check: LogCheck = { lines: 0, malformed: [], duplicates: 0, missing: 0, mismatched: [], tails: new Map() };
  const seen = new Uint8Array(sent);
  const lines = text.split('\n');
  // A file of whole lines ends with a newline: the last piece is empty.
  if (lines.pop() !== '') check.malformed.push('the file does not end with a newline');
  const shape = new RegExp(`^(\\d+) (GET|POST) (\\S+) (\\d{3})${tail === undefined ? '' : ` ${tail.source}`}$`);
  for (const line of lines) {
    check.lines++;
    const m = shape.exec(line);
    if (m === null) {
      if (check.malformed.length < MAX_DESCRIBED) check.malformed.push(line.slice(0, 200));
      continue;
    }
    const n = Number(m[1]);
    const index = n - firstId;
    if (index < 0 || index >= sent) {
      check.mismatched.push(`unknown id ${n}`);
      continue;
    }
    if (seen[index] === 1) check.duplicates++;
    seen[index] = 1;
    const kind = kindOf(n);
    if (m[2] !== kind.method || m[3] !== kind.path(n) || Number(m[4]) !== kind.status) {
      if (check.mismatched.length < MAX_DESCRIBED) check.mismatched.push(line.slice(0, 200));
    }
    if (m[5] !== undefined) check.tails.set(m[5], (check.tails.get(m[5]) ?? 0) + 1);
  }
  for (const s of seen) if (s === 0) check.missing++;
  return check;
}
