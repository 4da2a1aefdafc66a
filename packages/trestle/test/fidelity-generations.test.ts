// Details every generation shares with its Express, run on each of
// `trestle`, `trestle/v4` and `trestle/legacy`: a router called without its
// callback, the body parsers' names and `limit` check, `json spaces` by
// environment, and the class names requests and responses show.
// Expectations checked against express@5, express@4 (body-parser 1) and
// express@3 black-box.
import assert from 'node:assert/strict';
import * as http from 'node:http';
import * as http2 from 'node:http2';
import type { AddressInfo } from 'node:net';
import { describe, test } from 'node:test';
import trestle from 'trestle';
import trestleLegacy from 'trestle/legacy';
import trestleV4 from 'trestle/v4';
import { rawRequest, serve } from './helpers';

type Generation = 'v5' | 'v4' | 'legacy';

/** What these tests use of an entry, loosely typed: each generation's types differ. */
interface Entry {
  (): Loose & ((req: unknown, res: unknown) => void);
  Router(): RouterLike;
  json(options?: object): Parser;
  urlencoded(options?: object): Parser;
  raw(options?: object): Parser;
  text(options?: object): Parser;
}
type Parser = (...args: never[]) => unknown;
type Loose = Record<string, (...args: unknown[]) => unknown>;
type Handler = (req: { url: string }, res: { end(body: string): void }, next: () => void) => void;
interface RouterLike {
  (req: unknown, res: unknown, next?: unknown): void;
  get(path: string, fn: Handler): unknown;
  use(fn: Handler): unknown;
}

const ENTRIES: Array<[Generation, Entry]> = [
  ['v5', trestle as unknown as Entry],
  ['v4', trestleV4 as unknown as Entry],
  ['legacy', trestleLegacy as unknown as Entry],
];

describe('a router called without its callback', () => {
  for (const [gen, fw] of ENTRIES) {
    test(`${gen}: ${gen === 'v5' ? 'throws at the call, as router 2 does' : 'runs its layers, as Express 4 did; a request nobody answers is a 404'}`, async () => {
      const router = fw.Router();
      // Async, so a walk that reached the end without a callback would end on a timer.
      router.use((_req, _res, next) => void setImmediate(next));
      router.get('/a', (_req, res) => res.end('a'));
      const empty = fw.Router();
      const server = await serve((req, res) => {
        try {
          (req.url!.startsWith('/empty') ? empty : router)(req, res);
        } catch (err) {
          const e = err as Error & { code?: string };
          res.end(`threw ${e.constructor.name} ${e.code}: ${e.message}`);
        }
      });
      try {
        const answers = [];
        for (const path of ['/a', '/b', '/empty']) {
          const res = await rawRequest(server.port, 'GET', path);
          answers.push(`${res.status} ${res.body.replace(/<[^>]*>|\n/g, '')}`);
        }
        const refused = '200 threw TypeError TRESTLE_ERR_MISSING_ARG: argument callback is required';
        if (gen === 'v5') assert.deepEqual(answers, [refused, refused, refused]);
        else assert.deepEqual(answers.map((a) => a.replace(/^(404) .*(Cannot GET \/\w+).*$/, '$1 $2')), ['200 a', '404 Cannot GET /b', '404 Cannot GET /empty']);
      } finally {
        await server.close();
      }
    });
  }
});

describe("the body parsers, as body-parser's", () => {
  const parsers = ['json', 'urlencoded', 'raw', 'text'] as const;
  for (const [gen, fw] of ENTRIES) {
    test(`${gen}: are named jsonParser, urlencodedParser, rawParser, textParser (stack dumps and tracing spans show it), and still parse`, async () => {
      assert.deepEqual(parsers.map((p) => fw[p]({ extended: true }).name), ['jsonParser', 'urlencodedParser', 'rawParser', 'textParser']);
      const app = fw();
      app.use!(fw.json());
      app.post!('/', (req: unknown, res: unknown) => (res as Loose).send!(JSON.stringify((req as { body: unknown }).body)));
      const server = await serve(app as never);
      try {
        const res = await rawRequest(server.port, 'POST', '/', { 'content-type': 'application/json' }, '{"a":1}');
        assert.equal(res.body, '{"a":1}');
      } finally {
        await server.close();
      }
    });

    test(`${gen}: a limit that is no byte count throws at creation, in body-parser's words`, () => {
      const invalid: Array<[unknown, string]> = [['', ''], ['huge', 'huge'], ['abc kb', 'abc kb'], [Number.NaN, 'NaN'], [{}, '[object Object]'], [true, 'true'], [false, 'false']];
      for (const p of parsers) {
        for (const [limit, shown] of invalid) {
          assert.throws(() => fw[p]({ limit, extended: true }), (err: Error & { code?: string }) => {
            assert.ok(err instanceof TypeError);
            assert.equal(err.code, 'TRESTLE_ERR_INVALID_OPTION');
            assert.equal(err.message, `option limit "${shown}" is invalid`);
            return true;
          }, `${p}({ limit: ${JSON.stringify(limit)} })`);
        }
        for (const limit of [undefined, null, 0, 100, '1kb', '1.5mb', Infinity]) fw[p]({ limit, extended: true });
      }
    });

    test(`${gen}: a limit of 0 refuses every body, as body-parser's does`, async () => {
      const app = fw();
      app.use!(fw.text({ limit: 0 }));
      app.post!('/', (_req: unknown, res: unknown) => (res as Loose).send!('read'));
      const server = await serve(app as never);
      try {
        const res = await rawRequest(server.port, 'POST', '/', { 'content-type': 'text/plain' }, 'x');
        assert.equal(res.status, 413);
      } finally {
        await server.close();
      }
    });
  }
});

/** An app made while NODE_ENV is `env` (undefined: unset, which is development). */
function appIn(fw: Entry, env: string | undefined): ReturnType<Entry> {
  const saved = process.env.NODE_ENV;
  try {
    if (env === undefined) delete process.env.NODE_ENV;
    else process.env.NODE_ENV = env;
    return fw();
  } finally {
    if (saved === undefined) delete process.env.NODE_ENV;
    else process.env.NODE_ENV = saved;
  }
}

describe('json spaces by environment', () => {
  // The spec: 2 in development, 0 in production; elsewhere unset, as Express leaves it.
  const expected: Array<[string, number | undefined, string]> = [
    ['development', 2, '{\n  "a": 1\n}'],
    ['production', 0, '{"a":1}'],
    ['test', undefined, '{"a":1}'],
    ['staging', undefined, '{"a":1}'],
  ];
  for (const [gen, fw] of ENTRIES) {
    test(`${gen}: follows env, from NODE_ENV at creation or app.set('env') after it`, async () => {
      for (const [env, spaces, body] of expected) {
        const made = appIn(fw, env);
        // The other order: made in another environment, then told its own.
        const told = appIn(fw, env === 'development' ? 'production' : undefined);
        told.set!('env', env);
        for (const [how, app] of [['NODE_ENV', made], ["app.set('env')", told]] as const) {
          app.get!('/', (_req: unknown, res: unknown) => (res as Loose).json!({ a: 1 }));
          const server = await serve(app as unknown as http.RequestListener);
          try {
            assert.equal(app.get!('json spaces'), spaces, `${env} by ${how}`);
            assert.equal((await rawRequest(server.port, 'GET', '/')).body, body, `${env} by ${how}`);
          } finally {
            await server.close();
          }
        }
      }
    });
  }
});

describe('requests and responses show the class names Express shows', () => {
  for (const [gen, fw] of ENTRIES) {
    test(`${gen}: IncomingMessage and ServerResponse, in constructor.name and in stack frames`, async () => {
      const app = appIn(fw, 'development');
      app.get!('/', (req: unknown, res: unknown) => (res as Loose).send!(`${(req as object).constructor.name} ${(res as object).constructor.name}`));
      // A method called on the request: its stack frame names the request's class.
      app.get!('/err', (req: unknown, _res: unknown, next: unknown) => {
        (req as http.IncomingMessage).on('end', function onEnd() {
          (next as (err: Error) => void)(new Error('boom'));
        });
        (req as http.IncomingMessage).resume();
      });
      app.use!((err: Error, _req: unknown, res: unknown, _next: unknown) => (res as Loose).send!(err.stack));
      // Both ways a request reaches an app: app.listen's server, and a plain node server.
      const listening = app.listen!(0, '127.0.0.1') as http.Server;
      await new Promise((resolve) => listening.once('listening', resolve));
      const plain = await serve(app as unknown as http.RequestListener);
      try {
        for (const port of [(listening.address() as AddressInfo).port, plain.port]) {
          assert.equal((await rawRequest(port, 'GET', '/')).body, 'IncomingMessage ServerResponse');
          const stack = (await rawRequest(port, 'GET', '/err')).body;
          assert.match(stack, /at IncomingMessage\.onEnd /);
          assert.doesNotMatch(stack, /AppRequest|AppResponse/);
        }
      } finally {
        listening.closeAllConnections();
        await new Promise((resolve) => listening.close(resolve));
        await plain.close();
      }
    });
  }

  test('over HTTP/2: the names of node\'s HTTP/2 classes', async () => {
    const app = trestle();
    app.get('/', (req, res) => res.send(`${req.constructor.name} ${res.constructor.name}`));
    const server = http2.createServer(app as never);
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const client = http2.connect(`http://127.0.0.1:${(server.address() as AddressInfo).port}`);
    try {
      const body = await new Promise<string>((resolve, reject) => {
        const stream = client.request({ ':path': '/' });
        let data = '';
        stream.setEncoding('utf8');
        stream.on('data', (d: string) => (data += d));
        stream.on('end', () => resolve(data));
        stream.on('error', reject);
      });
      assert.equal(body, 'Http2ServerRequest Http2ServerResponse');
    } finally {
      client.close();
      await new Promise((resolve) => server.close(resolve));
    }
  });
});
