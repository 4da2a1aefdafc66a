import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import type * as http from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, test } from 'node:test';
import request from 'supertest';
import trestle from 'trestle';
import trestleV4 from 'trestle/v4';

function appV4() {
  const app = trestleV4();
  app.set('env', 'production');
  return app;
}

describe('trestle/v4 entry', () => {
  test('require and import return the v4 factory, distinct from v5', async () => {
    // eslint-disable-next-line @typescript-eslint/no-require-imports
    const required = require('trestle/v4') as typeof trestleV4;
    assert.equal(typeof required, 'function');
    assert.equal(required, trestleV4);
    assert.notEqual(required, trestle);
    const esm = (await import('trestle/v4')) as unknown as { default: unknown };
    assert.equal(esm.default, trestleV4);
  });
});

describe('v4 path syntax', () => {
  test(':name? optional parameters, listed even when absent', async () => {
    const app = appV4();
    app.get('/u/:id?', (req, res) => res.json({ id: req.params.id ?? null, listed: 'id' in req.params }));
    await request(app).get('/u').expect('{"id":null,"listed":true}');
    await request(app).get('/u/5').expect('{"id":"5","listed":true}');
  });

  test('a parameter with its own pattern', async () => {
    const app = appV4();
    app.get('/n/:id(\\d+)', (req, res) => res.json(req.params));
    await request(app).get('/n/12').expect('{"id":"12"}');
    await request(app).get('/n/ab').expect(404);
  });

  test('* is an unnamed wildcard in req.params[0], also mixed with named ones', async () => {
    const app = appV4();
    app.get('/star/*', (req, res) => res.json(req.params));
    app.get('/r/*/x/:a', (req, res) => res.json(req.params));
    app.get('*', (req, res) => res.json(req.params));
    await request(app).get('/star/a/b').expect('{"0":"a/b"}');
    await request(app).get('/r/a/b/x/1').expect('{"0":"a/b","a":"1"}');
    await request(app).get('/anything/else').expect('{"0":"/anything/else"}');
  });

  test('format parameters like /:name.:ext', async () => {
    const app = appV4();
    app.get('/f/:name.:ext', (req, res) => res.json(req.params));
    await request(app).get('/f/report.pdf').expect('{"name":"report","ext":"pdf"}');
  });

  test('req.params is an ordinary object; regular expressions capture by index', async () => {
    const app = appV4();
    app.get('/p/:a', (req, res) => res.send(String(Object.getPrototypeOf(req.params) === Object.prototype)));
    app.get(/^\/re\/(\d+)$/, (req, res) => res.json(req.params));
    await request(app).get('/p/x').expect('true');
    await request(app).get('/re/7').expect('{"0":"7"}');
  });

  test('malformed percent-encoding answers 400', async () => {
    const app = appV4();
    app.get('/p/:a', (req, res) => res.send(req.params.a));
    await request(app).get('/p/%E0%A4%A').expect(400);
  });
});

describe('v4 defaults and deprecated forms', () => {
  test('the query parser is extended by default', async () => {
    const app = appV4();
    app.get('/', (req, res) => res.json(req.query));
    await request(app).get('/?a[b]=1&c[]=2').expect('{"a":{"b":"1"},"c":["2"]}');
  });

  test('unhandled OPTIONS lists methods in route order, comma-joined, as HTML', async () => {
    const app = appV4();
    app.get('/o', (_req, res) => res.send('get'));
    app.post('/o', (_req, res) => res.send('post'));
    app.put('/o', (_req, res) => res.send('put'));
    const res = await request(app).options('/o').expect(200, 'GET,HEAD,POST,PUT');
    assert.equal(res.headers.allow, 'GET,HEAD,POST,PUT');
    assert.equal(res.headers['content-type'], 'text/html; charset=utf-8');
  });

  test('a route method without handlers adds a route that never answers, as in Express 4; v5 refuses it', async () => {
    const app = appV4();
    app.post('/later');
    app.route('/later').get();
    trestleV4.Router().put('/later');
    app.post('/other', (_req, res) => res.send('other'));
    await request(app).post('/later').expect(404);
    await request(app).get('/later').expect(404);
    await request(app).post('/other').expect(200, 'other');
    const v5Route = trestle().route('/x');
    assert.throws(() => Reflect.apply(v5Route.get, v5Route, []), { name: 'TypeError', message: 'argument handler is required' });
  });

  test('trestle.query() parses the query string with qs where nothing has, and leaves an app\'s req.query as it is', async () => {
    const parse = trestleV4.query();
    const bare = (req: http.IncomingMessage & { query?: unknown }, res: http.ServerResponse) => parse(req, res, () => res.end(JSON.stringify(req.query)));
    await request(bare).get('/p?a[b]=1&list=x&list=y#frag').expect('{"a":{"b":"1"},"list":["x","y"]}');
    const custom = trestleV4.query((str) => ({ raw: str }));
    await request((req: http.IncomingMessage & { query?: unknown }, res: http.ServerResponse) => custom(req, res, () => res.end(JSON.stringify(req.query))))
      .get('/p?x=1')
      .expect('{"raw":"x=1"}');
    const app = appV4();
    app.set('query parser', 'simple');
    app.use(trestleV4.query());
    app.get('/q', (req, res) => res.json(req.query));
    await request(app).get('/q?a[b]=1').expect('{"a[b]":"1"}');
  });

  test('trestle.static.mime is the mime 1.x table; define() reaches the static server', async () => {
    const { mime } = trestleV4.static;
    assert.equal(mime.lookup('page.html'), 'text/html');
    assert.equal(mime.lookup('file.nothing-known'), 'application/octet-stream');
    assert.equal(mime.lookup('file.nothing-known', 'text/plain'), 'text/plain');
    assert.equal(mime.extension('text/html; charset=utf-8'), 'html');
    assert.equal(mime.charsets.lookup('application/json'), 'UTF-8');
    assert.equal(mime.charsets.lookup('image/png', 'none'), 'none');
    const dir = mkdtempSync(join(tmpdir(), 'trestle-mime-'));
    try {
      writeFileSync(join(dir, 'note.trestlenote'), 'hello');
      mime.define({ 'text/x-trestle-note': ['trestlenote'] });
      assert.equal(mime.lookup('note.trestlenote'), 'text/x-trestle-note');
      assert.equal(mime.extensions['text/x-trestle-note'], 'trestlenote');
      const app = appV4();
      app.use(trestleV4.static(dir));
      const res = await request(app).get('/note.trestlenote').expect(200, 'hello');
      assert.match(res.headers['content-type'] ?? '', /^text\/x-trestle-note/);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
    assert.equal('mime' in trestle.static, false);
  });

  test("app.router throws the migration message, as Express 4's does", () => {
    assert.throws(() => appV4().router, /'app.router' is deprecated!/);
  });

  test('app.del routes DELETE, with a deprecation warning on stderr', async () => {
    const app = appV4();
    app.del('/d', (_req, res) => res.send('deleted'));
    await request(app).delete('/d').expect('deleted');
  });

  test('router.param(fn) redefines param(), with a deprecation warning', async () => {
    const app = appV4();
    app.param(((name: string, pattern: unknown) => {
      if (!(pattern instanceof RegExp)) return undefined;
      return (req: trestle.Request, _res: trestle.Response, next: trestle.NextFunction, value: unknown) => {
        if (pattern.test(String(value))) next();
        else next('route');
      };
    }) as unknown as string, undefined as never);
    app.param('id', /^\d+$/ as never);
    app.get('/item/:id', (req, res) => res.send(`item ${req.params.id}`));
    // A value a trigger skipped stays skipped for every route with that parameter, as in Express 4.
    app.get('/item/:id', (_req, res) => res.send('never: same value, same outcome'));
    app.get('/item/*', (_req, res) => res.send('not a number'));
    await request(app).get('/item/42').expect('item 42');
    await request(app).get('/item/abc').expect('not a number');
  });

  test('deprecation warnings go to stderr once per call site and --no-deprecation silences them', () => {
    const script = `
      const t = require('trestle/v4');
      const app = t();
      for (let i = 0; i < 3; i++) app.del('/x' + i, (req, res) => res.end());
      app.param(function (name, fn) { return fn; });
    `;
    const loud = spawnSync(process.execPath, ['-e', script], { encoding: 'utf8' });
    assert.equal(loud.status, 0);
    assert.equal(loud.stderr.match(/trestle deprecated app\.del: Use app\.delete instead/g)?.length, 1);
    assert.match(loud.stderr, /trestle deprecated router\.param\(fn\): Refactor to use path params/);
    const quiet = spawnSync(process.execPath, ['--no-deprecation', '-e', script], { encoding: 'utf8' });
    assert.equal(quiet.status, 0);
    assert.equal(quiet.stderr, '');
  });
});
