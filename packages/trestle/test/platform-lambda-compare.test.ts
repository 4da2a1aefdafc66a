// trestle/lambda against the adapters Express apps reach Lambda through
// today: serverless-http and @codegenie/serverless-express, each running the
// same app on real Express (5 against trestle, 4 against trestle/v4), called
// with the same documented events (fixtures/lambda/events.ts). Where an
// adapter answers right, trestle's answer is the same (status, headers but
// Date and X-Powered-By, body bytes as the client gets them); where it falls
// short, the test says how, so docs/deploy.md can name it.
import assert from 'node:assert/strict';
import { createRequire } from 'node:module';
import { gunzipSync } from 'node:zlib';
import { describe, test } from 'node:test';
import serverlessExpress from '@codegenie/serverless-express';
import compression from 'compression';
import serverless from 'serverless-http';
import trestle from 'trestle';
import { lambda, type LambdaContext, type LambdaEvent } from 'trestle/lambda';
import trestleV4 from 'trestle/v4';
import { effective, eventFor, fakeContext, type Effective, type Kind, type RequestSpec } from './fixtures/lambda/events';

// The real Express, under its dev-dependency aliases (untyped).
const localRequire = createRequire(__filename);
const express5 = localRequire('express5') as unknown;
const express4 = localRequire('express4') as unknown;

const PNG = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0x00, 0xff, 0xfe]);
const PDF = Buffer.from([0x25, 0x50, 0x44, 0x46, 0x2d, 0xe2, 0xe3, 0xcf, 0xd3]);

type Req = { query: unknown; body: unknown; ip: string | undefined; protocol: string; originalUrl: string; get(name: string): string | undefined };
type Res = { json(body: unknown): void; send(body?: unknown): void; type(t: string): Res; cookie(name: string, value: string): void };
type Route = (req: Req, res: Res) => void;
interface LooseApp {
  use(...args: unknown[]): LooseApp;
  get(path: string, ...fns: unknown[]): LooseApp;
  post(path: string, ...fns: unknown[]): LooseApp;
}
interface Framework {
  (): LooseApp;
  json(): unknown;
}

/** One app, written once, on any of the four frameworks. */
function build(f: Framework): LooseApp {
  const app = f();
  app.use(f.json());
  app.get('/q', ((req, res) => res.json({ query: req.query, protocol: req.protocol, url: req.originalUrl })) as Route);
  app.get('/ip', ((req, res) => res.json({ ip: req.ip ?? null })) as Route);
  app.post('/j', ((req, res) => res.json(req.body)) as Route);
  app.get('/c', ((req, res) => {
    res.cookie('a', '1');
    res.cookie('b', '2');
    res.send(req.get('cookie') ?? 'none');
  }) as Route);
  app.get('/png', ((_req, res) => res.type('png').send(PNG)) as Route);
  app.get('/pdf', ((_req, res) => res.type('pdf').send(PDF)) as Route);
  app.get('/z', compression({ threshold: 0 }), ((_req, res) => res.send('squeeze me '.repeat(40))) as Route);
  app.get('/users', ((req, res) => res.send(req.originalUrl)) as Route);
  return app;
}

type Handler = (event: unknown, context: unknown) => Promise<Record<string, unknown>>;

const PAIRS = [
  { name: 'Express 5', trestle: trestle as unknown as Framework, express: express5 as unknown as Framework },
  { name: 'Express 4', trestle: trestleV4 as unknown as Framework, express: express4 as unknown as Framework },
];

/** An answer as the client sees it, without what differs by framework or clock. */
function seen(result: Record<string, unknown>): Effective {
  const e = effective(result);
  delete e.headers.date;
  delete e.headers['x-powered-by'];
  return e;
}

for (const pair of PAIRS) {
  const ours = lambda(build(pair.trestle) as never) as unknown as Handler;
  const adapters: [string, Handler][] = [
    ['serverless-http', serverless(build(pair.express) as never) as unknown as Handler],
    ['@codegenie/serverless-express', serverlessExpress({ app: build(pair.express) as never }) as unknown as Handler],
  ];
  const call = async (handler: Handler, kind: Kind, spec: RequestSpec) => seen(await handler(eventFor(kind, spec) as unknown as LambdaEvent, fakeContext() as LambdaContext));

  describe(`trestle/lambda and the adapters on ${pair.name}: the same answer where they are right`, () => {
    const SAME: [string, RequestSpec, Kind[]][] = [
      ['repeated query keys, the scheme', { path: '/q', query: [['t', 'a'], ['t', 'b c'], ['n', '1']] }, ['rest', 'http', 'url', 'alb', 'alb-multi']],
      ['a JSON body', { method: 'POST', path: '/j', headers: [['content-type', 'application/json']], body: '{"a":[1,"é"]}' }, ['rest', 'http', 'url', 'alb', 'alb-multi']],
      ['cookies in, several Set-Cookie out', { path: '/c', cookies: ['x=1', 'y=2'] }, ['rest', 'http', 'url', 'alb-multi']],
      ['a gzip answer, base64', { path: '/z', headers: [['accept-encoding', 'gzip']] }, ['rest', 'http', 'url', 'alb', 'alb-multi']],
      ['the client address (API Gateway)', { path: '/ip' }, ['rest', 'http', 'url']],
    ];
    for (const [name, spec, kinds] of SAME) {
      for (const kind of kinds) {
        for (const [adapter, handler] of adapters) {
          test(`${name} (${kind}): as ${adapter}`, async () => {
            const theirs = await call(handler, kind, spec);
            assert.equal(theirs.status, 200);
            assert.deepEqual(await call(ours, kind, spec), theirs);
          });
        }
      }
    }
    test('a PNG answer: as @codegenie/serverless-express, which knows images are binary', async () => {
      const theirs = await call(adapters[1]![1], 'http', { path: '/png' });
      assert.deepEqual(theirs.body, PNG);
      assert.deepEqual(await call(ours, 'http', { path: '/png' }), theirs);
    });
    test('gzip really is the text, for all three', async () => {
      for (const handler of [ours, ...adapters.map(([, h]) => h)]) {
        assert.equal(gunzipSync((await call(handler, 'http', { path: '/z', headers: [['accept-encoding', 'gzip']] })).body).toString(), 'squeeze me '.repeat(40));
      }
    });
  });

  describe(`where the adapters fall short on ${pair.name}`, () => {
    const [sh, se] = [adapters[0]![1], adapters[1]![1]];

    test('binary types without configuration: serverless-http mangles a PNG, both mangle a PDF; trestle sends the bytes', async () => {
      assert.notDeepEqual((await call(sh, 'http', { path: '/png' })).body, PNG);
      for (const handler of [sh, se]) assert.notDeepEqual((await call(handler, 'http', { path: '/pdf' })).body, PDF);
      assert.deepEqual((await call(ours, 'http', { path: '/png' })).body, PNG);
      assert.deepEqual((await call(ours, 'http', { path: '/pdf' })).body, PDF);
    });

    test('several cookies on an ALB without multi-value headers: serverless-http drops them all, serverless-express keeps the first, trestle the last', async () => {
      assert.equal((await call(sh, 'alb', { path: '/c' })).headers['set-cookie'], undefined);
      assert.deepEqual((await call(se, 'alb', { path: '/c' })).headers['set-cookie'], ['a=1; Path=/']);
      assert.deepEqual((await call(ours, 'alb', { path: '/c' })).headers['set-cookie'], ['b=2; Path=/']);
    });

    test("the client's address behind an ALB: none from either adapter; trestle takes the hop the ALB added", async () => {
      assert.equal(JSON.parse((await call(sh, 'alb-multi', { path: '/ip' })).body.toString()).ip, null);
      assert.equal(JSON.parse((await call(se, 'alb-multi', { path: '/ip' })).body.toString()).ip, '');
      assert.equal(JSON.parse((await call(ours, 'alb-multi', { path: '/ip' })).body.toString()).ip, '72.21.198.66');
    });

    test("an HTTP API's named stage: serverless-http routes /prod/users (a 404); trestle routes /users", async () => {
      const theirs = await call(sh, 'http', { path: '/users', stage: 'prod' });
      assert.equal(theirs.status, 404);
      assert.match(theirs.body.toString(), /Cannot GET \/prod\/users/);
      const mine = await call(ours, 'http', { path: '/users', stage: 'prod' });
      assert.equal(mine.status, 200);
      assert.equal(mine.body.toString(), '/users');
    });

    test("the final handler's 404: serverless-express answers 500 (its socket stand-in lacks on(), which on-finished needs)", async () => {
      const quiet = { info() {}, debug() {}, error() {} };
      const handler = serverlessExpress({ app: build(pair.express) as never, log: quiet } as never) as unknown as Handler;
      assert.equal((await call(handler, 'http', { path: '/nowhere' })).status, 500);
      assert.equal((await call(sh, 'http', { path: '/nowhere' })).status, 404);
      assert.equal((await call(ours, 'http', { path: '/nowhere' })).status, 404);
    });

    test('streaming: each adapter hands back one buffered result, the events of a server-sent stream in one body', async () => {
      const sse = (f: Framework) =>
        f().get('/events', ((_req: Req, res: Res & { write(s: string): void; end(): void; set(n: string, v: string): void }) => {
          res.set('content-type', 'text/event-stream');
          res.write('data: one\n\n');
          setImmediate(() => {
            res.write('data: two\n\n');
            res.end();
          });
        }) as never);
      for (const handler of [serverless(sse(pair.express) as never) as unknown as Handler, serverlessExpress({ app: sse(pair.express) as never }) as unknown as Handler]) {
        const result = await handler(eventFor('url', { path: '/events' }), fakeContext());
        assert.equal(result.body, 'data: one\n\ndata: two\n\n');
      }
      // trestle's lambda(app, { streaming: true }) writes each event as it comes: see platform-lambda.test.ts.
    });
  });
}
