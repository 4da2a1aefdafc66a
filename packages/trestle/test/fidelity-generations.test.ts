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
