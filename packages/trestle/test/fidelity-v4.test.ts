// trestle/v4 against Express 4.22, detail by detail: files as send 0.19 and
// mime 1.x send them, Content-Disposition as content-disposition 0.5 writes
// it, the deprecated forms of status/json/jsonp/vary/clearCookie/sendfile,
// body-parser 1.x on a stream already read, use() wording, req.query and
// trestle.query(), trestle.static.mime, the dotfiles default, app.listen
// and app.engines (with v5 and legacy where they differ). Expectations
// checked against express@4 (and @5, @3) black-box, and each test runs on
// the real packages too: see twin.ts; where trestle differs, `differs` says why.
import assert from 'node:assert/strict';
import { AsyncLocalStorage } from 'node:async_hooks';
import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, relative } from 'node:path';
import { describe } from 'node:test';
import request from 'supertest';
import type trestle from 'trestle';
import { deprecations, rawRequest, serve } from './helpers';
import { type Family, twinTest } from './twin';

const dir = mkdtempSync(join(tmpdir(), 'trestle-v4-'));
for (const [name, body] of Object.entries({ 'a.js': 'x', 'm.mjs': 'm', 't.txt': 't', 'j.json': '{}', 'p.html': '<p>' })) {
  writeFileSync(join(dir, name), body);
}
mkdirSync(join(dir, 'sub'));
writeFileSync(join(dir, 'sub', 'index.html'), 'index');

type Loose = Record<string, (...args: unknown[]) => unknown>;

describe('files as Express 4 sends them (send 0.19, mime 1.x)', () => {
  const types: Array<[string, string]> = [
    ['a.js', 'application/javascript; charset=UTF-8'],
    ['m.mjs', 'application/javascript; charset=UTF-8'],
    ['t.txt', 'text/plain; charset=UTF-8'],
    ['j.json', 'application/json; charset=UTF-8'],
    ['p.html', 'text/html; charset=UTF-8'],
  ];

  twinTest('static, sendFile and download: types and charsets', async (x) => {
    const app = x.v4();
    app.use('/s', x.v4.static(dir));
    app.get('/f/:name', (req, res) => res.sendFile(join(dir, req.params.name!)));
    app.get('/d/:name', (req, res) => res.download(join(dir, req.params.name!)));
    for (const [name, type] of types) {
      for (const prefix of ['/s/', '/f/', '/d/']) {
        const res = await request(app).get(prefix + name).expect(200);
        assert.equal(res.headers['content-type'], type, `${prefix}${name}`);
      }
    }
  });

  twinTest('sendFile tags the file even with the etag setting off, as Express 4 left it to send', async (x) => {
    const app = x.v4();
    app.disable('etag');
    app.get('/', (_req, res) => res.sendFile(join(dir, 't.txt')));
    const res = await request(app).get('/').expect(200, 't');
    assert.match(String(res.headers.etag), /^W\/"1-/);
    const v5 = x.v5();
    v5.disable('etag');
    v5.get('/', (_req, res) => res.sendFile(join(dir, 't.txt')));
    assert.equal((await request(v5).get('/').expect(200)).headers.etag, undefined);
  });

  twinTest('the directory redirect page', async (x) => {
    const app = x.v4();
    app.use('/s', x.v4.static(dir));
    const res = await request(app).get('/s/sub?x=1').expect(301);
    assert.equal(res.headers.location, '/s/sub/?x=1');
    assert.equal(res.headers['content-security-policy'], "default-src 'none'");
    assert.equal(res.headers['content-type'], 'text/html; charset=UTF-8');
    assert.match(res.text, /<pre>Redirecting to \/s\/sub\/\?x=1<\/pre>/);
  });

  twinTest("res.type('file.js') and res.type('js') as mime 1.x maps them", async (x) => {
    const app = x.v4();
    app.get('/', (req, res) => res.type(String(req.query.t)).end());
    const js = await request(app).get('/?t=file.js');
    assert.equal(js.headers['content-type'], 'application/javascript; charset=utf-8');
    const bare = await request(app).get('/?t=js');
    assert.equal(bare.headers['content-type'], 'application/javascript; charset=utf-8');
    const v5 = x.v5();
    v5.get('/', (_req, res) => res.type('file.js').end());
    assert.equal((await request(v5).get('/')).headers['content-type'], 'text/javascript; charset=utf-8');
  });

  twinTest("res.set('Content-Type', x) keeps x as written, adding mime 1.x's charset (a real app, apimocker, sets 'foobar')", async (x) => {
    const cases: Array<[string, string]> = [
      ['foobar', 'foobar'],
      ['json', 'json'],
      ['text/html', 'text/html; charset=utf-8'],
      ['application/json', 'application/json; charset=utf-8'],
      ['application/javascript', 'application/javascript; charset=utf-8'],
      ['application/xml', 'application/xml'],
      ['image/png', 'image/png'],
      ['text/plain; charset=latin1', 'text/plain; charset=latin1'],
    ];
    // The body is '{}' so that supertest, which parses what it reads as JSON, reads it whatever the type.
    const app = x.v4();
    app.get('/', (req, res) => res.set('Content-Type', String(req.query.t)).send(Buffer.from('{}')));
    app.get('/object', (req, res) => res.set({ 'Content-Type': String(req.query.t) }).send(Buffer.from('{}')));
    app.get('/header', (req, res) => res.header('Content-Type', String(req.query.t)).send(Buffer.from('{}')));
    for (const [type, sent] of cases) {
      for (const path of ['/', '/object', '/header']) {
        const res = await request(app).get(path).query({ t: type }).expect(200);
        assert.equal(res.headers['content-type'], sent, `${path} ${type}`);
      }
    }
    // v5 looks a bare word up as an extension: 'foobar' is unknown, so the type counts as unset.
    const v5 = x.v5();
    v5.get('/', (_req, res) => res.set('Content-Type', 'foobar').send(Buffer.from('{}')));
    assert.equal((await request(v5).get('/')).headers['content-type'], 'application/octet-stream');
  });

  twinTest('trestle.static.mime is mime 1.x', (x) => {
    const mime = (x.v4.static as unknown as { mime: { lookup(p: string): string } }).mime;
    assert.equal(mime.lookup('x.js'), 'application/javascript');
  });

});

describe('req.query and trestle.query()', () => {
  const queryOf = (x: Family) => (x.v4 as unknown as { query(o?: object): (...a: unknown[]) => void }).query;

  function queryApp(x: Family, setup: (app: ReturnType<typeof x.v4>) => void) {
    const app = x.v4();
    setup(app);
    app.get('/', (req, res) => res.json(req.query));
    return app;
  }

  twinTest('with `query parser fn` deleted or unset, req.query parses as extended (Express 4 fell back to qs)', async (x) => {
    const deleted = queryApp(x, (app) => delete app.settings['query parser fn']);
    await request(deleted).get('/?a[b]=1&c=2&c=3').expect(200, { a: { b: '1' }, c: ['2', '3'] });
    const unset = queryApp(x, (app) => app.set('query parser fn', undefined));
    await request(unset).get('/?a[b]=1').expect(200, { a: { b: '1' } });
    // Express 5 reads no parser as no query.
    const v5 = x.v5();
    delete v5.settings['query parser fn'];
    v5.get('/', (req, res) => res.json(req.query));
    await request(v5).get('/?a[b]=1').expect(200, {});
  });

  twinTest("with `query parser` off, req.query is {} and query() leaves it so, as after Express 4's own query layer", async (x) => {
    const off = queryApp(x, (app) => {
      app.set('query parser', false);
      app.use(queryOf(x)() as never);
    });
    await request(off).get('/?a[b]=1').expect(200, {});
  });

  twinTest('query() parses with qs for a request no app prepared', async (x) => {
    const router = x.v4.Router();
    router.use(queryOf(x)() as never);
    router.get('/', (req, res) => {
      res.setHeader('Content-Type', 'application/json');
      res.end(JSON.stringify(req.query));
    });
    const served = await serve((req, res) => router(req as never, res as never, () => res.end('next')));
    try {
      const res = await rawRequest(served.port, 'GET', '/?a[b]=1');
      assert.deepEqual(JSON.parse(res.body), { a: { b: '1' } });
    } finally {
      await served.close();
    }
  });
});

describe('Content-Disposition as content-disposition 0.5 writes it', () => {
  twinTest('attachment and download quote the name; a header in options.headers is ignored', async (x) => {
    const app = x.v4();
    app.get('/att', (_req, res) => res.attachment('a.js').end());
    app.get('/dl', (_req, res) => res.download(join(dir, 'a.js'), 'other.txt', { headers: { 'content-disposition': 'inline', 'X-A': 'b' } }));
    app.get('/dl-default', (_req, res) => res.download(join(dir, 't.txt')));
    const att = await request(app).get('/att').expect(200);
    assert.equal(att.headers['content-disposition'], 'attachment; filename="a.js"');
    const dl = await request(app).get('/dl').expect(200, 'x');
    assert.equal(dl.headers['content-disposition'], 'attachment; filename="other.txt"');
    assert.equal(dl.headers['x-a'], 'b');
    const plain = await request(app).get('/dl-default').expect(200);
    assert.equal(plain.headers['content-disposition'], 'attachment; filename="t.txt"');
  });
});

describe('redirect bodies', () => {
  twinTest('HTML is one escaped paragraph, text a sentence, no DOCTYPE', async (x) => {
    const app = x.v4();
    app.get('/', (_req, res) => res.redirect('/a?x=<y>'));
    const html = await request(app).get('/').set('Accept', 'text/html').expect(302);
    assert.equal(html.text, '<p>Found. Redirecting to /a?x=%3Cy%3E</p>');
    const text = await request(app).get('/').set('Accept', 'text/plain').expect(302);
    assert.equal(text.text, 'Found. Redirecting to /a?x=%3Cy%3E');
  });
});

describe('the deprecated forms Express 4 accepts', () => {
  twinTest("res.status('410') and res.status(410.1) set the status", async (x) => {
    const app = x.v4();
    app.get('/s', (_req, res) => res.status('410' as unknown as number).end('gone'));
    app.get('/f', (_req, res) => res.status(410.1).end('gone'));
    await request(app).get('/s').expect(410, 'gone');
    await request(app).get('/f').expect(410, 'gone');
  });

  twinTest('res.json(obj, status) and res.jsonp(obj, status) set the status', async (x) => {
    const app = x.v4();
    app.get('/j', (_req, res) => (res as unknown as Loose).json!({ a: 1 }, 201));
    app.get('/p', (_req, res) => (res as unknown as Loose).jsonp!({ a: 1 }, 202));
    await request(app).get('/j').expect(201, { a: 1 });
    await request(app).get('/p?callback=f').expect(202, /f\(\{"a":1\}\)/);
  });

  twinTest('res.json(200, 201) and res.jsonp(200, 201): a number second is the status, as Express 4 reads it', async (x) => {
    const warnings = await deprecations(async () => {
      const app = x.v4();
      app.get('/j', (_req, res) => (res as unknown as Loose).json!(200, 201));
      app.get('/p', (_req, res) => (res as unknown as Loose).jsonp!(200, 201));
      app.get('/s', (_req, res) => (res as unknown as Loose).send!(200, 201));
      await request(app).get('/j').expect(201, '200');
      await request(app).get('/p?callback=f').expect(201, /f\(200\);$/);
      // send() reads a number first as the status.
      await request(app).get('/s').expect(200, '201');
    });
    assert.deepEqual(warnings, [
      'res.json(obj, status): Use res.status(status).json(obj) instead',
      'res.jsonp(obj, status): Use res.status(status).jsonp(obj) instead',
      'res.send(status, body): Use res.status(status).send(body) instead',
    ]);
  });

  twinTest('res.vary() with no field does nothing', async (x) => {
    const app = x.v4();
    app.get('/', (_req, res) => {
      (res as unknown as Loose).vary!();
      res.end('ok');
    });
    const res = await request(app).get('/').expect(200, 'ok');
    assert.equal(res.headers.vary, undefined);
  });

  twinTest('res.clearCookie(name, options): expires and maxAge given win', async (x) => {
    const app = x.v4();
    app.get('/', (_req, res) => {
      res.clearCookie('a', { expires: new Date(Date.UTC(2030, 0, 1)), path: '/x' });
      res.clearCookie('b', { maxAge: 1000 });
      res.clearCookie('c');
      res.end();
    });
    const res = await request(app).get('/').expect(200);
    const cookies = res.headers['set-cookie'] as unknown as string[];
    assert.equal(cookies[0], 'a=; Path=/x; Expires=Tue, 01 Jan 2030 00:00:00 GMT');
    assert.match(cookies[1]!, /^b=; Max-Age=1; Path=\/; Expires=/);
    assert.doesNotMatch(cookies[1]!, /1970/);
    assert.equal(cookies[2], 'c=; Path=/; Expires=Thu, 01 Jan 1970 00:00:00 GMT');
  });
});

describe('res.sendfile, lower case', () => {
  // Relative to the working directory, as apps call it; inside it, since "../" is refused.
  const fixtures = join(__dirname, 'fixtures', 'response');
  const rel = relative(process.cwd(), fixtures);

  function sendfileApp(x: Family, seen: Array<[unknown, boolean]> = []) {
    const als = new AsyncLocalStorage<string>();
    const app = x.v4();
    app.use((req, _res, next) => als.run(req.url, next));
    app.get('/plain', (req, res) => (res as unknown as Loose).sendfile!(String(req.query.p)));
    app.get('/root', (req, res) => (res as unknown as Loose).sendfile!(String(req.query.p), { root: fixtures }));
    app.get('/cb', (req, res) =>
      (res as unknown as Loose).sendfile!(String(req.query.p), (err: { status?: number } | undefined) => {
        seen.push([err?.status, res.headersSent]);
        res.status(err?.status ?? 200).end(`cb ${String(err?.status)} ${String(als.getStore())}`);
      }),
    );
    return app;
  }

  twinTest('options.headers are set on the answer', async (x) => {
    const app = x.v4();
    app.get('/', (_req, res) => (res as unknown as Loose).sendfile!(`${rel}/name.txt`, { headers: { 'X-A': 'b', 'Cache-Control': 'no-store' } }));
    const res = await request(app).get('/').expect(200, 'tobi');
    assert.equal(res.headers['x-a'], 'b');
    assert.equal(res.headers['cache-control'], 'no-store');
  });

  twinTest('relative paths, URL-encoded names, a directory index', async (x) => {
    const app = sendfileApp(x);
    await request(app).get(`/plain?p=${encodeURIComponent(`${rel}/name.txt`)}`).expect(200, 'tobi');
    await request(app).get(`/plain?p=${encodeURIComponent(`${rel}/with%20space.txt`)}`).expect(200, 'space');
    await request(app).get(`/plain?p=${encodeURIComponent(`${rel}/sub/`)}`).expect(200, 'index');
    await request(app).get(`/root?p=name.txt`).expect(200, 'tobi');
  });

  twinTest('../ is refused with 403 without root; the callback hears it before headers, in the request context', async (x) => {
    const seen: Array<[unknown, boolean]> = [];
    const app = sendfileApp(x, seen);
    await request(app).get(`/plain?p=${encodeURIComponent(`${rel}/../response/name.txt`)}`).expect(403);
    await request(app).get(`/cb?p=${encodeURIComponent(`${rel}/../response/name.txt`)}`).expect(403, /^cb 403 \/cb/);
    await request(app).get(`/root?p=${encodeURIComponent('../response/name.txt')}`).expect(403);
    assert.deepEqual(seen, [[403, false]]);
  });
});

describe('body parsers on a stream already read', () => {
  twinTest('500 stream.not.readable, as body-parser 1.x', async (x) => {
    const app = x.v4();
    app.post(
      '/',
      (req, _res, next) => {
        req.on('data', () => undefined);
        req.on('end', () => next());
      },
      x.v4.json(),
      (req, res) => res.json(req.body),
    );
    app.use((err: Error & { type?: string; status?: number }, _req: trestle.Request, res: trestle.Response, _next: trestle.NextFunction) => {
      res.status(err.status ?? 500).json({ type: err.type, message: err.message });
    });
    await request(app).post('/').type('json').send('{"a":1}').expect(500, { type: 'stream.not.readable', message: 'stream is not readable' });
  });

  twinTest('a body one parser read is skipped by the next', async (x) => {
    const app = x.v4();
    app.post('/', x.v4.json(), x.v4.json(), (req, res) => res.json(req.body));
    await request(app).post('/').type('json').send('{"a":1}').expect(200, { a: 1 });
  });
});

describe('use() without a middleware function', () => {
  twinTest("throws in Express 4's words", (x) => {
    const app = x.v4();
    assert.throws(() => app.use('/u', 1 as never), { name: 'TypeError', message: 'Router.use() requires a middleware function but got a number' });
    assert.throws(() => app.use('/u', null as never), { message: 'Router.use() requires a middleware function but got a Null' });
    assert.throws(() => app.use('/u', {} as never), { message: 'Router.use() requires a middleware function but got a Object' });
    assert.throws(() => x.v4.Router().use({} as never), { message: 'Router.use() requires a middleware function' });
    assert.throws(() => x.v5.Router().use({} as never), { message: 'argument handler is required' });
  });
});

describe("dotfiles: Express 4's default", () => {
  // send 0.19 without a `dotfiles` option ignores a file whose own name
  // starts with a dot and serves files inside a dot-directory; Express 5's
  // static, sendFile and download ignore both.
  const root = mkdtempSync(join(tmpdir(), 'trestle-dot-'));
  mkdirSync(join(root, '.well-known', 'acme-challenge'), { recursive: true });
  writeFileSync(join(root, '.well-known', 'acme-challenge', 'x.txt'), 'token');
  writeFileSync(join(root, '.env'), 'secret');
  const paths = ['/.well-known/acme-challenge/x.txt', '/.env'];

  function dotApp(fw: Family['v4'] | Family['v5'], wildcard: string) {
    const app = (fw as Family['v4'])();
    app.use('/s', fw.static(root));
    app.use('/i', fw.static(root, { dotfiles: 'ignore' }));
    // v4's `*` is req.params[0]; v5's `*p` is req.params.p, a list of segments.
    const file = (req: trestle.Request) => {
      const params = req.params as unknown as Record<string, unknown>;
      return Array.isArray(params.p) ? params.p.join('/') : String(params[0]);
    };
    app.get(`/f/${wildcard}`, (req, res) => res.sendFile(file(req as never), { root }));
    app.get(`/d/${wildcard}`, (req, res) => res.download(file(req as never), { root }));
    app.use((_req, res) => res.status(404).send('none'));
    app.use((_err: unknown, _req: trestle.Request, res: trestle.Response, _next: trestle.NextFunction) => res.status(404).send('none'));
    return app;
  }

  async function answers(app: ReturnType<Family['v4']>): Promise<string[]> {
    const out: string[] = [];
    for (const prefix of ['/s', '/i', '/f', '/d']) {
      for (const path of paths) out.push(`${prefix}${path} ${(await request(app).get(prefix + path)).text}`);
    }
    return out;
  }

  twinTest("v4: a dot-directory's files are served, a dotfile is not; dotfiles: 'ignore' refuses both", async (x) => {
    assert.deepEqual(await answers(dotApp(x.v4, '*')), [
      '/s/.well-known/acme-challenge/x.txt token',
      '/s/.env none',
      '/i/.well-known/acme-challenge/x.txt none',
      '/i/.env none',
      '/f/.well-known/acme-challenge/x.txt token',
      '/f/.env none',
      '/d/.well-known/acme-challenge/x.txt token',
      '/d/.env none',
    ]);
  });

  twinTest('legacy static serves as Express 3 did; v5 refuses both', async (x) => {
    const legacy = x.legacy();
    legacy.use(x.legacy.static(root));
    await request(legacy).get('/.well-known/acme-challenge/x.txt').expect(200, 'token');
    await request(legacy).get('/.env').expect(404);
    const v5 = await answers(dotApp(x.v5, '*p') as never);
    assert.deepEqual(v5.filter((line) => !line.endsWith(' none')), []);
  });
});

describe('app.listen per generation', () => {
  // Express 5 hands a listen error to the callback (then the server's
  // `error` event); Express 4 and 3 return node's listen, whose callback
  // runs only once listening, and leave the error to the `error` event.
  const generations = [
    ['v5', true],
    ['v4', false],
    ['legacy', false],
  ] as const;

  for (const [name, callbackHearsError] of generations) {
    twinTest(`${name}: the callback runs on the server once it listens; EADDRINUSE ${callbackHearsError ? 'reaches the callback and' : 'is only'} the 'error' event`, async (x) => {
      const fw = x[name] as unknown as Family['v5'];
      const first = fw();
      const server = await new Promise<import('node:http').Server>((resolve) => {
        const s = first.listen(0, '127.0.0.1', function (this: unknown) {
          assert.equal(this, s);
          assert.equal(s.listening, true);
          resolve(s);
        });
      });
      try {
        const { port } = server.address() as import('node:net').AddressInfo;
        const heard: string[] = [];
        const busy = fw().listen(port, '127.0.0.1', (err?: NodeJS.ErrnoException) => heard.push(`callback ${err?.code}`));
        await new Promise<void>((resolve) => busy.once('error', (err: NodeJS.ErrnoException) => {
          heard.push(`error ${err.code}`);
          resolve();
        }));
        assert.deepEqual(heard, callbackHearsError ? ['callback EADDRINUSE', 'error EADDRINUSE'] : ['error EADDRINUSE']);
      } finally {
        await new Promise((resolve) => server.close(resolve));
      }
    });
  }
});

describe('app.engines', () => {
  twinTest('an ordinary object in v4 and legacy, as Express 4 and 3 made it; null-prototype in v5, as Express 5', (x) => {
    assert.equal(Object.getPrototypeOf(x.v4().engines), Object.prototype);
    assert.equal(Object.getPrototypeOf(x.legacy().engines), Object.prototype);
    assert.equal(Object.getPrototypeOf(x.v5().engines), null);
    const app = x.v4();
    app.engine('html', () => undefined);
    assert.deepEqual(Object.keys(app.engines), ['.html']);
    // A mounted app's engines still fall back to its parent's.
    const sub = x.v4();
    app.use('/sub', sub);
    assert.equal(Object.getPrototypeOf(sub.engines), app.engines);
  });
});
