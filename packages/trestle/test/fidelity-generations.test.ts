// Details every generation shares with its Express, run on each of
// `trestle`, `trestle/v4` and `trestle/legacy`: a router called without its
// callback, the body parsers' names and `limit` check, `json spaces` by
// environment, and the class names requests and responses show.
// Expectations checked against express@5, express@4 (body-parser 1) and
// express@3 black-box.
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import trestle from 'trestle';
import trestleLegacy from 'trestle/legacy';
import trestleV4 from 'trestle/v4';
import { rawRequest, serve } from './helpers';

type Generation = 'v5' | 'v4' | 'legacy';

/** What these tests use of an entry, loosely typed: each generation's types differ. */
interface Entry {
  (): Record<string, (...args: never[]) => unknown> & ((req: unknown, res: unknown) => void);
  Router(): RouterLike;
  json(options?: object): Parser;
  urlencoded(options?: object): Parser;
  raw(options?: object): Parser;
  text(options?: object): Parser;
}
type Parser = (...args: never[]) => unknown;
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
      app.use!(fw.json() as never);
      app.post!('/', ((req: { body: unknown }, res: { send(b: string): void }) => res.send(JSON.stringify(req.body))) as never);
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
      app.use!(fw.text({ limit: 0 }) as never);
      app.post!('/', ((_req: unknown, res: { send(b: string): void }) => res.send('read')) as never);
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
