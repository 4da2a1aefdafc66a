// trestle (v5) against Express 5, detail by detail: settings named like
// Object.prototype members, sub-app settings, AsyncLocalStorage through the
// built-in callbacks, verify errors, Transfer-Encoding, app.locals and the
// extended query parser. Expectations checked against express@5 black-box,
// and each test runs on express@5 (and @4, @3 where it names them) too: see
// twin.ts; where trestle differs on purpose, `differs` says why.
import assert from 'node:assert/strict';
import { AsyncLocalStorage } from 'node:async_hooks';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe } from 'node:test';
import request from 'supertest';
import type trestle from 'trestle';
import { rawRequest, serve } from './helpers';
import { type Family, twinTest } from './twin';


const PROTO_NAMES = ['hasOwnProperty', 'constructor', 'toString', 'valueOf', '__proto__', 'isPrototypeOf'];

describe('settings named like Object.prototype members', () => {
  twinTest('are unset until set, and set, enabled and disabled like any other', async (x) => {
    const app = x.v5();
    app.get('/', (_req, res) => {
      const before = PROTO_NAMES.map((n) => [n, app.get(n) === undefined, app.enabled(n), app.disabled(n)]);
      app.set('constructor', 'x');
      app.enable('toString');
      app.disable('valueOf');
      app.set('__proto__', 'p');
      res.json({ before, after: [app.get('constructor'), app.enabled('toString'), app.disabled('valueOf'), app.get('__proto__')] });
    });
    const res = await request(app).get('/').expect(200);
    assert.deepEqual(res.body, {
      before: PROTO_NAMES.map((n) => [n, true, false, true]),
      after: ['x', true, true, 'p'],
    });
  });
});

describe('sub-app settings, as Express inherits them', () => {
  /** A parent that changed every default, and two children: one untouched, one that set trust proxy. */
  function mounted(x: Family) {
    const app = x.v5();
    app.set('env', 'production');
    app.disable('x-powered-by');
    app.disable('etag');
    app.set('query parser', 'extended');
    app.set('subdomain offset', 3);
    app.set('jsonp callback name', 'cb');
    app.set('views', '/parent/views');
    app.set('trust proxy', true);
    app.set('custom', 'parent');
    app.set('json spaces', 1);
    app.set('view engine', 'ejs');
    const sub = x.v5();
    const own = x.v5();
    own.set('trust proxy', false);
    for (const child of [sub, own]) {
      child.get('/', (req, res) => {
        res.json({
          env: child.get('env'),
          etag: child.get('etag'),
          qp: child.get('query parser'),
          query: req.query,
          so: child.get('subdomain offset'),
          cb: child.get('jsonp callback name'),
          views: child.get('views') === '/parent/views',
          custom: child.get('custom'),
          spaces: child.get('json spaces'),
          engine: child.get('view engine'),
          ip: req.ip,
        });
      });
    }
    app.use('/sub', sub);
    app.use('/own', own);
    return app;
  }

  twinTest('a mounted app keeps its own defaults and inherits the rest', async (x) => {
    const res = await request(mounted(x)).get('/sub?a[b]=1').set('X-Forwarded-For', '1.2.3.4').expect(200);
    assert.equal(res.headers['x-powered-by'], x.poweredBy);
    assert.match(String(res.headers.etag), /^W\//);
    assert.equal(res.text.split('\n').length > 1, true, 'json spaces 1 inherited');
    assert.deepEqual(JSON.parse(res.text), {
      env: process.env.NODE_ENV || 'development',
      etag: 'weak',
      qp: 'simple',
      query: { 'a[b]': '1' },
      so: 2,
      cb: 'callback',
      views: false,
      custom: 'parent',
      spaces: 1,
      engine: 'ejs',
      ip: '1.2.3.4',
    });
  });

  twinTest('trust proxy is inherited only by a child that did not set it', async (x) => {
    const res = await request(mounted(x)).get('/own').set('X-Forwarded-For', '1.2.3.4').expect(200);
    assert.equal(JSON.parse(res.text).ip, '127.0.0.1');
  });
});

describe('AsyncLocalStorage survives the built-in callbacks', () => {
  const dir = mkdtempSync(join(tmpdir(), 'trestle-als-'));
  writeFileSync(join(dir, 'page.tpl'), 'page');
  writeFileSync(join(dir, 'file.txt'), 'file');

  function alsApp(fw: typeof trestle, seen: (store: string | undefined) => void = () => undefined) {
    const als = new AsyncLocalStorage<string>();
    const app = fw();
    app.set('env', 'production');
    const verify = (req: { headers: Record<string, unknown> }) => {
      if (req.headers['x-fail'] !== undefined) throw new Error('refused');
    };
    app.use((req, _res, next) => als.run(req.url, next));
    app.use(fw.json({ verify }), fw.urlencoded({ extended: false }), fw.text(), fw.raw());
    app.use((err: Error, _req: trestle.Request, res: trestle.Response, _next: trestle.NextFunction) => {
      res.status(418).send(`error ${String(als.getStore())} ${err.message}`);
    });
    app.post(/.*/, (_req, res) => res.send(`store ${String(als.getStore())}`));
    app.engine('tpl', (_path, _options, callback) => setImmediate(() => callback(null, 'rendered')));
    app.set('views', dir);
    app.get('/render', (_req, res) => res.render('page.tpl', (_err: Error | null, html?: string) => res.send(`${String(html)} ${String(als.getStore())}`)));
    app.get('/file', (_req, res) => res.sendFile(join(dir, 'file.txt'), () => seen(als.getStore())));
    app.get('/missing', (_req, res) => res.sendFile(join(dir, 'nope.txt'), (err) => res.status(404).end(`${(err as NodeJS.ErrnoException).code} ${String(als.getStore())}`)));
    app.get('/download', (_req, res) => res.download(join(dir, 'nope.txt'), (err) => res.status(404).end(`${(err as NodeJS.ErrnoException).code} ${String(als.getStore())}`)));
    return app;
  }

  for (const name of ['v5', 'v4'] as const) {
    twinTest(`after json, urlencoded, raw and text, parsed or refused (${name})`, async (x) => {
      const app = alsApp(x[name] as typeof trestle);
      await request(app).post('/j').type('json').send('{"a":1}').expect(200, 'store /j');
      await request(app).post('/u').type('form').send('a=1').expect(200, 'store /u');
      await request(app).post('/t').type('text').send('hi').expect(200, 'store /t');
      await request(app).post('/r').type('application/octet-stream').send(Buffer.from('hi')).expect(200, 'store /r');
      await request(app).post('/bad').type('json').send('{"a":').expect(418, /^error \/bad /);
      await request(app).post('/verify').type('json').set('X-Fail', '1').send('{"a":1}').expect(418, 'error /verify refused');
    });
  }

  twinTest('in the callbacks of res.render, res.sendFile and res.download', async (x) => {
    let seenStore!: (store: string | undefined) => void;
    const seen = new Promise<string | undefined>((resolve) => (seenStore = resolve));
    const app = alsApp(x.v5, seenStore);
    await request(app).get('/render').expect(200, 'rendered /render');
    await request(app).get('/file').expect(200, 'file');
    assert.equal(await seen, '/file');
    await request(app).get('/missing').expect(404, 'ENOENT /missing');
    await request(app).get('/download').expect(404, 'ENOENT /download');
  });
});

describe('verify errors', () => {
  twinTest('keep their own status and type; others are 403 entity.verify.failed', async (x) => {
    const app = x.v5();
    app.use(
      x.v5.json({
        verify(req) {
          if (req.headers['x-own'] !== undefined) throw Object.assign(new Error('mine'), { status: 401, type: 'my.type' });
          throw new Error('plain');
        },
      }),
    );
    app.use((err: Error & { status: number; type: string }, _req: trestle.Request, res: trestle.Response, _next: trestle.NextFunction) => {
      res.status(err.status).json({ type: err.type, message: err.message });
    });
    await request(app).post('/').set('X-Own', '1').type('json').send('{}').expect(401, { type: 'my.type', message: 'mine' });
    await request(app).post('/').type('json').send('{}').expect(403, { type: 'entity.verify.failed', message: 'plain' });
  });
});

describe('res.send with a Transfer-Encoding the app set', () => {
  for (const coding of ['chunked', 'gzip, chunked']) {
    twinTest(`adds no Content-Length (${coding}): the answer parses`, async (x) => {
      const app = x.v5();
      app.get('/', (_req, res) => {
        res.set('Transfer-Encoding', coding);
        res.send('hello');
      });
      const served = await serve(app);
      try {
        const res = await rawRequest(served.port, 'GET', '/');
        assert.equal(res.status, 200);
        assert.equal(res.headers['content-length'], undefined);
        assert.equal(res.headers['transfer-encoding'], coding);
        if (coding === 'chunked') assert.equal(res.body, 'hello');
      } finally {
        await served.close();
      }
    });
  }
});

describe('app.locals', () => {
  const functionLocals = 'README: app.locals is a function object (the spec), where Express 5 has a plain object';

  twinTest(
    'stores variables named like function properties, which reach templates; unset ones read as the function',
    async (x) => {
      const app = x.v5();
      const locals = app.locals as Record<string, unknown>;
      assert.equal(locals.name, 'locals');
      assert.equal(locals.length, 1);
      locals.name = 'My App';
      app.locals({ length: 3 });
      app.engine('tpl', (_path, options, callback) => callback(null, `${String((options as Record<string, unknown>).name)} ${String((options as Record<string, unknown>).length)}`));
      const dir = mkdtempSync(join(tmpdir(), 'trestle-locals-'));
      writeFileSync(join(dir, 'page.tpl'), '');
      app.set('views', dir);
      app.get('/', (_req, res) => res.render('page.tpl'));
      await request(app).get('/').expect(200, 'My App 3');
      assert.deepEqual(Object.keys(app.locals), ['settings', 'name', 'length']);
    },
    functionLocals,
  );

  twinTest(
    'is a function, so JSON.stringify(app.locals) is undefined and an object holding it drops it',
    (x) => {
      const app = x.v5();
      app.locals.title = 'T';
      assert.equal(typeof app.locals, 'function');
      assert.equal(JSON.stringify(app.locals), undefined);
      assert.equal(JSON.stringify({ locals: app.locals }), '{}');
      assert.equal((JSON.parse(JSON.stringify({ ...app.locals })) as { title: string }).title, 'T');
    },
    {
      why: functionLocals,
      // Express 5: a plain object, serialised with its settings.
      real: (x) => {
        const app = x.v5();
        app.locals.title = 'T';
        assert.equal(typeof app.locals, 'object');
        const json = JSON.parse(JSON.stringify(app.locals)) as { title: string; settings: Record<string, unknown> };
        assert.equal(json.title, 'T');
        assert.equal(json.settings['x-powered-by'], true);
      },
    },
  );
});

describe('the extended query parser', () => {
  const ids = Array.from({ length: 25 }, (_, i) => `ids=${i}`).join('&');
  async function query(fw: typeof trestle): Promise<unknown> {
    const app = fw();
    app.set('query parser', 'extended');
    app.get('/', (req, res) => res.json(req.query));
    return (await request(app).get(`/?${ids}`).expect(200)).body;
  }
  const asArray = { ids: Array.from({ length: 25 }, (_, i) => String(i)) };
  for (const name of ['v5', 'v4', 'legacy'] as const) {
    twinTest(
      `turns 25 repeated keys into an array (${name})`,
      async (x) => assert.deepEqual(await query(x[name] as typeof trestle), asArray),
      name !== 'v5'
        ? undefined
        : {
            // Express 4.22 passes arrayLimit 1000 to qs, Express 5.3 passes none, and qs 6.17
            // (what express@5 installs today) keeps only 20 repeated keys as an array.
            why: 'README: arrayLimit 1000 for every generation; Express 5.3 makes an object of 21 or more',
            real: async (x) => assert.deepEqual(await query(x.v5), { ids: Object.fromEntries(asArray.ids.map((v) => [v, v])) }),
          },
    );
  }
});
