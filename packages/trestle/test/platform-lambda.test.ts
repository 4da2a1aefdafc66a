// trestle/lambda (issue 31): an app as a Lambda handler, through app.fetch.
// Each case is written once and run on every generation and, where it
// applies, on every kind of event AWS documents (fixtures/lambda/events.ts):
// the handler is called as Lambda calls it, with a fake context, and its
// result read as API Gateway, the ALB or the function URL would read it.
import assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import { EventEmitter } from 'node:events';
import { after, afterEach, describe, test } from 'node:test';
import compression from 'compression';
import trestle from 'trestle';
import { lambda, lambdaOf, type LambdaEvent, type LambdaContext, type LambdaResult } from 'trestle/lambda';
import trestleLegacy from 'trestle/legacy';
import trestleV4 from 'trestle/v4';
import { within } from './lifecycle-helpers';
import { CLIENT_IP, effective, eventFor, fakeContext, KINDS, type Kind, type RequestSpec } from './fixtures/lambda/events';

type Generation = 'v5' | 'v4' | 'legacy';
const GENERATIONS: Generation[] = ['v5', 'v4', 'legacy'];
type Req = Record<string, unknown> & { params: Record<string, string>; query: unknown; body: unknown; get(name: string): string | undefined; headers: Record<string, string> };
type Res = { status(code: number): Res; send(body?: unknown): Res; json(body: unknown): Res; set(name: string, value: string): Res; cookie(name: string, value: string, options?: object): Res; write(chunk: string): boolean; end(chunk?: string): void; flushHeaders(): void };
type Route = (req: Req, res: Res, next: (err?: unknown) => void) => void;
interface LooseApp {
  use(...args: unknown[]): LooseApp;
  get(path: string, ...fns: Route[]): LooseApp;
  post(path: string, ...fns: Route[]): LooseApp;
  fetch(request: Request, options?: object): Promise<Response>;
}
interface Entry {
  (): LooseApp;
  json(): unknown;
  raw(options?: object): unknown;
}
const ENTRIES = { v5: trestle, v4: trestleV4, legacy: trestleLegacy } as unknown as Record<Generation, Entry>;

function invoke(app: LooseApp, kind: Kind, spec: RequestSpec, options?: Parameters<typeof lambda>[1]) {
  const handler = lambda(app, options);
  return handler(eventFor(kind, spec) as unknown as LambdaEvent, fakeContext() as LambdaContext);
}

async function answer(app: LooseApp, kind: Kind, spec: RequestSpec, options?: Parameters<typeof lambda>[1]) {
  const result = await invoke(app, kind, spec, options);
  return { result: result as LambdaResult & Record<string, unknown>, ...effective(result as unknown as Record<string, unknown>) };
}

const PNG = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0x00, 0xff, 0xfe, 0x80, 0x01]);

for (const gen of GENERATIONS) {
  const t = ENTRIES[gen];
  for (const kind of KINDS) {
    describe(`lambda() on ${kind} events (${gen})`, () => {
      test('routing, params, repeated query keys, the client, the scheme and host AWS sends', async () => {
        const app = t().get('/users/:id', (req, res) => {
          res.json({ id: req.params.id, query: req.query, ip: req.ip, protocol: req.protocol, secure: req.secure, host: req.get('host'), proto: req.get('x-forwarded-proto'), url: req.originalUrl });
        });
        const { status, body } = await answer(app, kind, { path: '/users/42', query: [['tag', 'a'], ['tag', 'b c'], ['n', '1']] });
        assert.equal(status, 200);
        const json = JSON.parse(body.toString());
        assert.equal(json.id, '42');
        // ALB single-value mode carries one value per key: the last, as AWS documents.
        assert.deepEqual(json.query, kind === 'alb' ? { tag: 'b c', n: '1' } : { tag: ['a', 'b c'], n: '1' });
        assert.equal(json.ip, CLIENT_IP[kind]);
        assert.equal(json.protocol, 'https');
        assert.equal(json.secure, true);
        assert.equal(json.proto, 'https');
        assert.match(json.host, /amazonaws\.com$|\.on\.aws$/);
        assert.match(json.url, /^\/users\/42\?tag=a&tag=b(%20|\+)c&n=1$|^\/users\/42\?tag=b(%20|\+)c&n=1$/);
      });

      test('the event and the context on req.platform (lambdaOf(req) typed)', async () => {
        const app = t().get('/who', (req, res) => {
          const platform = lambdaOf(req);
          res.json({ name: platform?.name, requestId: platform?.context.awsRequestId, remaining: platform?.context.getRemainingTimeInMillis?.(), hasEvent: platform?.event === (req as unknown as { platform: { event: unknown } }).platform.event, keys: Object.keys(platform?.event ?? {}).includes('requestContext') });
        });
        const { body } = await answer(app, kind, { path: '/who' });
        assert.deepEqual(JSON.parse(body.toString()), { name: 'lambda', requestId: 'c6af9ac6-7b61-11e6-9a41-93e812345678', remaining: 3000, hasEvent: true, keys: true });
      });

      test('cookies in; several Set-Cookie answers out, in the form the event takes', async () => {
        const app = t().get('/c', (req, res) => {
          res.cookie('a', '1');
          res.cookie('b', '2', { httpOnly: true });
          res.send(req.get('cookie') ?? 'none');
        });
        const { result, headers, body } = await answer(app, kind, { path: '/c', cookies: ['x=1', 'y=2'] });
        assert.equal(body.toString(), 'x=1; y=2');
        if (kind === 'alb') {
          // A target group without multi-value headers has one value per header: the last cookie set.
          assert.deepEqual(headers['set-cookie'], ['b=2; Path=/; HttpOnly']);
        } else {
          assert.deepEqual(headers['set-cookie'], ['a=1; Path=/', 'b=2; Path=/; HttpOnly']);
        }
        if (kind === 'http' || kind === 'url') assert.deepEqual(result.cookies, ['a=1; Path=/', 'b=2; Path=/; HttpOnly']);
        if (kind === 'rest' || kind === 'alb-multi') assert.ok(result.multiValueHeaders && !('headers' in result));
        if (kind === 'alb') assert.ok(result.headers && !('multiValueHeaders' in result));
        if (kind === 'alb' || kind === 'alb-multi') assert.equal(result.statusDescription, '200 OK');
      });

      test('a JSON body in; a base64 binary body in is decoded', async () => {
        const app = t()
          .post('/json', t.json() as Route, (req, res) => res.json(req.body))
          .post('/raw', t.raw({ type: 'image/png' }) as Route, (req, res) => res.send(createHash('sha1').update(req.body as Buffer).digest('hex')));
        const json = await answer(app, kind, { method: 'POST', path: '/json', headers: [['content-type', 'application/json']], body: '{"a":[1,"é"]}' });
        assert.deepEqual(JSON.parse(json.body.toString()), { a: [1, 'é'] });
        const raw = await answer(app, kind, { method: 'POST', path: '/raw', headers: [['content-type', 'image/png']], body: PNG, base64: true });
        assert.equal(raw.body.toString(), createHash('sha1').update(PNG).digest('hex'));
      });

      test('binary answers are base64 by content type; text is not', async () => {
        const app = t()
          .get('/png', (_req, res) => res.set('content-type', 'image/png').send(PNG))
          .get('/text', (_req, res) => res.send('héllo'))
          .get('/json', (_req, res) => res.json({ ok: 'é' }))
          .get('/svg', (_req, res) => res.set('content-type', 'image/svg+xml').send('<svg/>'));
        const png = await answer(app, kind, { path: '/png' });
        assert.equal(png.result.isBase64Encoded, true);
        assert.deepEqual(png.body, PNG);
        for (const path of ['/text', '/json', '/svg']) {
          const text = await answer(app, kind, { path });
          assert.equal(text.result.isBase64Encoded, false, path);
        }
        assert.equal((await answer(app, kind, { path: '/text' })).result.body, 'héllo');
      });

      test('a compressed answer (any Content-Encoding) is binary', async () => {
        const app = t().use(compression({ threshold: 0 })).get('/', (_req, res) => res.send('squeeze me '.repeat(50)));
        const { result, headers, body } = await answer(app, kind, { path: '/', headers: [['accept-encoding', 'gzip']] });
        assert.deepEqual(headers['content-encoding'], ['gzip']);
        assert.equal(result.isBase64Encoded, true);
        assert.equal((await import('node:zlib')).gunzipSync(body).toString(), 'squeeze me '.repeat(50));
      });

      test('the 404 of the final handler; HEAD and 204 have an empty body', async () => {
        const app = t().get('/h', (_req, res) => res.send('a body')).get('/n', (_req, res) => res.status(204).send('x'));
        const missing = await answer(app, kind, { path: '/nowhere' });
        assert.equal(missing.status, 404);
        assert.match(missing.body.toString(), /Cannot GET \/nowhere/);
        const head = await answer(app, kind, { method: 'HEAD', path: '/h' });
        assert.equal(head.status, 200);
        assert.deepEqual(head.headers['content-length'], ['6']);
        assert.equal(head.result.body, '');
        const none = await answer(app, kind, { path: '/n' });
        assert.equal(none.status, 204);
        assert.equal(none.result.body, '');
      });

      test('basePath: a custom domain\'s base path mapping is not seen by the app', async () => {
        const app = t().get('/users', (req, res) => res.json({ path: req.path, url: req.originalUrl }));
        const { body } = await answer(app, kind, { path: '/api/users' }, { basePath: '/api/' });
        assert.deepEqual(JSON.parse(body.toString()), { path: '/users', url: '/users' });
      });
    });
  }

  describe(`lambda() (${gen})`, () => {
    test("an HTTP API's named stage is not part of the app's path; a REST API's path never has it", async () => {
      const app = t().get('/users', (req, res) => res.send(req.originalUrl));
      assert.equal((await answer(app, 'http', { path: '/users', stage: 'prod' })).body.toString(), '/users');
      const rest = eventFor('rest', { path: '/users' });
      assert.equal((rest.requestContext as { path: string }).path, '/prod/users');
      assert.equal((await answer(app, 'rest', { path: '/users' })).body.toString(), '/users');
    });

    test('option binary: listed types and globs add to the default; a function decides alone', async () => {
      const app = t()
        .get('/custom', (_req, res) => res.set('content-type', 'application/vnd.thing+json').send('{"a":1}'))
        .get('/text', (_req, res) => res.send('plain'));
      assert.equal((await answer(app, 'http', { path: '/custom' })).result.isBase64Encoded, false);
      const listed = await answer(app, 'http', { path: '/custom' }, { binary: ['application/vnd.*'] });
      assert.equal(listed.result.isBase64Encoded, true);
      assert.equal(listed.body.toString(), '{"a":1}');
      const decided = await answer(app, 'http', { path: '/text' }, { binary: (type) => type.startsWith('text/') });
      assert.equal(decided.result.isBase64Encoded, true);
      assert.equal(decided.body.toString(), 'plain');
      assert.throws(() => lambda(app, { binary: 'image/png' as never }), { name: 'TypeError', code: 'TRESTLE_ERR_INVALID_OPTION' });
    });

    test('an event that is not an HTTP event rejects with TRESTLE_ERR_LAMBDA_EVENT', async () => {
      const handler = lambda(t());
      await assert.rejects(handler({ Records: [{ eventSource: 'aws:sqs' }] } as unknown as LambdaEvent, fakeContext() as LambdaContext), { name: 'TypeError', code: 'TRESTLE_ERR_LAMBDA_EVENT' });
      assert.throws(() => lambda({} as never), { name: 'TypeError', code: 'TRESTLE_ERR_INVALID_ARG_TYPE' });
    });

    test('a path with an encoded ? or # keeps them in the path', async () => {
      const app = t().get('/files/:name', (req, res) => res.send(req.params.name));
      assert.equal((await answer(app, 'rest', { path: '/files/a?b#c' })).body.toString(), 'a?b#c');
    });
  });
}

/** A stand-in for the `awslambda` global of Lambda's Node runtime that records what the handler writes. */
interface Recorded {
  metadata: { statusCode: number; headers: Record<string, string>; cookies: string[] } | undefined;
  writes: string[];
  ended: boolean;
}

class FakeStream extends EventEmitter {
  writes: string[] = [];
  ended = false;
  metadata: Recorded['metadata'];
  onWrite: ((chunk: string) => void) | undefined;
  write(chunk: Uint8Array | string): boolean {
    this.writes.push(Buffer.from(chunk).toString());
    this.onWrite?.(Buffer.from(chunk).toString());
    return true;
  }
  end(): void {
    this.ended = true;
  }
  close(): void {
    this.emit('close');
  }
}

function installAwsLambda(): void {
  (globalThis as Record<string, unknown>).awslambda = {
    streamifyResponse: (fn: (...args: unknown[]) => Promise<void>) => Object.assign(fn, { streamified: true }),
    HttpResponseStream: {
      from(stream: FakeStream, metadata: Recorded['metadata']) {
        stream.metadata = metadata;
        return stream;
      },
    },
  };
}

describe('lambda(app, { streaming: true })', () => {
  afterEach(() => {
    delete (globalThis as Record<string, unknown>).awslambda;
  });
  after(() => {
    delete (globalThis as Record<string, unknown>).awslambda;
  });

  test('outside Lambda (no awslambda global) it throws TRESTLE_ERR_LAMBDA_STREAMING_UNAVAILABLE', () => {
    assert.throws(() => lambda(trestle(), { streaming: true }), { code: 'TRESTLE_ERR_LAMBDA_STREAMING_UNAVAILABLE' });
  });

  for (const gen of GENERATIONS) {
    test(`status, headers and cookies first, then each res.write() as written (server-sent events) (${gen})`, async () => {
      installAwsLambda();
      let release: () => void = () => {};
      const gate = new Promise<void>((resolve) => (release = resolve));
      const app = ENTRIES[gen]().get('/events', async (_req, res) => {
        res.status(201).set('content-type', 'text/event-stream');
        res.cookie('a', '1');
        res.cookie('b', '2');
        res.write('data: one\n\n');
        await gate;
        res.write('data: two\n\n');
        res.end();
      });
      const handler = lambda(app, { streaming: true });
      assert.equal((handler as unknown as { streamified: boolean }).streamified, true);
      const stream = new FakeStream();
      const seenFirst = new Promise<void>((resolve) => (stream.onWrite = () => resolve()));
      const done = handler(eventFor('url', { path: '/events' }) as unknown as LambdaEvent, stream as never, fakeContext() as LambdaContext);
      await within(seenFirst, 'the first res.write() reaching the Lambda stream');
      // The first event went out while the handler still waits for the second.
      assert.deepEqual(stream.writes, ['data: one\n\n']);
      assert.equal(stream.ended, false);
      assert.equal(stream.metadata?.statusCode, 201);
      assert.match(stream.metadata?.headers['content-type'] ?? '', /^text\/event-stream/);
      assert.deepEqual(stream.metadata?.cookies, ['a=1; Path=/', 'b=2; Path=/']);
      release();
      await within(done, 'the streaming handler finishing after the second write');
      assert.deepEqual(stream.writes, ['data: one\n\n', 'data: two\n\n']);
      assert.equal(stream.ended, true);
    });

    test(`Lambda's stream closing early is the client going away: req sees close (${gen})`, async () => {
      installAwsLambda();
      let closed!: () => void;
      const sawClose = new Promise<void>((resolve) => (closed = resolve));
      const app = ENTRIES[gen]().get('/long', (req, res) => {
        (req as unknown as { on(e: string, f: () => void): void }).on('close', closed);
        res.write('first');
      });
      const stream = new FakeStream();
      const wrote = new Promise<void>((resolve) => (stream.onWrite = () => resolve()));
      const done = lambda(app, { streaming: true })(eventFor('url', { path: '/long' }) as unknown as LambdaEvent, stream as never, fakeContext() as LambdaContext);
      await within(wrote, 'the first res.write() reaching the Lambda stream');
      stream.close();
      await within(sawClose, "req 'close' after Lambda's stream closed early");
      await within(done, 'the streaming handler finishing after the stream closed');
      assert.deepEqual(stream.writes, ['first']);
    });
  }
});
