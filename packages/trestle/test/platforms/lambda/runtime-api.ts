// The Lambda Runtime API (version 2018-06-01) as AWS documents it for custom
// runtimes, served on 127.0.0.1 for aws-lambda-ric to talk to:
//   GET  /2018-06-01/runtime/invocation/next            the next event, with the Lambda-Runtime-* headers
//   POST /2018-06-01/runtime/invocation/{id}/response   the answer, whole, or chunked with
//        Lambda-Runtime-Function-Response-Mode: streaming (an error then comes in the
//        Lambda-Runtime-Function-Error-Type / -Body trailers)
//   POST /2018-06-01/runtime/invocation/{id}/error      a failed invocation (Lambda-Runtime-Function-Error-Type)
//   POST /2018-06-01/runtime/init/error                 the function failed to load
// Each accepted POST is answered 202; a buffered answer over Lambda's 6 MB
// (6,291,556 bytes) is refused 413, as Lambda refuses it.
import { randomUUID } from 'node:crypto';
import { createServer, type IncomingHttpHeaders, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

export const MAX_BUFFERED_RESPONSE = 6_291_556;
const PREFIX = '/2018-06-01/runtime';

/** What the runtime sent back for one invocation. */
export interface Outcome {
  /** The invocation's request id (Lambda-Runtime-Aws-Request-Id). */
  id: string;
  /** 'response' (buffered or streamed), 'error' (the invocation failed). */
  kind: 'response' | 'error';
  streamed: boolean;
  headers: IncomingHttpHeaders;
  body: Buffer;
  trailers: Record<string, string | undefined>;
  /** When the Runtime API's GET /next answered, and when the outcome's last byte came (ms, performance.now()). */
  sentAt: number;
  doneAt: number;
}

/** Reads a streamed response body; the default reads it as fast as it comes. */
export type StreamReader = (req: IncomingMessage) => Promise<Buffer>;

interface Pending {
  id: string;
  event: unknown;
  sentAt: number;
  settle(outcome: Outcome): void;
  fail(err: Error): void;
}

/** Reads a whole body as fast as it comes (the default stream reader). */
export function readAll(req: IncomingMessage): Promise<Buffer> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => resolve(Buffer.concat(chunks)));
    req.on('error', reject);
  });
}

/** `promise`, or a rejection saying `what` (made when the time is up) did not happen within `ms`. */
function within<T>(promise: Promise<T>, ms: number, what: string | (() => string)): Promise<T> {
  let timer: NodeJS.Timeout;
  return Promise.race([
    promise,
    new Promise<never>((_, reject) => {
      timer = setTimeout(() => reject(new Error(typeof what === 'string' ? what : what())), ms);
    }),
  ]).finally(() => clearTimeout(timer));
}

export class RuntimeApi {
  private server: Server;
  private queue: Pending[] = [];
  private inFlight = new Map<string, Pending>();
  private waiting: ServerResponse | null = null;
  /** How the next streamed answers are read (a slow reader, for backpressure). */
  streamReader: StreamReader = readAll;
  /** Init errors the runtime posted. */
  initErrors: { headers: IncomingHttpHeaders; body: string }[] = [];
  /** When the runtime first asked for an invocation (ms, performance.now()): it has loaded the handler. */
  firstNextAt: number | undefined;

  private constructor() {
    this.server = createServer((req, res) => {
      this.route(req, res).catch((err: Error) => {
        if (!res.headersSent) res.writeHead(500).end(String(err));
      });
    });
  }

  static async start(): Promise<RuntimeApi> {
    const api = new RuntimeApi();
    await new Promise<void>((resolve) => api.server.listen(0, '127.0.0.1', resolve));
    return api;
  }

  /** host:port, as AWS_LAMBDA_RUNTIME_API holds it. */
  get address(): string {
    return `127.0.0.1:${(this.server.address() as AddressInfo).port}`;
  }

  /** Hands `event` to the runtime; resolves with what it sent back, or rejects naming what did not come within `ms`. */
  invoke(event: unknown, ms = 15_000, what?: () => string): Promise<Outcome> {
    const outcome = new Promise<Outcome>((settle, fail) => {
      this.queue.push({ id: randomUUID(), event, sentAt: 0, settle, fail });
    });
    this.dispatch();
    const path = (event as { rawPath?: string; path?: string }).rawPath ?? (event as { path?: string }).path ?? '?';
    return within(outcome, ms, () => `the runtime sent no response nor error for ${path} within ${ms} ms${what ? `: ${what()}` : ''}`);
  }

  private dispatch(): void {
    const res = this.waiting;
    if (res === null || this.queue.length === 0) return;
    const next = this.queue.shift()!;
    this.waiting = null;
    next.sentAt = performance.now();
    this.inFlight.set(next.id, next);
    res.writeHead(200, {
      'content-type': 'application/json',
      'lambda-runtime-aws-request-id': next.id,
      'lambda-runtime-deadline-ms': String(Date.now() + 60_000),
      'lambda-runtime-invoked-function-arn': 'arn:aws:lambda:us-east-1:123456789012:function:trestle-test',
      'lambda-runtime-trace-id': 'Root=1-5bef4de7-ad49b0e87f6ef6c87fc2e700;Parent=9a9197af755a6419;Sampled=1',
    });
    res.end(JSON.stringify(next.event));
  }

  private async route(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const url = req.url ?? '';
    if (req.method === 'GET' && url === `${PREFIX}/invocation/next`) {
      this.firstNextAt ??= performance.now();
      this.waiting = res;
      this.dispatch();
      return;
    }
    if (req.method === 'POST' && url === `${PREFIX}/init/error`) {
      this.initErrors.push({ headers: req.headers, body: (await readAll(req)).toString() });
      res.writeHead(202, { 'content-type': 'application/json' }).end('{"status":"OK"}');
      return;
    }
    const match = /^\/2018-06-01\/runtime\/invocation\/([^/]+)\/(response|error)$/.exec(url);
    const pending = match && req.method === 'POST' ? this.inFlight.get(decodeURIComponent(match[1]!)) : undefined;
    if (pending === undefined) {
      res.writeHead(400, { 'content-type': 'application/json' }).end('{"errorMessage":"unknown request id or path","errorType":"InvalidRequestID"}');
      return;
    }
    const streamed = req.headers['lambda-runtime-function-response-mode'] === 'streaming';
    const body = await (streamed ? this.streamReader(req) : readAll(req));
    if (match![2] === 'response' && !streamed && body.length > MAX_BUFFERED_RESPONSE) {
      res.writeHead(413, { 'content-type': 'application/json' }).end('{"errorMessage":"Exceeded maximum allowed payload size (6291556 bytes).","errorType":"RequestEntityTooLarge"}');
      return;
    }
    this.inFlight.delete(pending.id);
    res.writeHead(202, { 'content-type': 'application/json' }).end('{"status":"OK"}');
    pending.settle({
      id: pending.id, kind: match![2] as 'response' | 'error', streamed, headers: req.headers, body, trailers: { ...req.trailers },
      sentAt: pending.sentAt, doneAt: performance.now(),
    });
  }

  async close(): Promise<void> {
    // Invocations still waiting (a failed test's) end now, their timers with them.
    for (const pending of [...this.queue.splice(0), ...this.inFlight.values()]) {
      pending.fail(new Error(`the Runtime API closed before the runtime answered invocation ${pending.id}`));
    }
    this.inFlight.clear();
    this.waiting?.destroy();
    this.server.closeAllConnections();
    await within(new Promise<void>((resolve) => this.server.close(() => resolve())), 5000, 'the Runtime API server did not close within 5 s');
  }
}

/** A streamed body split at the HttpResponseStream prelude: the JSON metadata, then the 8 NUL bytes, then the answer. */
export function splitPrelude(body: Buffer): { metadata: { statusCode: number; headers: Record<string, string>; cookies: string[] }; rest: Buffer } {
  const at = body.indexOf(Buffer.alloc(8));
  if (at < 0) throw new Error(`no 8-NUL delimiter after the prelude in ${JSON.stringify(body.subarray(0, 200).toString())}`);
  return { metadata: JSON.parse(body.subarray(0, at).toString()), rest: body.subarray(at + 8) };
}
