// trestle/legacy against Express 3.21, detail by detail: req.acceptedEncodings,
// the Express 3 forms apps use every day, the bundled middleware served by
// the packages that replaced it, and what the conformance suite listed as
// gaps (the 404 page, "/u/", MD5 ETags, an unencoded Location, status()),
// files typed as send 0.13 typed them, and the warnings Express 3 printed.
// Expectations checked against express@3 black-box, and each test runs on
// express@3 too: see twin.ts; where trestle differs, `differs` says why.
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe } from 'node:test';
import request from 'supertest';
import type trestleLegacy from 'trestle/legacy';
import { deprecations } from './helpers';
import { EXPRESS3_NO_304 } from './express-on-this-node';
import { type Family, twinTest } from './twin';

type Loose = Record<string, (...args: unknown[]) => unknown> & Record<string, unknown>;
/** The legacy entry with Express 3's loose members (bundled middleware). */
const loose = (x: Family) => x.legacy as unknown as Loose & (() => ReturnType<typeof trestleLegacy>);

describe('req.acceptedEncodings', () => {
  twinTest('the Accept-Encoding entries as written; [] without the header', async (x) => {
    const app = x.legacy();
    app.get('/', (req, res) => res.json((req as unknown as { acceptedEncodings: string[] }).acceptedEncodings));
    await request(app).get('/').set('Accept-Encoding', '').expect(200, []);
    await request(app).get('/').set('Accept-Encoding', 'gzip;q=0.5, br , deflate').expect(200, ['gzip;q=0.5', 'br', 'deflate']);
  });
});

describe('the Express 3 forms', () => {
  function formsApp(x: Family) {
    const app = x.legacy() as unknown as Loose;
    app.set!('env', 'production');
    (app.configure as (env: string, fn: (this: Loose) => void) => void)('production', function () {
      this.set!('configured', 'production');
    });
    (app.configure as (env: string, fn: (this: Loose) => void) => void)('development', function () {
      this.set!('configured', 'development');
    });
    app.use!(loose(x).bodyParser!());
    app.use!(app.router);
    (app.locals as (o: object) => void)({ title: 'T' });
    const get = (path: string, fn: (req: Loose, res: Loose) => unknown) => app.get!(path, fn);
    get('/send', (_req, res) => res.send!(201, 'made'));
    get('/json', (_req, res) => res.json!(202, { a: 1 }));
    get('/redirect', (_req, res) => res.redirect!(301, '/there'));
    get('/param/:id', (req, res) => res.send!([req.param!('id'), req.param!('q'), req.param!('none', 'dflt')].join(',')));
    app.post!('/param/:id', (req: Loose, res: Loose) => res.send!([req.param!('id'), req.param!('b')].join(',')));
    get('/locals', (_req, res) => {
      (res.locals as (o: object) => void)({ a: 1 });
      const routes = app.routes as unknown as Record<string, Array<{ path: string }>>;
      res.json!({ a: (res.locals as unknown as Loose).a, title: (app.locals as unknown as Loose).title, configured: app.get!('configured'), verbs: Object.keys(routes), first: routes.get![0]!.path });
    });
    return app as unknown as ReturnType<typeof trestleLegacy>;
  }

  twinTest('res.send(status, body), res.json(status, obj), res.redirect(status, url)', async (x) => {
    const app = formsApp(x);
    await request(app).get('/send').expect(201, 'made');
    await request(app).get('/json').expect(202, { a: 1 });
    await request(app).get('/redirect').expect(301).expect('Location', '/there');
  });

  twinTest('req.param reads the route, then the body, then the query', async (x) => {
    const app = formsApp(x);
    await request(app).get('/param/7?q=2').expect(200, '7,2,dflt');
    await request(app).post('/param/8').type('form').send('b=4&id=9').expect(200, '8,4');
  });

  twinTest('app.locals and res.locals as functions, app.configure, app.routes, the router middleware', async (x) => {
    const res = await request(formsApp(x)).get('/locals').expect(200);
    assert.deepEqual(res.body, { a: 1, title: 'T', configured: 'production', verbs: ['get', 'post'], first: '/send' });
  });
});

describe('the bundled middleware', () => {
  twinTest('served by the packages that replaced it', async (x) => {
    const legacy = loose(x);
    const app = x.legacy() as unknown as Loose;
    app.use!(legacy.bodyParser!());
    app.use!(legacy.cookieParser!('secret'));
    app.use!(legacy.session!({ secret: 'k' }));
    app.use!(legacy.methodOverride!());
    app.use!(legacy.compress!());
    app.use!(legacy.basicAuth!('user', 'pass'));
    app.use!(app.router);
    app.use!(legacy.errorHandler!());
    app.get!('/session', (req: Loose, res: Loose) => {
      const session = req.session as unknown as Record<string, number>;
      session.n = (session.n ?? 0) + 1;
      res.send!(`${session.n} ${JSON.stringify(req.cookies)}`);
    });
    app.put!('/put', (req: Loose, res: Loose) => res.send!(`put ${JSON.stringify(req.body)}`));
    app.get!('/boom', () => {
      throw new Error('boom');
    });
    const server = app as unknown as ReturnType<typeof trestleLegacy>;
    const first = await request(server).get('/session').auth('user', 'pass').set('Cookie', 'a=1').expect(200, '1 {"a":"1"}');
    const sid = (first.headers['set-cookie'] as unknown as string[])[0]!.split(';')[0]!;
    await request(server).get('/session').auth('user', 'pass').set('Cookie', sid).expect(200, /^2 /);
    await request(server).post('/put').auth('user', 'pass').type('form').send('_method=PUT&x=1').expect(200, 'put {"x":"1"}');
    await request(server).post('/put').auth('user', 'pass').set('X-HTTP-Method-Override', 'PUT').expect(200, 'put {}');
    await request(server).get('/session').expect(401);
    const boom = await request(server).get('/boom').auth('user', 'pass').set('Accept', 'application/json').expect(500);
    assert.equal(boom.body.error.message, 'boom');
    assert.equal(typeof (legacy.session as unknown as Loose).MemoryStore, 'function');
    assert.equal(typeof legacy.csrf!(), 'function');
    assert.equal(typeof legacy.favicon!(`${__dirname}/fixtures/response/name.txt`), 'function');
  });

  twinTest(
    'without the package, a clear error at the call naming it',
    () => {
    // A process whose app (here: its working directory) has no node_modules.
    const cwd = mkdtempSync(`${tmpdir()}/trestle-no-deps-`);
    const script = `
      const trestle = require(${JSON.stringify(require.resolve('trestle/legacy'))});
      try { trestle.session({ secret: 'k' }); console.log('no error'); }
      catch (err) { console.log(err.code + ' ' + err.message); }`;
    const out = spawnSync(process.execPath, ['-e', script], { cwd, encoding: 'utf8', timeout: 20_000 });
    assert.equal(out.stdout.trim(), 'TRESTLE_ERR_MIDDLEWARE_NOT_INSTALLED trestle.session() is served by the "express-session" package, which Express 3\'s session became: install it (npm install express-session)');
    },
    {
      why: 'Express 3 bundled the middleware (connect 2); trestle/legacy loads the package that replaced it',
      real: (x) => assert.equal(typeof loose(x).session!({ secret: 'k' }), 'function'),
    },
  );
});

describe('what the conformance suite listed as gaps', () => {
  function gapsApp(x: Family) {
    const app = x.legacy();
    app.set('env', 'production');
    app.get('/u/', (_req, res) => res.send('u'));
    app.get('/hello', (_req, res) => res.send('hello'));
    app.get('/loc', (_req, res) => res.location('/a b/ü?x=<y>').end());
    app.get('/status', (_req, res) => res.status('abc' as unknown as number).end('x'));
    return app;
  }

  twinTest('the 404 page is the message alone, without Content-Security-Policy', async (x) => {
    const res = await request(gapsApp(x)).get('/nope?a=1&b=2').expect(404, 'Cannot GET /nope?a=1&amp;b=2\n');
    assert.equal(res.headers['content-security-policy'], undefined);
    assert.equal(res.headers['x-content-type-options'], 'nosniff');
  });

  twinTest('a route "/u/" does not match "/u"', async (x) => {
    await request(gapsApp(x)).get('/u/').expect(200, 'u');
    await request(gapsApp(x)).get('/u').expect(404);
  });

  twinTest('MD5 ETags, and a 304 for them', async (x) => {
    const app = gapsApp(x);
    const res = await request(app).get('/hello').expect(200, 'hello');
    assert.equal(res.headers.etag, 'W/"5-XUFAKrxLKna5cZ2REBfFkg"');
    await request(app).get('/hello').set('If-None-Match', 'W/"5-XUFAKrxLKna5cZ2REBfFkg"').expect(304);
  }, EXPRESS3_NO_304);

  twinTest('res.location() sets the URL as given', async (x) => {
    const res = await request(gapsApp(x)).get('/loc').expect(200);
    assert.equal(res.headers.location, '/a b/ü?x=<y>');
  });

  twinTest(
    'res.status() does not check the code; the request fails with a 500, the process lives',
    async (x) => {
      const app = gapsApp(x);
      await request(app).get('/status').expect(500);
      await request(app).get('/hello').expect(200, 'hello');
    },
    {
      // That Express 3's process then dies is asserted by the conformance suite (EXPRESS_DIES).
      why: 'Express 3 did not check the code either, but node threw from its final handler and the process died',
      real: async (x) => {
        const app = x.legacy();
        app.get('/', (_req, res) => {
          const kept = res.status('abc' as unknown as number).statusCode as unknown;
          res.status(200).end(String(kept));
        });
        await request(app).get('/').expect(200, 'abc');
      },
    },
  );
});

describe('routes whose path ends in "/"', () => {
  // Express 3 compiled a route by appending "/?" to the path as written
  // (nothing with strict routing): "/" serves "//" and "/a/" serves "/a//".
  function slashApp(x: Family, strict: boolean) {
    const app = x.legacy();
    if (strict) app.enable('strict routing');
    for (const path of ['/', '/a/', '/a']) app.get(path, (_req, res) => res.send(`route ${path}`));
    return app;
  }

  twinTest('app.routes records carry Express 3\'s regexp', (x) => {
    const sources = (strict: boolean) => {
      const app = slashApp(x, strict) as unknown as { routes: { get: Array<{ path: string; regexp: RegExp }> } };
      return app.routes.get.map((r) => [r.path, r.regexp.source, r.regexp.flags]);
    };
    assert.deepEqual(sources(false), [
      ['/', '^\\/\\/?$', 'i'],
      ['/a/', '^\\/a\\/\\/?$', 'i'],
      ['/a', '^\\/a\\/?$', 'i'],
    ]);
    assert.deepEqual(sources(true), [
      ['/', '^\\/$', 'i'],
      ['/a/', '^\\/a\\/$', 'i'],
      ['/a', '^\\/a$', 'i'],
    ]);
  });

  twinTest('matching follows them, with strict routing off and on', async (x) => {
    const answers = async (strict: boolean) => {
      const app = slashApp(x, strict);
      const out: string[] = [];
      for (const path of ['/', '//', '/a/', '/a//', '/a']) {
        const res = await request(app).get(path);
        out.push(`${path} ${res.status}${res.status === 200 ? ` ${res.text}` : ''}`);
      }
      return out;
    };
    assert.deepEqual(await answers(false), ['/ 200 route /', '// 200 route /', '/a/ 200 route /a/', '/a// 200 route /a/', '/a 200 route /a']);
    assert.deepEqual(await answers(true), ['/ 200 route /', '// 404', '/a/ 200 route /a/', '/a// 404', '/a 200 route /a']);
  });
});

describe('files as Express 3 typed them (send 0.13: a charset for text/* alone)', () => {
  const dir = mkdtempSync(join(tmpdir(), 'trestle-legacy-files-'));
  for (const [name, body] of Object.entries({ 'a.txt': 'hello', 'a.html': '<p>hi</p>', 'a.json': '{"a":1}', 'a.js': 'var a', 'a.bin': 'x' })) {
    writeFileSync(join(dir, name), body);
  }
  const types: Array<[string, string]> = [
    ['a.txt', 'text/plain; charset=UTF-8'],
    ['a.html', 'text/html; charset=UTF-8'],
    ['a.json', 'application/json'],
    ['a.js', 'application/javascript'],
    ['a.bin', 'application/octet-stream'],
  ];

  function filesApp(fw: Family['legacy']) {
    const app = fw() as unknown as Loose;
    app.use!('/s', fw.static(dir));
    app.get!('/f/:name', (req: Loose, res: Loose) => res.sendfile!(join(dir, (req.params as unknown as Record<string, string>).name!)));
    app.get!('/d/:name', (req: Loose, res: Loose) => res.download!(join(dir, (req.params as unknown as Record<string, string>).name!)));
    app.get!('/typed', (_req: Loose, res: Loose) => {
      res.type!('text');
      res.sendfile!(join(dir, 'a.json'));
    });
    return app as unknown as Parameters<typeof request>[0];
  }

  twinTest('res.sendfile, res.download and static', async (x) => {
    const app = filesApp(x.legacy);
    for (const [name, type] of types) {
      for (const prefix of ['/f/', '/d/', '/s/']) {
        const res = await request(app).get(prefix + name).expect(200);
        assert.equal(res.headers['content-type'], type, `${prefix}${name}`);
      }
    }
  });

  twinTest('a type the app set stays as it is', async (x) => {
    const res = await request(filesApp(x.legacy)).get('/typed').expect(200);
    assert.equal(res.headers['content-type'], 'text/plain');
  });

  twinTest('v4 (send 0.19) gives JSON and JavaScript a charset too', async (x) => {
    const app = filesApp(x.v4 as unknown as Family['legacy']);
    for (const prefix of ['/f/', '/d/', '/s/']) {
      assert.equal((await request(app).get(`${prefix}a.json`).expect(200)).headers['content-type'], 'application/json; charset=UTF-8');
    }
  });
});

describe('the deprecation warnings Express 3 printed', () => {
  twinTest("res.json and res.jsonp with a number second, in Express 3.21's words; res.redirect(url, status)", async (x) => {
    const warnings = await deprecations(async () => {
      const app = x.legacy() as unknown as Loose;
      app.get!('/j', (_req: Loose, res: Loose) => res.json!({ a: 1 }, 201));
      app.get!('/jn', (_req: Loose, res: Loose) => res.json!(5, 202));
      app.get!('/p', (_req: Loose, res: Loose) => res.jsonp!({ a: 1 }, 203));
      app.get!('/pn', (_req: Loose, res: Loose) => res.jsonp!(5, 204));
      app.get!('/r', (_req: Loose, res: Loose) => res.redirect!('/x', 301));
      const server = app as unknown as Parameters<typeof request>[0];
      await request(server).get('/j').expect(201, { a: 1 });
      await request(server).get('/jn').expect(202, '5');
      await request(server).get('/p').expect(203, { a: 1 });
      await request(server).get('/pn').expect(204);
      await request(server).get('/r').expect(301).expect('Location', '/x');
    });
    // Express 3.21 swapped the two texts: "(num, status)" is what an object body hears.
    assert.deepEqual(warnings, [
      'res.json(num, status): Use res.status(status).json(num) instead',
      'res.json(obj, status): Use res.json(status, obj) instead',
      'res.jsonp(num, status): Use res.status(status).jsonp(num) instead',
      'res.jsonp(obj, status): Use res.jsonp(status, obj) instead',
      'res.redirect(url, status): Use res.redirect(status, url) instead',
    ]);
  });

  twinTest('the forms Express 3 documented stay silent', async (x) => {
    const warnings = await deprecations(async () => {
      const app = x.legacy() as unknown as Loose;
      app.get!('/j', (_req: Loose, res: Loose) => res.json!(201, { a: 1 }));
      app.get!('/s', (_req: Loose, res: Loose) => res.send!('x', 202));
      app.get!('/n', (_req: Loose, res: Loose) => res.send!(404));
      app.get!('/r', (_req: Loose, res: Loose) => res.redirect!(301, '/x'));
      const server = app as unknown as Parameters<typeof request>[0];
      await request(server).get('/j').expect(201, { a: 1 });
      await request(server).get('/s').expect(202, 'x');
      await request(server).get('/n').expect(404);
      await request(server).get('/r').expect(301);
    });
    assert.deepEqual(warnings, []);
  });
});
