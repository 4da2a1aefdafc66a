// The same app over HTTP/2 (cleartext h2c and TLS with ALPN), on each of the
// three entries: one case list, run per entry and per mode, against an app
// built once per entry with every route the cases ask.
import assert from 'node:assert/strict';
import { readFile, statSync } from 'node:fs';
import { join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import trestle from 'trestle';
import trestleLegacy from 'trestle/legacy';
import trestleV4 from 'trestle/v4';
import { type H2Served, modes, serveH2 } from './http2-helpers';

type Generation = 'v5' | 'v4' | 'legacy';
type App = trestle.Application;
type Loose = Record<string, unknown>;

interface Entry {
  name: string;
  generation: Generation;
  make(): App;
  router(): App;
  /** The entry's own way of answering 201 with a body. */
  created(res: trestle.Response, body: string): void;
}

const entries: Entry[] = [
  { name: 'trestle', generation: 'v5', make: () => trestle(), router: () => trestle.Router() as unknown as App, created: (res, body) => res.status(201).send(body) },
  {
    name: 'trestle/v4',
    generation: 'v4',
    make: () => trestleV4() as unknown as App,
    router: () => trestleV4.Router() as unknown as App,
    created: (res, body) => (res.send as unknown as (s: number, b: string) => void)(201, body),
  },
  {
    name: 'trestle/legacy',
    generation: 'legacy',
    make: () => trestleLegacy() as unknown as App,
    router: () => trestleLegacy.Router() as unknown as App,
    created: (res, body) => (res.json as unknown as (b: string, s: number) => void)(body, 201),
  },
];

const PUBLIC = join(__dirname, 'fixtures', 'static', 'public');
const DIGITS = join(PUBLIC, 'digits.txt');
const VIEWS = join(__dirname, 'fixtures', 'views', 'main');

function moustache(path: string, options: object, callback: (err: Error | null, html?: string) => void): void {
  readFile(path, 'utf8', (err, text) => {
    if (err) return callback(err);
    callback(null, text.replace(/\{\{(\w+)\}\}/g, (_m, key: string) => String((options as Loose)[key])));
  });
}

/** Everything a request tells about itself, as JSON. */
function describeRequest(req: trestle.Request): Loose {
  return {
    host: req.host,
    hostname: req.hostname,
    getHost: req.get('host'),
    headersHost: req.headers.host,
    protocol: req.protocol,
    secure: req.secure,
    ip: req.ip,
    ips: req.ips,
    path: req.path,
    originalUrl: req.originalUrl,
    baseUrl: req.baseUrl,
    httpVersion: req.httpVersion,
    xhr: req.xhr,
    query: req.query,
    params: req.params,
  };
}

function buildApp(entry: Entry): App {
  const app = entry.make();
  app.set('env', 'production');
  app.set('views', VIEWS);
  app.engine('tmpl', moustache);
  (app.request as unknown as Loose).who = function (this: trestle.Request) {
    return `who:${this.httpVersion}`;
  };
  (app.response as unknown as Loose).reply = function (this: trestle.Response, text: string) {
    return this.type('text').send(`reply:${text}`);
  };

  app.get('/users/:id', (req, res) => res.json(describeRequest(req)));
  app.get('/members', (req, res) => res.send(`${(req as unknown as { who(): string }).who()} ${String((req as unknown as Loose).late)}`));
  app.get('/reply', (_req, res) => (res as unknown as { reply(t: string): void }).reply('x'));
  app.get('/created', (_req, res) => entry.created(res, 'made'));
  app.get('/boom', () => {
    throw new Error('boom');
  });
  app.get('/teapot', (_req, _res, next) => next(Object.assign(new Error('short and stout'), { status: 418 })));
  app.get('/negotiate', (req, res) =>
    res.json({
      accepts: req.accepts('html', 'json') ?? null,
      is: req.is('json') ?? null,
      charsets: req.acceptsCharsets('utf-8'),
      languages: req.acceptsLanguages('fr', 'en'),
      encodings: req.acceptsEncodings('gzip', 'br'),
      range: req.range(100),
    }),
  );

  const router = entry.router();
  router.get('/items/:item', (req, res) => res.json(describeRequest(req)));
  app.use('/api', router);

  const sub = entry.make();
  sub.get('/home', (req, res) => res.json({ sameApp: req.app === sub, mountpath: sub.mountpath, who: (req as unknown as { who(): string }).who(), ...describeRequest(req) }));
  app.use('/admin', sub);

  // A sub-app with members of its own (its requests change prototype on the way in and out).
  const own = entry.make();
  (own.request as unknown as Loose).ownMember = 'own';
  own.get('/x', (req, res) => res.json({ own: (req as unknown as Loose).ownMember, who: (req as unknown as { who(): string }).who(), sameApp: req.app === own }));
  app.use('/own', own);

  const proxied = entry.make();
  proxied.set('trust proxy', true);
  proxied.get('/who', (req, res) => res.json({ ip: req.ip, ips: req.ips, protocol: req.protocol, hostname: req.hostname }));
  app.use('/proxied', proxied);

  app.get('/res/json', (_req, res) => res.status(201).set('X-A', '1').append('X-A', '2').json({ ok: true, a: res.get('X-A') }));
  app.get('/res/jsonp', (_req, res) => res.jsonp({ a: 1 }));
  app.get('/res/cookie', (_req, res) => res.cookie('a', '1', { httpOnly: true }).clearCookie('b').send('ok'));
  app.get('/res/redirect', (_req, res) => res.redirect('/there'));
  app.get('/res/location', (_req, res) => res.location('/elsewhere').sendStatus(204));
  app.get('/res/type', (_req, res) => res.type('txt').send('typed'));
  app.get('/res/format', (_req, res) => res.format({ json: () => res.json({ f: 1 }), html: () => res.send('<b>f</b>') }));
  app.get('/res/vary', (_req, res) => res.vary('Origin').send('varied'));
  app.get('/res/attachment', (_req, res) => res.attachment('report.pdf').send('pdf'));
  app.get('/res/download', (_req, res) => res.download(DIGITS));
  app.get('/res/file', (_req, res) => res.sendFile(DIGITS));
  app.get('/res/status', (_req, res) => res.sendStatus(418));
  app.get('/res/render', (_req, res) => res.render('greet.tmpl', { name: 'h2' }));
  app.get('/res/etag', (_req, res) => res.send('tag me'));
  // The headers trestle stores itself (X-Powered-By, Content-Type) read and removed with node's own methods.
  app.get('/res/header-methods', (_req, res) => {
    res.type('text').setHeader('X-Set', 'set');
    res.setHeader('X-Multi', ['a', 'b']);
    res.removeHeader('X-Powered-By');
    const seen = {
      type: res.getHeader('content-type'),
      has: [res.hasHeader('Content-Type'), res.hasHeader('X-Powered-By'), res.hasHeader('toString')],
      names: res.getHeaderNames().sort(),
      headers: { ...res.getHeaders() },
      inherited: res.getHeader('constructor') ?? null,
    };
    res.send(JSON.stringify(seen));
  });
  if (entry.generation === 'v5') {
    app.get('/async', async () => {
      await Promise.resolve();
      throw Object.assign(new Error('later'), { status: 409 });
    });
  }
  app.use((err: Error & { status?: number }, req: trestle.Request, res: trestle.Response, next: trestle.NextFunction) => {
    if (req.path !== '/teapot' && req.path !== '/async') return next(err);
    res.status(err.status ?? 500).send(`handled: ${err.message}`);
  });
  return app;
}

const SIZE = statSync(DIGITS).size;

// Each mode with the app as the server's listener (adopted: requests are made
// of the app's classes), and h2c with a listener that calls the app (its
// requests switch prototypes on the way in).
const servings = [...modes.map((mode) => ({ mode, wrapped: false })), { mode: 'h2c' as const, wrapped: true }];

for (const entry of entries) {
  for (const { mode, wrapped } of servings) {
    describe(`${entry.name} over ${mode}${wrapped ? ', the app called by a listener of its own' : ''}`, () => {
      let served: H2Served;
      before(async () => {
        served = await serveH2(buildApp(entry), mode, wrapped);
      });
      after(() => served.close());
      const secure = mode === 'h2';

      test('routing, params and query', async () => {
        const res = await served.request('/users/42?sort=asc');
        assert.equal(res.status, 200);
        const body = JSON.parse(res.text) as Loose;
        assert.deepEqual(body.params, { id: '42' });
        assert.deepEqual(body.query, { sort: 'asc' });
        assert.equal(body.path, '/users/42');
        assert.equal(body.originalUrl, '/users/42?sort=asc');
      });

      test('req members from :authority and the TLS socket', async () => {
        const body = JSON.parse((await served.request('/users/1', { headers: { 'x-requested-with': 'XMLHttpRequest' } })).text) as Loose;
        const authority = `127.0.0.1:${served.port}`;
        assert.equal(body.getHost, authority);
        assert.equal(body.headersHost, authority);
        assert.equal(body.hostname, '127.0.0.1');
        assert.equal(body.host, entry.generation === 'v5' ? authority : '127.0.0.1');
        assert.equal(body.protocol, secure ? 'https' : 'http');
        assert.equal(body.secure, secure);
        assert.equal(body.ip, '127.0.0.1');
        assert.deepEqual(body.ips, []);
        assert.equal(body.httpVersion, '2.0');
        assert.equal(body.xhr, true);
      });

      test('a Host header, when the client sends one, is the host', async () => {
        const body = JSON.parse((await served.request('/users/1', { headers: { host: 'example.com:8443' } })).text) as Loose;
        assert.equal(body.hostname, 'example.com');
      });

      test('trust proxy: ip, ips and protocol from X-Forwarded-*', async () => {
        const res = await served.request('/proxied/who', {
          headers: { 'x-forwarded-for': '203.0.113.9, 10.0.0.2', 'x-forwarded-proto': 'https', 'x-forwarded-host': 'shop.example' },
        });
        assert.deepEqual(JSON.parse(res.text), { ip: '203.0.113.9', ips: ['203.0.113.9', '10.0.0.2'], protocol: 'https', hostname: 'shop.example' });
      });

      test('accepts*, is and range', async () => {
        const res = await served.request('/negotiate', {
          headers: {
            accept: 'application/json',
            'content-type': 'application/json',
            'accept-charset': 'utf-8',
            'accept-language': 'en',
            'accept-encoding': 'br',
            range: 'bytes=0-9',
          },
        });
        const body = JSON.parse(res.text) as Loose;
        assert.equal(body.accepts, 'json');
        // A GET without a body is no JSON for req.is (null; legacy's boolean answer: false).
        assert.equal(body.is, entry.generation === 'legacy' ? false : null);
        assert.equal(body.charsets, 'utf-8');
        assert.equal(body.languages, 'en');
        assert.equal(body.encodings, 'br');
        assert.deepEqual(body.range, [{ start: 0, end: 9 }]);
      });

      test('a nested router and sub-apps, with req.app and mount paths', async () => {
        const api = JSON.parse((await served.request('/api/items/7')).text) as Loose;
        assert.deepEqual(api.params, { item: '7' });
        assert.equal(api.baseUrl, '/api');
        assert.equal(api.path, '/items/7');
        const admin = JSON.parse((await served.request('/admin/home?x=1')).text) as Loose;
        assert.equal(admin.sameApp, true);
        assert.equal(admin.mountpath, '/admin');
        assert.equal(admin.who, 'who:2.0', 'the parent app.request members reach the sub-app');
        assert.equal(admin.originalUrl, '/admin/home?x=1');
        assert.equal(admin.protocol, secure ? 'https' : 'http');
        const own = JSON.parse((await served.request('/own/x')).text) as Loose;
        assert.deepEqual(own, { own: 'own', who: 'who:2.0', sameApp: true });
        // After the sub-app, the parent's members are the parent's again.
        assert.equal((await served.request('/members')).text, 'who:2.0 undefined');
      });

      test('404, error pages, next(err) and async errors', async () => {
        const missing = await served.request('/nope');
        assert.equal(missing.status, 404);
        assert.match(missing.text, /Cannot GET \/nope/);
        const boom = await served.request('/boom');
        assert.equal(boom.status, 500);
        assert.match(boom.text, /Internal Server Error/);
        assert.doesNotMatch(boom.text, /boom/);
        const teapot = await served.request('/teapot');
        assert.equal(teapot.status, 418);
        assert.equal(teapot.text, 'handled: short and stout');
        if (entry.generation === 'v5') {
          const later = await served.request('/async');
          assert.equal(later.status, 409);
          assert.equal(later.text, 'handled: later');
        }
      });

      test("the entry's own response forms", async () => {
        const res = await served.request('/created');
        assert.equal(res.status, 201);
        assert.match(res.text, /made/);
      });

      test('members added to app.request and app.response', async () => {
        assert.equal((await served.request('/members')).text, 'who:2.0 undefined');
        const reply = await served.request('/reply');
        assert.equal(reply.text, 'reply:x');
        assert.equal(reply.headers['content-type'], 'text/plain; charset=utf-8');
      });

      test('send, json, status, set/append/get', async () => {
        const res = await served.request('/res/json');
        assert.equal(res.status, 201);
        assert.equal(res.headers['content-type'], 'application/json; charset=utf-8');
        assert.deepEqual(JSON.parse(res.text), { ok: true, a: ['1', '2'] });
        assert.equal(res.headers['x-a'], '1, 2');
        assert.equal(res.headers['x-powered-by'], 'Trestle');
        assert.equal(res.headers['content-length'], String(res.body.length));
      });

      test('jsonp, cookies, type, vary, attachment', async () => {
        const jsonp = await served.request('/res/jsonp?callback=cb');
        assert.equal(jsonp.headers['content-type'], 'text/javascript; charset=utf-8');
        assert.match(jsonp.text, /typeof cb === 'function' && cb\(\{"a":1\}\);/);
        const cookie = await served.request('/res/cookie');
        const cookies = cookie.headers['set-cookie'] as string[];
        assert.equal(cookies.length, 2);
        assert.equal(cookies[0], 'a=1; Path=/; HttpOnly');
        assert.match(cookies[1]!, /^b=; Path=\/; Expires=Thu, 01 Jan 1970 00:00:00 GMT/);
        assert.equal((await served.request('/res/type')).headers['content-type'], 'text/plain; charset=utf-8');
        assert.equal((await served.request('/res/vary')).headers.vary, 'Origin');
        const attachment = await served.request('/res/attachment');
        // Express 4 and 3 (content-disposition 0.5) always quote the file name.
        const disposition = entry.generation === 'v5' ? 'attachment; filename=report.pdf' : 'attachment; filename="report.pdf"';
        assert.equal(attachment.headers['content-disposition'], disposition);
        assert.equal(attachment.headers['content-type'], 'application/pdf; charset=utf-8');
      });

      test('redirect, location, sendStatus, format', async () => {
        const redirect = await served.request('/res/redirect', { headers: { accept: 'text/plain' } });
        assert.equal(redirect.status, 302);
        assert.equal(redirect.headers.location, '/there');
        assert.equal(redirect.text, 'Found. Redirecting to /there');
        const location = await served.request('/res/location');
        assert.equal(location.status, 204);
        assert.equal(location.headers.location, '/elsewhere');
        assert.equal(location.body.length, 0);
        const teapot = await served.request('/res/status');
        assert.equal(teapot.status, 418);
        assert.match(teapot.text, /teapot/i);
        const html = await served.request('/res/format', { headers: { accept: 'text/html' } });
        assert.equal(html.text, '<b>f</b>');
        assert.equal(html.headers.vary, 'Accept');
        const json = await served.request('/res/format', { headers: { accept: 'application/json' } });
        assert.equal(json.text, '{"f":1}');
      });

      test('download, sendFile with a range (206) and conditional GET (304), render', async () => {
        const download = await served.request('/res/download');
        assert.equal(download.headers['content-disposition'], entry.generation === 'v5' ? 'attachment; filename=digits.txt' : 'attachment; filename="digits.txt"');
        assert.equal(download.text, '0123456789'.slice(0, SIZE));
        const range = await served.request('/res/file', { headers: { range: 'bytes=2-4' } });
        assert.equal(range.status, 206);
        assert.equal(range.text, '234');
        assert.equal(range.headers['content-range'], `bytes 2-4/${SIZE}`);
        const whole = await served.request('/res/file');
        assert.equal(whole.status, 200);
        const etag = whole.headers.etag as string;
        assert.ok(etag);
        const again = await served.request('/res/file', { headers: { 'if-none-match': etag } });
        assert.equal(again.status, 304);
        assert.equal(again.body.length, 0);
        const render = await served.request('/res/render');
        assert.equal(render.text.trim(), 'Hello, h2!');
      });

      test('ETags, 304 and HEAD without a body', async () => {
        const first = await served.request('/res/etag');
        const etag = first.headers.etag as string;
        assert.match(etag, /^W\/"/);
        const cached = await served.request('/res/etag', { headers: { 'if-none-match': etag } });
        assert.equal(cached.status, 304);
        assert.equal(cached.body.length, 0);
        const head = await served.request('/res/json', { method: 'HEAD' });
        assert.equal(head.status, 201);
        assert.equal(head.body.length, 0);
        assert.equal(head.headers['content-type'], 'application/json; charset=utf-8');
      });

      test("node's header methods read and remove the headers trestle stored", async () => {
        const res = await served.request('/res/header-methods');
        assert.equal(res.status, 200);
        const seen = JSON.parse(res.text) as { type: string; has: boolean[]; names: string[]; headers: Record<string, unknown>; inherited: unknown };
        // text/plain with utf-8 (Express 3's res.type adds no charset; its send() does).
        assert.match(seen.type, /^text\/plain(; charset=utf-8)?$/i);
        assert.deepEqual(seen.has, [true, false, false]);
        for (const name of ['content-type', 'x-multi', 'x-set']) assert.ok(seen.names.includes(name), name);
        assert.ok(!seen.names.includes('x-powered-by'));
        assert.equal(seen.headers['x-set'], 'set');
        assert.deepEqual(seen.headers['x-multi'], ['a', 'b']);
        assert.equal(seen.headers['content-type'], seen.type);
        assert.equal(seen.inherited, null);
        assert.equal(res.headers['x-set'], 'set');
        assert.equal(res.headers['x-multi'], 'a, b');
        assert.equal(res.headers['x-powered-by'], undefined);
        assert.match(res.headers['content-type'] as string, /^text\/plain; charset=utf-8$/i);
        assert.equal(res.headers['content-length'], String(Buffer.byteLength(res.text)));
      });
    });
  }
}
