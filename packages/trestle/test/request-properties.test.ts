// The routing and data properties of the request (app, res, baseUrl,
// originalUrl, url, path, method, params, route, query, body, cookies, xhr),
// the runtime request underneath, and the per-app request prototype.
import { IncomingMessage } from 'node:http';
import { test } from 'node:test';
import assert from 'node:assert/strict';
import cookieParser from 'cookie-parser';
import { sign } from 'cookie-signature';
import request from 'supertest';
import trestle from 'trestle';
import { rawRequest, serve } from './helpers';


type Req = trestle.Request;

/** The URL-related properties, as the handler saw them. */
function where(req: Req) {
  return { baseUrl: req.baseUrl, originalUrl: req.originalUrl, url: req.url, path: req.path };
}

test('req.app is the app handling the request; a sub-app sees itself, then the parent sees itself again', async () => {
  const app = trestle();
  const sub = trestle();
  const seen: string[] = [];
  app.set('name', 'parent');
  sub.set('name', 'child');
  sub.use((req, _res, next) => {
    seen.push(`sub:${req.app.get('name') as string}:${req.app === sub}`);
    next();
  });
  app.use('/sub', sub);
  app.use((req, res) => {
    seen.push(`after:${req.app.get('name') as string}:${req.app === app}`);
    res.send('done');
  });
  await request(app).get('/sub/x').expect(200, 'done');
  assert.deepEqual(seen, ['sub:child:true', 'after:parent:true']);
});

test('req.res is the response of this request, and res.req the request', async () => {
  const app = trestle();
  app.get('/', (req, res) => {
    res.json([req.res === res, (res as unknown as { req: unknown }).req === req]);
  });
  assert.deepEqual((await request(app).get('/').expect(200)).body, [true, true]);
});

test('req.url, req.path, req.baseUrl and req.originalUrl at the top level', async () => {
  const app = trestle();
  app.get('/a/b', (req, res) => res.json(where(req)));
  const res = await request(app).get('/a/b?x=1&y=2').expect(200);
  assert.deepEqual(res.body, { baseUrl: '', originalUrl: '/a/b?x=1&y=2', url: '/a/b?x=1&y=2', path: '/a/b' });
});

test('mounting strips the mount point from url and path, exposes it in baseUrl, keeps originalUrl', async () => {
  const app = trestle();
  const router = trestle.Router();
  const inner = trestle.Router();
  inner.get('/leaf', (req, res) => res.json(where(req)));
  router.use('/inner', inner);
  router.get('/here', (req, res) => res.json(where(req)));
  app.use('/outer', router);
  assert.deepEqual((await request(app).get('/outer/here?q=1').expect(200)).body, {
    baseUrl: '/outer', originalUrl: '/outer/here?q=1', url: '/here?q=1', path: '/here',
  });
  assert.deepEqual((await request(app).get('/outer/inner/leaf').expect(200)).body, {
    baseUrl: '/outer/inner', originalUrl: '/outer/inner/leaf', url: '/leaf', path: '/leaf',
  });
});

test('req.baseUrl is the matched string for a mount pattern or list', async () => {
  const app = trestle();
  const router = trestle.Router();
  router.get('/', (req, res) => res.json(where(req)));
  app.use(['/greet', '/hello'], router);
  app.use('/:lang/docs', router);
  assert.deepEqual((await request(app).get('/greet').expect(200)).body, {
    baseUrl: '/greet', originalUrl: '/greet', url: '/', path: '/',
  });
  assert.deepEqual((await request(app).get('/hello/?a=b').expect(200)).body, {
    baseUrl: '/hello', originalUrl: '/hello/?a=b', url: '/?a=b', path: '/',
  });
  assert.equal((await request(app).get('/fr/docs').expect(200)).body.baseUrl, '/fr/docs');
});

test('req.url is restored after a mounted router passes the request on', async () => {
  const app = trestle();
  const router = trestle.Router();
  router.use((_req, _res, next) => next());
  app.use('/m', router);
  app.use((req, res) => res.json(where(req)));
  assert.deepEqual((await request(app).get('/m/x?z').expect(200)).body, { baseUrl: '', originalUrl: '/m/x?z', url: '/m/x?z', path: '/m/x' });
});

test('req.method is the HTTP method', async () => {
  const app = trestle();
  app.all('/', (req, res) => {
    res.set('X-Method', req.method ?? '').send(req.method);
  });
  await request(app).get('/').expect(200, 'GET');
  await request(app).post('/').expect(200, 'POST');
  await request(app).delete('/').expect(200, 'DELETE');
  await request(app).patch('/').expect(200, 'PATCH');
  await request(app).head('/').expect('X-Method', 'HEAD').expect(200);
});

test('req.params: decoded named parameters in a null-prototype object for string routes', async () => {
  const app = trestle();
  app.get('/users/:id/files/:name', (req, res) => {
    res.json({ params: req.params, nullProto: Object.getPrototypeOf(req.params) === null });
  });
  const res = await request(app).get('/users/42/files/a%20b%2Fc.txt').expect(200);
  assert.deepEqual(res.body, { params: { id: '42', name: 'a b/c.txt' }, nullProto: true });
});

test('req.params: wildcards are arrays of segments; optional parameters may be absent', async () => {
  const app = trestle();
  app.get('/files/*rest', (req, res) => res.json(req.params));
  app.get('/opt{/:maybe}', (req, res) => res.json({ has: 'maybe' in req.params, value: req.params.maybe ?? null }));
  assert.deepEqual((await request(app).get('/files/a/b%20c/d').expect(200)).body, { rest: ['a', 'b c', 'd'] });
  assert.deepEqual((await request(app).get('/opt').expect(200)).body, { has: false, value: null });
  assert.deepEqual((await request(app).get('/opt/yes').expect(200)).body, { has: true, value: 'yes' });
});

test('req.params: regular-expression routes give numbered and named captures in an ordinary object', async () => {
  const app = trestle();
  app.get(/^\/n\/(\d+)-(\w+)$/, (req, res) => res.json({ params: req.params, proto: Object.getPrototypeOf(req.params) === Object.prototype }));
  app.get(/^\/named\/(?<year>\d{4})$/, (req, res) => res.json(req.params));
  assert.deepEqual((await request(app).get('/n/12-ab').expect(200)).body, { params: { 0: '12', 1: 'ab' }, proto: true });
  assert.deepEqual((await request(app).get('/named/2024').expect(200)).body, { year: '2024' });
});

test('bad percent-encoding in a parameter is a 400, and the server keeps serving', async () => {
  const app = trestle();
  app.set('env', 'production');
  app.get('/p/:v', (req, res) => res.send(req.params.v));
  await request(app).get('/p/%E0%A4%A').expect(400);
  await request(app).get('/p/ok').expect(200, 'ok');
});

test('req.route is the matched route: path, methods and stack', async () => {
  const app = trestle();
  app.get('/things/:id', (req, res) => {
    const route = req.route!;
    res.json({ path: route.path, methods: route.methods, layers: route.stack.length, method: route.stack[0]!.method });
  });
  const res = await request(app).get('/things/1').expect(200);
  assert.deepEqual(res.body, { path: '/things/:id', methods: { get: true }, layers: 1, method: 'get' });
});

test('req.route is undefined in middleware outside any route', async () => {
  const app = trestle();
  app.use((req, res) => res.json({ route: req.route === undefined }));
  assert.deepEqual((await request(app).get('/x').expect(200)).body, { route: true });
});

test('req.query: the default parser is simple (no nesting), repeated keys become arrays', async () => {
  const app = trestle();
  app.get('/', (req, res) => res.json(req.query));
  assert.deepEqual((await request(app).get('/?a[b]=1&c=2&c=3&d=%20x').expect(200)).body, { 'a[b]': '1', c: ['2', '3'], d: ' x' });
  assert.deepEqual((await request(app).get('/').expect(200)).body, {});
});

test('req.query ends at a fragment; a ? after the # starts no query (sent raw: clients drop fragments)', async () => {
  const app = trestle();
  app.set('env', 'production');
  app.get('/q', (req, res) => res.json(req.query));
  const served = await serve(app);
  try {
    const query = async (path: string) => JSON.parse((await rawRequest(served.port, 'GET', path)).body) as unknown;
    assert.deepEqual(await query('/q?b#c'), { b: '' });
    assert.deepEqual(await query('/q?x=1&y=2#frag'), { x: '1', y: '2' });
    assert.deepEqual(await query('/q#frag?x=1'), {});
  } finally {
    await served.close();
  }
});

test('req.query with query parser extended, a function, or disabled ({})', async () => {
  const extended = trestle();
  extended.set('query parser', 'extended');
  extended.get('/', (req, res) => res.json(req.query));
  assert.deepEqual((await request(extended).get('/?a[b]=1&c[]=2&c[]=3').expect(200)).body, { a: { b: '1' }, c: ['2', '3'] });

  const custom = trestle();
  custom.set('query parser', (str: string | null) => ({ raw: str }));
  custom.get('/', (req, res) => res.json(req.query));
  assert.deepEqual((await request(custom).get('/?x=1&y').expect(200)).body, { raw: 'x=1&y' });

  const off = trestle();
  off.set('query parser', false);
  off.get('/', (req, res) => res.json(req.query));
  assert.deepEqual((await request(off).get('/?a=1').expect(200)).body, {});
});

test('req.query does not let the query pollute Object.prototype', async () => {
  const app = trestle();
  app.set('query parser', 'extended');
  app.get('/', (req, res) => res.json({ query: req.query, polluted: ({} as Record<string, unknown>).polluted ?? null }));
  const res = await request(app).get('/?__proto__[polluted]=yes&constructor[prototype][polluted]=yes').expect(200);
  assert.equal(res.body.polluted, null);
});

test('req.query is parsed once: the same object on every read, across mounting (Express 5 parses per read)', async () => {
  const app = trestle();
  const router = trestle.Router();
  let first: unknown;
  app.use((req, _res, next) => {
    first = req.query;
    next();
  });
  router.get('/r', (req, res) => res.json({ same: req.query === first, query: req.query }));
  app.use('/m', router);
  assert.deepEqual((await request(app).get('/m/r?k=v').expect(200)).body, { same: true, query: { k: 'v' } });
});

test('req.query is assignable, e.g. by validation middleware (an Express 5 getter is not)', async () => {
  const app = trestle();
  app.use((req, _res, next) => {
    req.query = { page: Number(req.query.page) } as unknown as typeof req.query;
    next();
  });
  app.get('/', (req, res) => res.json(req.query));
  assert.deepEqual((await request(app).get('/?page=3').expect(200)).body, { page: 3 });
});

test('lazy: the query parser runs only when req.query is read, and once', async () => {
  let calls = 0;
  const app = trestle();
  app.set('query parser', (str: string | null) => {
    calls++;
    return { str };
  });
  app.get('/quiet', (_req, res) => res.send('ok'));
  app.get('/read', (req, res) => res.json([req.query, req.query]));
  await request(app).get('/quiet?a=1').expect(200, 'ok');
  assert.equal(calls, 0);
  await request(app).get('/read?a=1').expect(200);
  assert.equal(calls, 1);
});

test('req.body is undefined until a body parser runs, then what it set', async () => {
  const app = trestle();
  app.post('/none', (req, res) => res.json({ undefined: req.body === undefined, own: Object.hasOwn(req, 'body') }));
  app.post('/parsed', (req, _res, next) => {
    let raw = '';
    req.setEncoding('utf8');
    req.on('data', (chunk: string) => (raw += chunk));
    req.on('end', () => {
      req.body = JSON.parse(raw) as unknown;
      next();
    });
  }, (req, res) => res.json(req.body));
  assert.deepEqual((await request(app).post('/none').send({ a: 1 }).expect(200)).body, { undefined: true, own: false });
  assert.deepEqual((await request(app).post('/parsed').send({ a: 1 }).expect(200)).body, { a: 1 });
});

test('req.cookies and req.signedCookies as filled by cookie-parser, with req.secret', async () => {
  const app = trestle();
  app.use(cookieParser('s3cret'));
  app.get('/', (req, res) => res.json({ cookies: req.cookies, signed: req.signedCookies, secret: req.secret }));
  const good = `s:${sign('tobi', 's3cret')}`;
  const forged = `s:${sign('tobi', 'other')}`;
  const res = await request(app)
    .get('/')
    .set('Cookie', `plain=1; user=${encodeURIComponent(good)}; bad=${encodeURIComponent(forged)}`)
    .expect(200);
  assert.deepEqual(res.body, { cookies: { plain: '1' }, signed: { user: 'tobi', bad: false }, secret: 's3cret' });
  const none = await request(app).get('/').expect(200);
  assert.deepEqual(none.body, { cookies: {}, signed: {}, secret: 's3cret' });
});

test('without cookie-parser req.cookies is not there', async () => {
  const app = trestle();
  app.get('/', (req, res) => res.json({ cookies: req.cookies === undefined, signed: req.signedCookies === undefined }));
  assert.deepEqual((await request(app).get('/').set('Cookie', 'a=1').expect(200)).body, { cookies: true, signed: true });
});

test('req.secret signs res.cookie(name, value, { signed: true }), read back in req.signedCookies', async () => {
  const app = trestle();
  app.use(cookieParser('s3cret'));
  app.get('/set', (_req, res) => {
    res.cookie('user', 'tobi', { signed: true });
    res.end();
  });
  app.get('/get', (req, res) => res.json(req.signedCookies));
  const set = await request(app).get('/set').expect(200);
  const header = (set.headers['set-cookie'] as unknown as string[])[0]!;
  assert.match(header, /^user=s%3Atobi\./);
  const cookie = header.split(';')[0]!;
  assert.deepEqual((await request(app).get('/get').set('Cookie', cookie).expect(200)).body, { user: 'tobi' });
});

test('req.xhr: X-Requested-With is XMLHttpRequest, in any case', async () => {
  const app = trestle();
  app.get('/', (req, res) => res.json(req.xhr));
  assert.equal((await request(app).get('/').set('X-Requested-With', 'XMLHttpRequest').expect(200)).body, true);
  assert.equal((await request(app).get('/').set('X-Requested-With', 'xmlhttprequest').expect(200)).body, true);
  assert.equal((await request(app).get('/').set('X-Requested-With', 'fetch').expect(200)).body, false);
  assert.equal((await request(app).get('/').expect(200)).body, false);
});

test('req keeps every field and method of the runtime request', async () => {
  const app = trestle();
  app.post('/', (req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      res.json({
        instance: req instanceof IncomingMessage,
        httpVersion: req.httpVersion,
        headers: req.headers['x-test'],
        raw: req.rawHeaders.includes('X-Test'),
        socket: typeof req.socket.remoteAddress,
        complete: req.complete,
        methods: [req.setTimeout, req.pipe, req.read, req.destroy].map((fn) => typeof fn),
        body: Buffer.concat(chunks).toString(),
      });
    });
  });
  const res = await request(app).post('/').set('X-Test', 'yes').send('hello').expect(200);
  assert.deepEqual(res.body, {
    instance: true, httpVersion: '1.1', headers: 'yes', raw: true, socket: 'string', complete: true,
    methods: ['function', 'function', 'function', 'function'], body: 'hello',
  });
});

test('app.request is per app: its additions reach its requests and its sub-apps only', async () => {
  const app = trestle();
  const sub = trestle();
  const other = trestle();
  (app.request as unknown as Record<string, unknown>).greeting = 'from app';
  Object.defineProperty(app.request, 'shout', {
    configurable: true,
    get(this: Req) {
      return `${this.method}!`;
    },
  });
  (sub.request as unknown as Record<string, unknown>).own = 'sub only';
  const read = (req: Req) => {
    const r = req as unknown as Record<string, unknown>;
    return { greeting: r.greeting ?? null, shout: r.shout ?? null, own: r.own ?? null };
  };
  sub.get('/', (req, res) => res.json(read(req)));
  app.use('/sub', sub);
  app.get('/', (req, res) => res.json(read(req)));
  other.get('/', (req, res) => res.json(read(req)));
  assert.deepEqual((await request(app).get('/').expect(200)).body, { greeting: 'from app', shout: 'GET!', own: null });
  assert.deepEqual((await request(app).get('/sub').expect(200)).body, { greeting: 'from app', shout: 'GET!', own: 'sub only' });
  assert.deepEqual((await request(other).get('/').expect(200)).body, { greeting: null, shout: null, own: null });
  const framework = trestle.request as unknown as Record<string, unknown>;
  assert.equal(framework.greeting, undefined);
});

test('app.request may override a built-in member for that app only', async () => {
  const app = trestle();
  const plain = trestle();
  Object.defineProperty(app.request, 'ip', { configurable: true, get: () => '203.0.113.99' });
  app.get('/', (req, res) => res.send(req.ip));
  plain.get('/', (req, res) => res.send(req.ip));
  await request(app).get('/').expect(200, '203.0.113.99');
  const res = await request(plain).get('/').expect(200);
  assert.match(res.text, /127\.0\.0\.1$/);
});
