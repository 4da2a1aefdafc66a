// Details every generation shares with its Express, run on each of
// `trestle`, `trestle/v4` and `trestle/legacy`: a router called without its
// callback, the body parsers' names and `limit` check, `json spaces` by
// environment, and the class names requests and responses show.
// Expectations checked against express@5, express@4 (body-parser 1) and
// express@3 black-box, and each test runs on the real packages too: see
// twin.ts; where trestle differs, `differs` says why.
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import * as http from 'node:http';
import * as http2 from 'node:http2';
import type { AddressInfo } from 'node:net';
import { describe, test } from 'node:test';
import trestle from 'trestle';
import { rawRequest, serve } from './helpers';
import { type Differs, type Family, twinTest } from './twin';

type Generation = 'v5' | 'v4' | 'legacy';
const GENERATIONS: Generation[] = ['v5', 'v4', 'legacy'];

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

/** The generation's entry on this side. */
function entry(x: Family, gen: Generation): Entry {
  return x[gen] as unknown as Entry;
}

/** The `code` trestle's error carries; Express's errors have none. */
function codeOf(x: Family, code: string): string | undefined {
  return x.side === 'trestle' ? code : undefined;
}

describe('a router called without its callback', () => {
  // Express 4's router, called without a callback, runs its layers; a
  // request none answers reaches the missing callback from a timer, and the
  // TypeError thrown there ends the process. So Express 4 runs in a child:
  // it answers /a, then dies on `path`.
  const express4Dies = (path: string) => `
    const http = require('node:http');
    const express = require(${JSON.stringify(require.resolve('express4'))});
    const router = express.Router();
    router.use((req, res, next) => void setImmediate(next));
    router.get('/a', (req, res) => res.end('a'));
    const empty = express.Router();
    const server = http.createServer((req, res) => (req.url.startsWith('/empty') ? empty : router)(req, res));
    const get = (port, path) => new Promise((resolve) => http.get({ host: '127.0.0.1', port, path }, (res) => {
      let body = '';
      res.setEncoding('utf8');
      res.on('data', (d) => (body += d));
      res.on('end', () => resolve(res.statusCode + ' ' + body));
    }));
    server.listen(0, '127.0.0.1', async () => {
      console.log(await get(server.address().port, '/a'));
      await get(server.address().port, ${JSON.stringify(path)});
      console.log('answered');
    });`;

  const differs: Record<Generation, Differs | undefined> = {
    v5: undefined,
    v4: {
      why: 'Express 4 runs the layers too, but throws a TypeError from a timer for a request nobody answers, and the process dies',
      real: () => {
        for (const path of ['/b', '/empty']) {
          const out = spawnSync(process.execPath, ['-e', express4Dies(path)], { encoding: 'utf8', timeout: 20_000 });
          assert.equal(out.stdout, '200 a\n', path);
          assert.equal(out.status, 1, path);
          // Thrown from a timer (setImmediate), where nothing can catch it.
          assert.match(out.stderr, /^TypeError: /m, path);
          assert.match(out.stderr, /at process\.processImmediate /, path);
        }
      },
    },
    legacy: {
      why: "Express 3's Router is a constructor without use() whose middleware throws for a request no route answers; trestle/legacy has Express 4's router, as the spec's routers have use()",
      real: (x) => {
        const Router = x.legacy.Router as unknown as new () => { use?: unknown; get(path: string, fn: Handler): void; middleware: (req: object, res: object) => void };
        const router = new Router();
        assert.equal(router.use, undefined);
        router.get('/a', (_req, res) => res.end('a'));
        const ended: string[] = [];
        const res = { end: (body: string) => void ended.push(body) };
        router.middleware({ method: 'GET', url: '/a' }, res);
        assert.deepEqual(ended, ['a']);
        assert.throws(() => router.middleware({ method: 'GET', url: '/b' }, res), TypeError);
      },
    },
  };

  for (const gen of GENERATIONS) {
    const what = gen === 'v5' ? 'throws at the call, as router 2 does' : 'runs its layers; a request nobody answers is a 404';
    twinTest(`${gen}: ${what}`, async (x) => {
      const fw = entry(x, gen);
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
        const refused = `200 threw TypeError ${codeOf(x, 'TRESTLE_ERR_MISSING_ARG')}: argument callback is required`;
        if (gen === 'v5') assert.deepEqual(answers, [refused, refused, refused]);
        else assert.deepEqual(answers.map((a) => a.replace(/^(404) .*(Cannot GET \/\w+).*$/, '$1 $2')), ['200 a', '404 Cannot GET /b', '404 Cannot GET /empty']);
      } finally {
        await server.close();
      }
    }, differs[gen]);
  }
});

describe("the body parsers, as body-parser's", () => {
  const parsers = ['json', 'urlencoded', 'raw', 'text'] as const;
  /** The parsers each generation's Express has: Express 3 (connect 2) had no raw or text. */
  const parsersOf = (gen: Generation) => (gen === 'legacy' ? parsers.slice(0, 2) : parsers);
  const names = { json: 'jsonParser', urlencoded: 'urlencodedParser', raw: 'rawParser', text: 'textParser' };

  for (const gen of GENERATIONS) {
    twinTest(`${gen}: are named ${parsersOf(gen).map((p) => names[p]).join(', ')} (stack dumps and tracing spans show it), and still parse`, async (x) => {
      const fw = entry(x, gen);
      assert.deepEqual(parsersOf(gen).map((p) => fw[p]({ extended: true }).name), parsersOf(gen).map((p) => names[p]));
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

    twinTest(`${gen}: a limit that is no byte count throws at creation, in body-parser's words`, (x) => {
      const fw = entry(x, gen);
      const invalid: Array<[unknown, string]> = [['', ''], ['huge', 'huge'], ['abc kb', 'abc kb'], [Number.NaN, 'NaN'], [{}, '[object Object]'], [true, 'true'], [false, 'false']];
      for (const p of parsersOf(gen)) {
        for (const [limit, shown] of invalid) {
          assert.throws(() => fw[p]({ limit, extended: true }), (err: Error & { code?: string }) => {
            assert.ok(err instanceof TypeError);
            assert.equal(err.code, codeOf(x, 'TRESTLE_ERR_INVALID_OPTION'));
            assert.equal(err.message, `option limit "${shown}" is invalid`);
            return true;
          }, `${p}({ limit: ${JSON.stringify(limit)} })`);
        }
        for (const limit of [undefined, null, 0, 100, '1kb', '1.5mb', Infinity]) fw[p]({ limit, extended: true });
      }
    }, gen === 'legacy' ? "Express 3's connect parsers take any limit without a check; trestle/legacy checks it as body-parser does" : undefined);

    twinTest(`${gen}: a limit of 0 refuses every body, as body-parser's does`, async (x) => {
      const fw = entry(x, gen);
      const app = fw();
      app.use!(fw.json({ limit: 0 }));
      app.post!('/', (_req: unknown, res: unknown) => (res as Loose).send!('read'));
      const server = await serve(app as never);
      try {
        const res = await rawRequest(server.port, 'POST', '/', { 'content-type': 'application/json' }, '{}');
        assert.equal(res.status, 413);
      } finally {
        await server.close();
      }
    });
  }

  twinTest('legacy: raw and text, which Express 3 lacked, are named rawParser and textParser', (x) => {
    assert.deepEqual([x.legacy.raw().name, x.legacy.text().name], ['rawParser', 'textParser']);
  }, {
    why: 'Express 3 (connect 2) had no raw or text parser; trestle/legacy keeps the later API',
    real: (x) => assert.deepEqual([typeof x.legacy.raw, typeof x.legacy.text], ['undefined', 'undefined']),
  });
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

/** `json spaces` and the JSON sent, of an app made in `madeIn`, then told `env` (when given). */
async function spacesOf(fw: Entry, madeIn: string | undefined, env?: string): Promise<[unknown, string]> {
  const app = appIn(fw, madeIn);
  if (env !== undefined) app.set!('env', env);
  app.get!('/', (_req: unknown, res: unknown) => (res as Loose).json!({ a: 1 }));
  const server = await serve(app as unknown as http.RequestListener);
  try {
    return [app.get!('json spaces'), (await rawRequest(server.port, 'GET', '/')).body];
  } finally {
    await server.close();
  }
}

describe('json spaces by environment', () => {
  const compact: [unknown, string] = [undefined, '{"a":1}'];
  const answers: Record<string, [unknown, string]> = { development: [2, '{\n  "a": 1\n}'], production: [0, '{"a":1}'] };
  /** Where the other order starts: an app made there, then told `env`. */
  const otherThan = (env: string) => (env === 'development' ? 'production' : undefined);
  /** Express's rule: 5 and 4 leave it unset; 3 sets 2 once, when an app is made in development (NODE_ENV unset is development). */
  const express = (gen: Generation, madeIn: string | undefined) => (gen === 'legacy' && (madeIn ?? 'development') === 'development' ? answers.development! : compact);
  /** Why trestle answers `env` differently from the generation's Express. */
  const why = (gen: Generation, env: string) => {
    const keeps = 'Express 3 sets 2 once, when an app is made in development, and keeps it whatever env it is told; trestle follows env when read';
    if (env === 'production') return `Express leaves it unset in production; the spec says 0${gen === 'legacy' ? `. ${keeps}` : ''}`;
    if (gen === 'legacy') return keeps;
    return `Express ${gen === 'v5' ? 5 : 4} leaves it unset in development; the spec says 2`;
  };

  for (const gen of GENERATIONS) {
    for (const env of ['development', 'production', 'test', 'staging']) {
      const expected = answers[env] ?? compact;
      const real = [express(gen, env), express(gen, otherThan(env))];
      const same = real.every((r) => r[0] === expected[0]);
      twinTest(`${gen}: ${expected[0] ?? 'unset'} in ${env}, from NODE_ENV at creation or app.set('env') after it`, async (x) => {
        // Both orders: made in `env`, and made elsewhere, then told `env`.
        assert.deepEqual([await spacesOf(entry(x, gen), env), await spacesOf(entry(x, gen), otherThan(env), env)], [expected, expected]);
      }, same ? undefined : {
        why: why(gen, env),
        real: async (x) => assert.deepEqual([await spacesOf(entry(x, gen), env), await spacesOf(entry(x, gen), otherThan(env), env)], real),
      });
    }
  }
});

describe('requests and responses show the class names Express shows', () => {
  for (const gen of GENERATIONS) {
    twinTest(`${gen}: IncomingMessage and ServerResponse, in constructor.name and in stack frames`, async (x) => {
      const app = appIn(entry(x, gen), 'development');
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

  for (const gen of GENERATIONS) {
    twinTest(`${gen}: of the app's own subclasses of node's classes (instanceof holds), not node's classes themselves`, async (x) => {
      const app = entry(x, gen)();
      app.get!('/', (req: unknown, res: unknown) => {
        const classes = [(req as object).constructor === http.IncomingMessage, (res as object).constructor === http.ServerResponse];
        (res as Loose).send!(`${classes.join(' ')} ${req instanceof http.IncomingMessage} ${res instanceof http.ServerResponse}`);
      });
      const server = await serve(app as unknown as http.RequestListener);
      try {
        assert.equal((await rawRequest(server.port, 'GET', '/')).body, 'false false true true');
      } finally {
        await server.close();
      }
    }, "Express only swaps the prototype of node's objects; trestle's subclasses let app.listen's server build them directly, without Object.setPrototypeOf");
  }

  // trestle only: Express does not serve HTTP/2. Its first request ends the
  // process with a TypeError (Express 5 and 4 give node's HTTP/2 request
  // HTTP/1's prototype; Express 3 finds no req.url).
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
