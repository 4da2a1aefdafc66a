import assert from 'node:assert/strict';
import { readFile } from 'node:fs';
import { join } from 'node:path';
import { describe, test } from 'node:test';
import request from 'supertest';
import trestle, { type Application, type EngineCallback } from 'trestle';
import { reportErrors, VIEWS } from './response-helpers';

const MAIN = join(VIEWS, 'main');
const EXTRA = join(VIEWS, 'extra');

/** An app with views in fixtures/views/main and app-level locals. */
/** The engine's own ReferenceError message for an undeclared name (its wording is V8's). */
function referenceMessage(name: string): string {
  try {
    (0, eval)(name);
  } catch (err) {
    return (err as ReferenceError).message;
  }
  throw new Error(`${name} is declared`);
}

function viewApp(setup?: (app: Application) => void): Application {
  const app = trestle();
  app.set('views', MAIN);
  app.locals.app = 'A';
  app.locals.shared = 'from app';
  setup?.(app);
  return app;
}

/** A tiny engine: `{{name}}` replaced by the option of that name. */
const moustache: EngineCallback = (path, options, callback) => {
  readFile(path, 'utf8', (err, text) => {
    if (err) return callback(err);
    callback(null, text.replace(/\{\{(\w+)\}\}/g, (_m, key: string) => String((options as Record<string, unknown>)[key])));
  });
};

/** Renders `view` with app.render and reports the error message or the html. */
function renderWith(app: Application, view: string, options: object = {}): Promise<{ err: Error | null; html?: string }> {
  return new Promise((resolve) => app.render(view, options, (err, html) => resolve({ err, html })));
}

describe('res.render with real engines', () => {
  test('ejs: app.locals, then res.locals, then the call’s locals (last wins)', async () => {
    const app = viewApp((a) => a.set('view engine', 'ejs'));
    app.get('/', (_req, res) => {
      res.locals.res = 'R';
      res.locals.shared = 'from res';
      res.render('user', { call: 'C', shared: 'from call' });
    });
    app.get('/res-wins', (_req, res) => {
      res.locals.res = 'R';
      res.locals.shared = 'from res';
      res.render('user', { call: 'C' });
    });
    app.get('/app-only', (_req, res) => res.render('user', { call: 'C', res: '-' }));
    const res = await request(app).get('/').expect(200, '<p>A|R|C|from call</p>\n');
    assert.equal(res.headers['content-type'], 'text/html; charset=utf-8');
    await request(app).get('/res-wins').expect(200, '<p>A|R|C|from res</p>\n');
    await request(app).get('/app-only').expect(200, '<p>A|-|C|from app</p>\n');
  });

  test('pug, by extension, with the same three levels', async () => {
    const app = viewApp((a) => a.set('view engine', 'ejs'));
    app.get('/', (_req, res) => {
      res.locals.res = 'R';
      res.render('user.pug', { call: 'C' });
    });
    await request(app).get('/').expect(200, '<p>A|R|C|from app</p>');
  });

  test('pug layouts (extends) resolve beside the view', async () => {
    const app = viewApp((a) => a.set('view engine', 'pug'));
    app.get('/', (_req, res) => res.render('page', { title: 'T<1>', items: [1, 2] }));
    await request(app)
      .get('/')
      .expect(200, '<!DOCTYPE html><html><head><title>T&lt;1&gt;</title></head><body><h1>T&lt;1&gt;</h1><li>1</li><li>2</li></body></html>');
  });

  test('ejs escapes <%= and not <%-', async () => {
    const app = viewApp((a) => a.set('view engine', 'ejs'));
    app.get('/', (_req, res) => res.render('escape', { html: '<i>&</i>' }));
    await request(app).get('/').expect(200, '&lt;i&gt;&amp;&lt;/i&gt;|<i>&</i>\n');
  });

  test('a directory name renders its index view', async () => {
    const app = viewApp((a) => a.set('view engine', 'ejs'));
    app.get('/', (_req, res) => res.render('users', { users: ['a', '<b>'] }));
    await request(app).get('/').expect(200, '<ul><li>a</li><li>&lt;b&gt;</li></ul>\n');
  });

  test('the settings are a local (app.locals.settings)', async () => {
    const app = viewApp((a) => a.set('view engine', 'ejs').set('env', 'staging'));
    app.get('/', (_req, res) => res.render('settings'));
    await request(app).get('/').expect(200, 'staging|object\n');
  });

  test('HEAD renders and sends the headers only', async () => {
    const app = viewApp((a) => a.set('view engine', 'ejs'));
    app.get('/', (_req, res) => res.render('users', { users: ['a'] }));
    const res = await request(app).head('/').expect(200);
    assert.equal(res.headers['content-length'], String(Buffer.byteLength('<ul><li>a</li></ul>\n')));
    assert.equal(res.text, undefined);
  });

  test('an absolute path and a path relative to the views directory', async () => {
    const app = viewApp((a) => a.set('view engine', 'ejs'));
    app.get('/abs', (_req, res) => res.render(join(MAIN, 'user.ejs'), { call: 1, res: 2 }));
    app.get('/rel', (_req, res) => res.render('../extra/only-extra'));
    await request(app).get('/abs').expect(200, '<p>A|2|1|from app</p>\n');
    await request(app).get('/rel').expect(200, '<p>extra from app</p>\n');
  });

  test('with a callback nothing is sent: the callback gets the html', async () => {
    const app = viewApp((a) => a.set('view engine', 'ejs'));
    app.get('/', (_req, res) => res.render('user', { call: 1, res: 2 }, (err, html) => res.type('txt').send(`got ${String(err)} ${html}`)));
    app.get('/locals-only', (_req, res) => {
      res.locals.res = 'R';
      res.locals.call = 'C';
      res.render('user', (err, html) => res.send(`cb:${err ? err.message : html}`));
    });
    await request(app).get('/').expect(200, 'got null <p>A|2|1|from app</p>\n');
    await request(app).get('/locals-only').expect(200, 'cb:<p>A|R|C|from app</p>\n');
  });
});

describe('views setting: a directory or several', () => {
  test('the first directory that holds the view wins', async () => {
    const app = viewApp((a) => a.set('view engine', 'ejs').set('views', [EXTRA, MAIN]));
    app.get('/shadowed', (_req, res) => res.render('user'));
    app.get('/only-main', (_req, res) => res.render('escape', { html: 'x' }));
    await request(app).get('/shadowed').expect(200, '<p>shadowed</p>\n');
    await request(app).get('/only-main').expect(200, 'x|x\n');
  });

  test('a missing view is an error naming the directories searched', async () => {
    const one = await renderWith(viewApp((a) => a.set('view engine', 'ejs')), 'missing');
    assert.equal(one.err?.message, `Failed to lookup view "missing" in views directory "${MAIN}"`);
    assert.equal((one.err as Error & { view?: { name: string } }).view?.name, 'missing');
    const two = await renderWith(viewApp((a) => a.set('view engine', 'ejs').set('views', [MAIN, EXTRA])), 'missing');
    assert.equal(two.err?.message, `Failed to lookup view "missing" in views directories "${MAIN}" or "${EXTRA}"`);
    const three = await renderWith(viewApp((a) => a.set('view engine', 'ejs').set('views', ['/a', '/b', '/c'])), 'missing');
    assert.equal(three.err?.message, 'Failed to lookup view "missing" in views directories "/a", "/b" or "/c"');
  });

  test('res.render passes a missing view to next(): a 500 page', async () => {
    const app = viewApp((a) => a.set('view engine', 'ejs').set('env', 'production'));
    app.get('/', (_req, res) => res.render('missing'));
    await request(app).get('/').expect(500, /Internal Server Error/);
  });

  test('the default views directory is ./views of the working directory', () => {
    assert.equal(trestle().get('views'), join(process.cwd(), 'views'));
  });
});

describe('engines', () => {
  test('app.engine registers a (path, options, callback) function, with or without the dot', async () => {
    const app = viewApp((a) => a.engine('tmpl', moustache).engine('.html', moustache));
    app.get('/', (_req, res) => res.render('greet.tmpl', { name: '<x>' }));
    app.get('/default', (_req, res) => {
      app.set('view engine', 'tmpl');
      res.render('greet', { name: 'y' });
    });
    await request(app).get('/').expect(200, 'Hello, <x>!\n');
    await request(app).get('/default').expect(200, 'Hello, y!\n');
  });

  test('ejs.renderFile registered for .html', async () => {
    // eslint-disable-next-line @typescript-eslint/no-require-imports
    const ejs = require('ejs') as { renderFile: EngineCallback };
    const app = viewApp((a) => a.engine('html', ejs.renderFile).engine('tmpl', ejs.renderFile));
    app.get('/', (_req, res) => res.render('greet.tmpl', { name: 'n' }));
    await request(app).get('/').expect(200, 'Hello, {{name}}!\n');
  });

  test('app.engine refuses what is not a function', () => {
    assert.throws(() => trestle().engine('x', 'nope' as unknown as EngineCallback), { message: 'callback function required' });
  });

  test('an engine that answers synchronously is still heard asynchronously', async () => {
    const app = viewApp((a) => a.engine('tmpl', (_p, o, cb) => cb(null, `sync ${(o as { name: string }).name}`)));
    let afterCall = false;
    const html = await new Promise<string | undefined>((resolve) => {
      app.render('greet.tmpl', { name: 'n' }, (_err, out) => {
        assert.ok(afterCall, 'callback ran before app.render returned');
        resolve(out);
      });
      afterCall = true;
    });
    assert.equal(html, 'sync n');
  });

  test('an engine error, thrown or called back, reaches next()', async () => {
    const app = viewApp((a) => {
      a.engine('tmpl', () => {
        throw new Error('engine threw');
      });
      a.engine('html', (_p, _o, cb) => cb(new Error('engine failed')));
    });
    app.get('/threw', (_req, res) => res.render('greet.tmpl'));
    app.get('/failed', (_req, res) => res.render('greet.html'));
    app.use(reportErrors);
    // greet.html does not exist: lookup fails before the engine runs.
    assert.match((await request(app).get('/failed').expect(520)).body.message, /^Failed to lookup view "greet.html"/);
    assert.equal((await request(app).get('/threw').expect(520)).body.message, 'engine threw');
    const failing = viewApp((a) => a.engine('tmpl', (_p, _o, cb) => cb(new Error('engine failed'))));
    failing.get('/', (_req, res) => res.render('greet.tmpl'));
    failing.use(reportErrors);
    assert.equal((await request(failing).get('/').expect(520)).body.message, 'engine failed');
  });

  test('a template error (ejs ReferenceError) reaches next()', async () => {
    const app = viewApp((a) => a.set('view engine', 'ejs'));
    app.get('/', (_req, res) => res.render('broken'));
    app.use(reportErrors);
    const res = await request(app).get('/').expect(520);
    assert.equal(res.body.name, 'ReferenceError');
    // ejs adds the template's lines around the engine's own message.
    assert.ok(res.body.message.includes(referenceMessage('notDefined')), res.body.message);
  });

  // As Express 5, 4 and 3: the view's constructor throws these to app.render's caller (a handler's throw reaches next).
  test('no extension and no view engine is an error, thrown', () => {
    assert.throws(() => viewApp().render('user', () => assert.fail('no callback')), { message: 'No default engine was specified and no extension was provided.' });
  });

  test('an extension with no engine installed is a MODULE_NOT_FOUND error, thrown', () => {
    assert.throws(() => viewApp().render('user.nope', () => assert.fail('no callback')), (err: NodeJS.ErrnoException) => err.code === 'MODULE_NOT_FOUND' && /^Cannot find module 'nope'/.test(err.message));
  });

  test('a sub-app inherits its parent’s engines and view engine', async () => {
    const app = viewApp((a) => a.engine('tmpl', moustache).set('view engine', 'tmpl'));
    const sub = trestle();
    sub.set('views', MAIN);
    sub.get('/', (_req, res) => res.render('greet', { name: 'sub' }));
    app.use('/sub', sub);
    await request(app).get('/sub').expect(200, 'Hello, sub!\n');
  });
});

describe('app.render', () => {
  test('with and without options', async () => {
    const app = viewApp((a) => a.set('view engine', 'ejs'));
    assert.deepEqual(await renderWith(app, 'user', { call: 'c', res: 'r' }), { err: null, html: '<p>A|r|c|from app</p>\n' });
    const noOptions = await new Promise<string | undefined>((resolve) => app.render('../extra/only-extra', (_e, html) => resolve(html)));
    assert.equal(noOptions, '<p>extra from app</p>\n');
  });
});

describe('view cache', () => {
  /** A View that counts how often it is built and reports the options it renders with. */
  function countingView() {
    const built: string[] = [];
    class CountingView {
      path: string;
      constructor(
        readonly name: string,
        readonly options: { defaultEngine: string | undefined; root: string | string[] },
      ) {
        built.push(name);
        this.path = `/virtual/${name}`;
      }
      render(options: object, cb: (err: Error | null, html?: string) => void) {
        const o = options as Record<string, unknown>;
        cb(null, `${this.name} cache=${String(o.cache)} x=${String(o.x)}`);
      }
    }
    return { built, CountingView };
  }

  test('on in production: each view is looked up once and engines are told to cache', async () => {
    const { built, CountingView } = countingView();
    const app = viewApp((a) => a.set('env', 'production').set('view', CountingView));
    assert.equal(app.enabled('view cache'), true);
    assert.deepEqual(await renderWith(app, 'page', { x: 1 }), { err: null, html: 'page cache=true x=1' });
    assert.deepEqual(await renderWith(app, 'page', { x: 2 }), { err: null, html: 'page cache=true x=2' });
    assert.deepEqual(built, ['page']);
  });

  test('off in development, unless set; the cache option of one call wins', async () => {
    const { built, CountingView } = countingView();
    const app = viewApp((a) => a.set('env', 'development').set('view', CountingView));
    assert.equal(app.enabled('view cache'), false);
    await renderWith(app, 'page');
    await renderWith(app, 'page');
    assert.deepEqual(built, ['page', 'page']);
    assert.deepEqual(await renderWith(app, 'other', { cache: true }), { err: null, html: 'other cache=true x=undefined' });
    await renderWith(app, 'other', { cache: true });
    assert.deepEqual(built, ['page', 'page', 'other']);
    app.enable('view cache');
    await renderWith(app, 'page');
    await renderWith(app, 'page');
    assert.deepEqual(built, ['page', 'page', 'other', 'page']);
  });

  test('ejs renders the same from its cache', async () => {
    const app = viewApp((a) => a.set('env', 'production').set('view engine', 'ejs'));
    app.get('/', (req, res) => res.render('user', { call: req.query.n, res: 'r' }));
    await request(app).get('/?n=1').expect(200, '<p>A|r|1|from app</p>\n');
    await request(app).get('/?n=2').expect(200, '<p>A|r|2|from app</p>\n');
  });
});

describe("app.set('view', CustomView)", () => {
  test('replaces lookup: the class gets the name, default engine, roots and engines', async () => {
    const seen: unknown[] = [];
    class MemoryView {
      path: string | undefined;
      constructor(
        readonly name: string,
        options: { defaultEngine: string | undefined; root: string | string[]; engines: Record<string, EngineCallback> },
      ) {
        seen.push([name, options.defaultEngine, options.root, Object.keys(options.engines)]);
        this.path = name === 'missing' ? undefined : `memory:${name}`;
      }
      render(options: object, cb: (err: Error | null, html?: string) => void) {
        const o = options as Record<string, unknown>;
        cb(null, `${this.path} ${String(o.app)} ${String(o.res)} ${String(o.call)}`);
      }
    }
    const app = viewApp((a) => a.set('view', MemoryView).set('view engine', 'mem').engine('tmpl', moustache));
    app.get('/', (_req, res) => {
      res.locals.res = 'R';
      res.render('thing', { call: 'C' });
    });
    app.get('/missing', (_req, res) => res.render('missing'));
    app.use(reportErrors);
    await request(app).get('/').expect(200, 'memory:thing A R C');
    assert.deepEqual(seen[0], ['thing', 'mem', MAIN, ['.tmpl']]);
    const res = await request(app).get('/missing').expect(520);
    assert.equal(res.body.message, `Failed to lookup view "missing" in views directory "${MAIN}"`);
  });
});
