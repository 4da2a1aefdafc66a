// The upgrade report's route paths (trestle/upgrade): each Express 4 path of
// a table covering the syntax is translated, the suggestion is verified on
// generated samples against the real path-to-regexp 0.1 and 8, and, for the
// verified ones, a few hand-picked URLs go over HTTP to a real Express 4 app
// with the v4 path and a trestle (Express 5) app with the suggestion: both
// must answer alike (and real Express 5 with the suggestion too).
import assert from 'node:assert/strict';
import type * as http from 'node:http';
import { createRequire } from 'node:module';
import { after, before, describe, test } from 'node:test';
import fc from 'fast-check';
import trestle from 'trestle';
import trestleV4 from 'trestle/v4';
import { type MatchOptions, type ParamRename, routeFindings, routeTable, translatePath, verifyPath } from 'trestle/upgrade';
import { rawRequest, serve, type Served } from './helpers';

const localRequire = createRequire(__filename);

type Req = http.IncomingMessage & { params: Record<string, unknown>; baseUrl: string };
type Res = http.ServerResponse & { json(body: unknown): void };
type Handler = (req: Req, res: Res) => void;
interface MiniApp {
  (req: http.IncomingMessage, res: http.ServerResponse): void;
  get(path: string | RegExp, fn: Handler): unknown;
  use(path: string | RegExp, fn: Handler): unknown;
}
const express4 = localRequire('express4') as () => MiniApp;
const express5 = localRequire('express5') as () => MiniApp;
const trestle5 = trestle as unknown as () => MiniApp;

interface Row {
  v4: string;
  /** What Express 5 does with the path as written. */
  change: 'none' | 'rejected' | 'different';
  /** The expected suggestion: a v5 string, or a RegExp's `String()`. */
  suggestion?: string;
  options?: Partial<MatchOptions>;
  /** The v4 path matches every path (so no sample is refused). */
  everything?: true;
  /** Hand-picked URLs sent to both apps (some match, some must not). */
  urls?: string[];
}

const MOUNT: Partial<MatchOptions> = { end: false, strict: false };

const TABLE: Row[] = [
  { v4: '/users', change: 'none' },
  { v4: '/users/:id', change: 'none' },
  { v4: '/:name.html', change: 'none' },
  // Optional parameters.
  { v4: '/users/:id?', change: 'rejected', suggestion: '/users{/:id}', urls: ['/users', '/users/', '/users/7', '/Users/7/', '/users/7/x', '/users7'] },
  { v4: '/user/:id/:op?', change: 'rejected', suggestion: '/user/:id{/:op}', urls: ['/user/1', '/user/1/edit', '/user/1/edit/', '/user', '/user/1/edit/x'] },
  { v4: '/post/:slug?/comments', change: 'rejected', suggestion: '/post{/:slug}/comments', urls: ['/post/comments', '/post/hi/comments', '/post/hi', '/post//comments'] },
  { v4: '/:file.:ext?', change: 'rejected', suggestion: String(/^(?:\/(?<file>[^/]+?))(?:\.(?<ext>[^/\.]+?))?\/?$/i), urls: ['/a', '/a.txt', '/a.b.c', '/.x', '/a/'] },
  // `*` in every position.
  { v4: '*', change: 'rejected', suggestion: '*path', everything: true, urls: ['/', '/a', '/a/b/', '/a%2Fb'] },
  { v4: '/*', change: 'rejected', suggestion: '/{*path}', everything: true, urls: ['/', '/a', '/a/b'] },
  { v4: '/files/*', change: 'rejected', suggestion: '/files/{*path}', urls: ['/files', '/files/', '/files/a', '/files/a/b/', '/files/a%2Fb/c', '/filesx'] },
  { v4: '/*/edit', change: 'rejected', suggestion: '/{*path}/edit', urls: ['/a/edit', '/a/b/edit', '//edit', '/edit', '/a/edit/x'] },
  { v4: '/*.json', change: 'rejected', suggestion: '/{*path}.json', urls: ['/a.json', '/a/b.json', '/.json', '/a.JSON', '/a.json/x'] },
  { v4: '/users/:id/*', change: 'rejected', suggestion: '/users/:id/{*path}', urls: ['/users/1/', '/users/1/a/b', '/users/1'] },
  { v4: '/a/*/b/*', change: 'rejected', suggestion: '/a/{*path}/b/{*path2}', urls: ['/a/x/b/y', '/a/x/y/b/z/w', '/a//b/', '/a/b'] },
  { v4: '/ab*cd', change: 'different', suggestion: '/ab{*path}cd', urls: ['/abcd', '/abXcd', '/ab/x/cd', '/abc'] },
  // Regular-expression parameters, `+`, `?` on characters, groups.
  { v4: '/:file(\\d+)', change: 'rejected', suggestion: String(/^(?:\/(?<file>\d+))\/?$/i), urls: ['/42', '/42/', '/x', '/4x', '/'] },
  { v4: '/:id(\\d+)?', change: 'rejected', suggestion: String(/^(?:\/(?<id>\d+))?\/?$/i), urls: ['/', '/7', '/x'] },
  { v4: '/:path*', change: 'rejected', suggestion: String(/^(?:\/(?<path>[^/]+?)((?:[/].+?)?))\/?$/i), urls: ['/a', '/a/b/c', '/'] },
  { v4: '/ab+c', change: 'rejected', suggestion: String(/^\/ab+c\/?$/i), urls: ['/abc', '/abbbc', '/ac'] },
  { v4: '/ab?cd', change: 'rejected', suggestion: '/a{b}cd', urls: ['/abcd', '/acd', '/abbcd'] },
  { v4: '/a(bc)?d', change: 'rejected', suggestion: String(/^\/a(bc)?d\/?$/i), urls: ['/abcd', '/ad', '/abd'] },
  { v4: '/(foo|bar)/x', change: 'rejected', suggestion: String(/^\/(?:foo|bar)\/x\/?$/i), urls: ['/foo/x', '/bar/x', '/baz/x'] },
  // Combinations: a parameter repeated with `+`, `*` before a parameter, an optional parameter before `*`,
  // a pattern of alternatives after a dot, `?` on a character before a parameter, `*` and a pattern in one path.
  { v4: '/:id+', change: 'rejected', suggestion: String(/^(?:\/(?<id>[^/]+?))+\/?$/i), urls: ['/a', '/a/b', '/a/b/', '/'] },
  { v4: '/*/:id', change: 'rejected', suggestion: '/{*path}/:id', urls: ['/a/1', '/a/b/1', '/1', '//1'] },
  { v4: '/user/:id?/*', change: 'rejected', suggestion: '/user{/:id}/{*path}', urls: ['/user/1/x', '/user//x', '/user/1/', '/user/', '/user'] },
  { v4: '/a.:ext(json|xml)', change: 'rejected', suggestion: String(/^\/a(?:\.(?<ext>json|xml))\/?$/i), urls: ['/a.json', '/a.XML', '/a.txt', '/a'] },
  { v4: '/colou?r/:id', change: 'rejected', suggestion: '/colo{u}r/:id', urls: ['/color/1', '/colour/1', '/colouur/1'] },
  { v4: '/api/*/v:ver(\\d+)', change: 'rejected', suggestion: String(/^\/api\/(.*)\/v(?:(?<ver>\d+))\/?$/i), urls: ['/api/x/v2', '/api/x/y/v10', '/api/v2', '/api/x/vx'] },
  // Two parameters in one segment: Express 5 lets the second take characters Express 4 refuses it.
  { v4: '/flights/:from-:to', change: 'different', suggestion: String(/^\/flights(?:\/(?<from>[^/]+?))-(?:(?<to>(?:(?!\/|-).)+?))\/?$/i), urls: ['/flights/LAX-SFO', '/flights/a-b-c', '/flights/Q--~--/'] },
  // A trailing slash Express 5 strips away.
  { v4: '/foo//', change: 'different', suggestion: String(/^\/foo\/\/?$/i), urls: ['/foo', '/foo/', '/foo//'] },
  // Mounts (`use`): matched as a prefix.
  { v4: '/static', change: 'none', options: MOUNT },
  { v4: '/api/:v?', change: 'rejected', suggestion: '/api{/:v}', options: MOUNT, urls: ['/api', '/api/v2', '/api/v2/users', '/apiv2'] },
  { v4: '/assets/*', change: 'rejected', suggestion: '/assets/{*path}', options: MOUNT, urls: ['/assets/', '/assets/a/b', '/assets'] },
];

/** `req.params` by v4 names: v5 wildcard arrays joined with '/', as the report's note says. */
function v4Params(params: Record<string, unknown>, renames: ParamRename[]): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(params)) if (v !== undefined) out[k] = v;
  for (const r of renames) {
    const value = out[r.v5];
    delete out[r.v5];
    const joined = ((value as string[] | undefined) ?? []).join('/');
    if (joined !== '') out[r.v4] = joined;
  }
  for (const [k, v] of Object.entries(out)) if (v === '') delete out[k];
  return out;
}

function answer(renames: ParamRename[]): Handler {
  return (req, res) => res.json({ params: v4Params(req.params, renames), url: req.url, baseUrl: req.baseUrl });
}

/** The suggestion as an app registers it. */
function asPath(code: string): string | RegExp {
  const m = /^\/(.*)\/([a-z]*)$/s.exec(code);
  return code.startsWith('/^') && m !== null ? new RegExp(m[1]!, m[2]) : code;
}

describe('upgrade report: translatePath on the table', () => {
  for (const row of TABLE) {
    test(`${row.v4}${row.options?.end === false ? ' (mount)' : ''}: ${row.change}${row.suggestion === undefined ? '' : ` → ${row.suggestion}`}, verified on samples`, () => {
      const t = translatePath(row.v4, row.options);
      assert.equal(t.change, row.change);
      if (row.change === 'none') {
        assert.equal(t.suggestion, undefined);
        assert.equal(t.asWritten?.equivalent, true);
        return;
      }
      if (row.change === 'rejected') assert.match(t.error ?? '', /\S/);
      else assert.equal(t.asWritten?.equivalent, false);
      const s = t.suggestion!;
      assert.equal(typeof s.path === 'string' ? s.path : String(s.path), row.suggestion);
      assert.deepEqual(s.verification.counterexamples, []);
      assert.equal(s.verification.equivalent, true);
      // Enough samples on both sides of the line to mean something.
      assert.ok(s.verification.matched >= 3, `matched ${s.verification.matched}`);
      if (row.everything === undefined) assert.ok(s.verification.samples - s.verification.matched >= 3);
    });
  }

  test('a wildcard tells how req.params[0] becomes an array, and how to join it', () => {
    const s = translatePath('/files/*').suggestion!;
    assert.deepEqual(s.renames, [{ v4: 0, v5: 'path', join: true }]);
    assert.match(s.notes[0]!, /req\.params\[0\] becomes req\.params\.path/);
    assert.match(s.notes[0]!, /\(req\.params\.path \?\? \[\]\)\.join\('\/'\)/);
  });

  test('case-sensitive and strict routing are carried into the check', () => {
    const t = translatePath('/Users/:id?', { sensitive: true, strict: true });
    assert.equal(t.suggestion?.path, '/Users{/:id}');
    assert.equal(t.suggestion?.verification.equivalent, true);
    assert.equal(String(translatePath('/:n(\\d+)', { sensitive: true }).suggestion?.path), String(/^(?:\/(?<n>\d+))\/?$/));
  });
});

function compilesOnExpress4(path: string, options: MatchOptions): boolean {
  try {
    translatePath(path, options);
    return true;
  } catch (err) {
    if (err instanceof SyntaxError) return false;
    throw err;
  }
}

describe('upgrade report: any v4 path built from the syntax', () => {
  // Pieces of the v4 syntax; names are drawn so that none repeats (see the next test for repeats).
  const piece = fc.constantFrom('users', ':id', ':id?', '*', ':n(\\d+)', 'ab+c', 'ab?c', '(x|y)', ':a.:b', ':f.:e?', '.json', '-', ':x-:y', 'file*', 'a.b', ':p*', '\\.', '%20', 'é', 'UP');
  const path = fc.tuple(fc.array(fc.tuple(piece, fc.boolean()), { minLength: 1, maxLength: 3 }), fc.boolean()).map(([pieces, slash]) => {
    let n = 0;
    const text = pieces.map(([p, lead]) => (lead ? '/' : '') + p.replace(/:(\w+)/g, (_m, name: string) => `:${name}${n++}`)).join('');
    return (text.startsWith('/') ? text : '/' + text) + (slash ? '/' : '');
  });
  const options = fc.record({ end: fc.boolean(), strict: fc.boolean(), sensitive: fc.boolean() }).map((o) => (o.end ? o : { ...o, strict: false }));

  test('needs no change, or gets a suggestion verified equivalent', () => {
    fc.assert(fc.property(path, options, (p, o) => {
      // Some mixes are no regular expression at all: Express 4 throws on them too.
      fc.pre(compilesOnExpress4(p, o));
      const t = translatePath(p, o);
      if (t.change === 'none') return t.asWritten!.equivalent;
      return t.suggestion!.verification.equivalent;
    }), { numRuns: 150, seed: 33 });
  });

  test('a path Express 4 cannot compile throws as on Express 4', () => {
    assert.throws(() => translatePath('/(x|y):a.:b'), SyntaxError);
  });

  test('a name used twice, the last one optional: no Express 5 path keeps the earlier value, and the report says so', () => {
    const t = translatePath('/:id?/x/:id?');
    assert.equal(t.suggestion?.verification.equivalent, false);
    assert.ok(t.suggestion!.verification.counterexamples.some((c) => c.v4.params?.id !== undefined && c.v5.params?.id === undefined));
    assert.match(t.suggestion!.notes.join('\n'), /:id is used twice/);
  });
});

describe('upgrade report: the verifier catches a wrong suggestion', () => {
  test('dropping the optional parameter: /users no longer matches', () => {
    const v = verifyPath('/users/:id?', '/users/:id');
    assert.equal(v.equivalent, false);
    assert.ok(v.counterexamples.some((c) => c.url === '/users' && c.v4.matched && !c.v5.matched));
  });

  test('/files/*path for /files/*: /files/ matched only by Express 4', () => {
    const v = verifyPath('/files/*', '/files/*path', undefined, [{ v4: 0, v5: 'path', join: true }]);
    assert.equal(v.equivalent, false);
    assert.ok(v.counterexamples.some((c) => c.url === '/files/' && c.v4.matched && !c.v5.matched));
  });

  test('the same URLs but other params: a renamed parameter is a difference', () => {
    const v = verifyPath('/users/:id', '/users/:user');
    assert.equal(v.equivalent, false);
    assert.deepEqual(v.counterexamples[0]!.v5.matched, true);
  });

  test('a path Express 5 rejects throws its error', () => {
    assert.throws(() => verifyPath('/users/:id?', '/users/:id?'), /Unexpected \?/);
  });
});

describe('upgrade report: the suggestions over HTTP, Express 4 (v4 path) vs trestle and Express 5 (Express 5 form)', () => {
  const servers: Served[] = [];
  const pairs: Array<{ row: Row; v4: Served; v5: Served; real5: Served }> = [];

  before(async () => {
    for (const row of TABLE) {
      if (row.urls === undefined) continue;
      const t = translatePath(row.v4, row.options);
      const mount = row.options?.end === false;
      const old = express4();
      const now = trestle5();
      const real = express5();
      (mount ? old.use : old.get).call(old, row.v4, answer([]));
      for (const app of [now, real]) (mount ? app.use : app.get).call(app, asPath(row.suggestion!), answer(t.suggestion!.renames));
      const pair = { row, v4: await serve(old), v5: await serve(now), real5: await serve(real) };
      servers.push(pair.v4, pair.v5, pair.real5);
      pairs.push(pair);
    }
  });
  after(() => Promise.all(servers.map((s) => s.close())));

  test('every hand-picked URL gets the same status and, when matched, the same params, url and baseUrl', async () => {
    let matched = 0;
    for (const { row, v4, v5, real5 } of pairs) {
      for (const url of row.urls!) {
        const a = await rawRequest(v4.port, 'GET', url);
        if (a.status === 200) matched++;
        for (const [name, server] of [['trestle', v5], ['express 5', real5]] as const) {
          const b = await rawRequest(server.port, 'GET', url);
          assert.equal(b.status, a.status, `${name}: ${row.v4} ${url}`);
          if (a.status === 200) assert.deepEqual(JSON.parse(b.body), JSON.parse(a.body), `${name}: ${row.v4} ${url}`);
        }
      }
    }
    // Most hand-picked URLs match, so params are compared, not only 404s.
    assert.ok(matched >= 40, `matched ${matched}`);
  });
});

describe('upgrade report: the route table of a trestle/v4 app', () => {
  type V4App = MiniApp & { param(name: string, fn: (...a: unknown[]) => void): unknown; route(p: string): { post(fn: Handler): unknown } };
  type V4Factory = (() => V4App) & { Router(): V4App };
  const express = trestleV4 as unknown as V4Factory;
  const ok: Handler = (_req, res) => res.end();

  function build(): V4App {
    const app = express();
    app.get('/', ok);
    app.get('/users/:id?', ok);
    app.route('/orders').post(ok);
    app.param('0', (...a: unknown[]) => (a[2] as () => void)());
    app.get('/files/*', ok);
    // A router holding a router, then an app mounted in the app.
    const [api, inner, sub] = [express.Router(), express.Router(), express()];
    api.get('/:file(\\d+)', ok);
    inner.get('/plain', ok);
    inner.get('/ab+c', ok);
    api.use('/inner', inner);
    app.use('/api/:v?', api);
    sub.get('/docs/*', ok);
    app.use('/sub', sub);
    app.use(/^\/re/, ok);
    return app;
  }

  test('lists every route, mount, nested router, mounted app and param, with findings only where Express 5 differs', () => {
    const table = routeTable(build());
    const rows = table.map((e) => (e.kind === 'param' ? `param ${e.mountPath}|${e.name}|${String(e.renamedTo)}` : `${e.kind} ${e.mountPath}|${e.path}|${e.methods.join(',')}|${e.options.end}|${e.finding === undefined ? '' : String(e.finding.suggestion!.path)}`));
    assert.deepEqual(rows, [
      'mount |/||false|', // Express 4's query
      'mount |/||false|', // and expressInit
      'route |/|GET|true|',
      'route |/users/:id?|GET|true|/users{/:id}',
      'route |/orders|POST|true|',
      'route |/files/*|GET|true|/files/{*path}',
      'mount |/api/:v?||false|/api{/:v}',
      'route /api/:v?|/:file(\\d+)|GET|true|/^(?:\\/(?<file>\\d+))\\/?$/i',
      'mount /api/:v?|/inner||false|',
      'route /api/:v?/inner|/plain|GET|true|',
      'route /api/:v?/inner|/ab+c|GET|true|/^\\/ab+c\\/?$/i',
      'mount |/sub||false|',
      'mount /sub|/||false|',
      'mount /sub|/||false|',
      'route /sub|/docs/*|GET|true|/docs/{*path}',
      'mount |/^\\/re/||false|',
      'param |0|path',
    ]);
  });

  test('routeFindings keeps the entries that need a change, each verified', () => {
    const findings = routeFindings(build());
    assert.deepEqual(findings.map((e) => (e.kind === 'param' ? `param ${e.name}` : e.path)), ['/users/:id?', '/files/*', '/api/:v?', '/:file(\\d+)', '/ab+c', '/docs/*', 'param 0']);
    for (const e of findings) if (e.kind !== 'param') assert.equal(e.finding!.suggestion!.verification.equivalent, true);
  });

  test('strict and case-sensitive routing of the app reach the check; a router alone can be walked', () => {
    const app = express() as V4App & { enable(name: string): unknown };
    app.enable('strict routing');
    app.enable('case sensitive routing');
    app.get('/Dir/:id?', ok);
    const route = routeTable(app).find((e) => e.kind === 'route')!;
    assert.deepEqual(route.kind === 'route' && route.options, { end: true, strict: true, sensitive: true });
    const router = express.Router();
    router.get('/x/:y?', ok);
    assert.deepEqual(routeTable(router).map((e) => e.kind !== 'param' && e.finding?.suggestion?.path), ['/x{/:y}']);
  });
});
