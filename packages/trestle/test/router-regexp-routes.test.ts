// Regular-expression routes among enough routes that the router uses its
// layer index, which now files anchored expressions under their literal
// prefix: each entry must answer exactly as the Express it reimplements
// (express5, express4, express3, run side by side over HTTP) does, case
// sensitivity on and off, params (`req.params[0]`, named groups) included.
import assert from 'node:assert/strict';
import type * as http from 'node:http';
import { createRequire } from 'node:module';
import { describe, test } from 'node:test';
import trestle from 'trestle';
import legacy from 'trestle/legacy';
import trestleV4 from 'trestle/v4';
import { rawRequest, serve } from './helpers';

const require_ = createRequire(__filename);

type Handler = (req: { params: unknown }, res: { json(value: unknown): void; set(name: string, value: string): void }, next: () => void) => void;
interface AppLike {
  set(name: string, value: unknown): void;
  enable(name: string): void;
  get(path: string | RegExp, fn: Handler): void;
  use(path: RegExp, fn: Handler): void;
}
type Factory = () => AppLike;

/** Regular expressions every entry takes, each an edge of reading a prefix from one. */
const REGEXPS: RegExp[] = [
  /^\/api\/v(\d+)\/users\/(\d+)\/?$/,
  /^\/Caps\/(\w+)$/i,
  /^\/colou?r$/,
  /^\/ab*c$/,
  /^\/x{0,1}y$/,
  /^\/left|right$/,
  /\/tail$/,
  /^\/dot\.(json|xml)$/,
];

/** Named groups: Express 3 numbers them (legacy names them, a documented difference). */
const NAMED = /^\/n\/(?<id>\d+)$/;

/** v4 and legacy string paths, which are raw regular-expression source outside their parameters. */
const V4_STRINGS = ['/qb{0,1}c', '/sv/colou?r', '/p+q', '/files/:name.:ext?', '/opt/:id?'];

const PATHS = [
  '/api/v2/users/7', '/api/v2/users/7/', '/API/v2/users/7', '/api/v2/users/x', '/caps/abc', '/CAPS/abc', '/Caps/abc',
  '/color', '/colour', '/colouur', '/ac', '/abbc', '/y', '/xy', '/anything/right', '/left', '/a/b/tail', '/n/42',
  '/dot.json', '/DOT.json', '/pad3/x', '/nothing', '/qc', '/qbc', '/sv/color', '/ppq', '/q', '/files/a.txt', '/files/a',
  '/opt', '/opt/1', '/mount12/x', '/Mount12/x',
];

function build(factory: Factory, sensitive: boolean, extra: Array<string | RegExp>, mount: boolean): AppLike {
  const app = factory();
  app.set('env', 'production');
  if (sensitive) app.enable('case sensitive routing');
  if (mount) {
    app.use(/^\/mount\d+/, (_req, res, next) => {
      res.set('X-Mount', 'yes');
      next();
    });
  }
  // Spread: Express 3's req.params is an array, legacy's an object with the same entries (a documented difference).
  const answer = (route: string | number): Handler => (req, res) => res.json({ route, params: { ...(req.params as object) } });
  // Padding: enough literal prefixes for the index to be built.
  for (let i = 0; i < 12; i++) app.get(`/pad${i}/:id`, answer(`pad${i}`));
  [...REGEXPS, ...extra].forEach((path, i) => app.get(path, answer(i)));
  return app;
}

async function answers(app: AppLike): Promise<string[]> {
  const server = await serve(app as unknown as http.RequestListener);
  try {
    const out: string[] = [];
    for (const path of PATHS) {
      const res = await rawRequest(server.port, 'GET', path);
      out.push(`${path} -> ${res.status} ${res.headers['x-mount'] ?? ''} ${res.status === 200 ? res.body : ''}`);
    }
    return out;
  } finally {
    await server.close();
  }
}

const ENTRIES: Array<{ name: string; ours: Factory; theirs: string; extra: Array<string | RegExp>; mount: boolean }> = [
  { name: 'trestle (Express 5)', ours: trestle as unknown as Factory, theirs: 'express5', extra: [NAMED], mount: true },
  { name: 'trestle/v4 (Express 4)', ours: trestleV4 as unknown as Factory, theirs: 'express4', extra: [NAMED, ...V4_STRINGS], mount: true },
  // Express 3's app.use() takes no regular expression.
  { name: 'trestle/legacy (Express 3)', ours: legacy as unknown as Factory, theirs: 'express3', extra: V4_STRINGS, mount: false },
];

describe('regular-expression routes among many routes answer as in Express', () => {
  for (const entry of ENTRIES) {
    for (const sensitive of [false, true]) {
      test(`${entry.name}, case-${sensitive ? 'sensitive' : 'insensitive'} routing`, async () => {
        const express = require_(entry.theirs) as Factory;
        const want = await answers(build(express, sensitive, entry.extra, entry.mount));
        const got = await answers(build(entry.ours, sensitive, entry.extra, entry.mount));
        assert.deepEqual(got, want);
        // The comparison says something only if the expressions matched.
        assert.ok(want.filter((line) => line.includes(' 200 ')).length >= 15);
      });
    }
  }
});
