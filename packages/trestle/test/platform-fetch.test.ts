// app.fetch(request) (issue 31): each case is one app and one request, run
// on every generation, answered through app.fetch and by the same app over
// a socket; the two answers must agree (status, headers but Date and the
// connection's own, body). Then what only app.fetch can show: streaming as
// written, a client going away, https URLs, unbound use.
import assert from 'node:assert/strict';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { IncomingMessage, ServerResponse } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, test } from 'node:test';
import compression from 'compression';
import cookieParser from 'cookie-parser';
import cors from 'cors';
import session from 'express-session';
import { rateLimit } from 'express-rate-limit';
import helmet from 'helmet';
import logger from 'logline-http';
import multer from 'multer';
import { Passport } from 'passport';
import { Strategy as LocalStrategy } from 'passport-local';
import trestle from 'trestle';
import trestleLegacy from 'trestle/legacy';
import trestleV4 from 'trestle/v4';
import { rawRequest, serve } from './helpers';
import { within } from './lifecycle-helpers';

type Generation = 'v5' | 'v4' | 'legacy';
const ENTRIES = { v5: trestle, v4: trestleV4, legacy: trestleLegacy } as unknown as Record<Generation, Entry>;
const GENERATIONS: Generation[] = ['v5', 'v4', 'legacy'];
const PUBLIC = join(__dirname, 'fixtures', 'static', 'public');
const VIEWS = join(__dirname, 'fixtures', 'views', 'main');
/** A file of many reads (2 MB): node pipes it, so the Response has to take it chunk by chunk. */
const LARGE = join(mkdtempSync(join(tmpdir(), 'trestle-fetch-')), 'large.txt');
writeFileSync(LARGE, Array.from({ length: 40_000 }, (_, i) => `line ${String(i).padStart(44, '0')}\n`).join(''));

/** What these tests use of an entry, loosely typed: each generation's types differ. */
interface Entry {
  (): LooseApp;
  json(options?: object): Handler;
  urlencoded(options?: object): Handler;
  text(options?: object): Handler;
  static(root: string, options?: object): Handler;
}
type Handler = (...args: never[]) => unknown;
type Req = Record<string, unknown> & { params: Record<string, string>; app: unknown; get(name: string): string | undefined; on(e: string, fn: () => void): void; socket: { remoteAddress?: string } };
type Res = Record<string, (...args: unknown[]) => unknown> & {
  status(code: number): Res;
  send(body?: unknown): Res;
  json(body: unknown): Res;
  set(name: string, value: string): Res;
  write(chunk: string): boolean;
  end(chunk?: string): void;
  on(e: string, fn: () => void): void;
};
type Route = (req: Req, res: Res, next: (err?: unknown) => void) => void;
interface LooseApp {
  (req: never, res: never): void;
  use(...args: unknown[]): LooseApp;
  get(path: string, ...fns: Route[]): LooseApp;
  post(path: string, ...fns: Route[]): LooseApp;
  disable(setting: string): LooseApp;
  set(name: string, value: unknown): LooseApp;
  fetch(request: Request, options?: { remoteAddress?: string }): Promise<Response>;
}

interface Case {
  name: string;
  /** The generations it applies to; default all. */
  only?: Generation[];
  app(t: Entry): LooseApp;
  method?: string;
  path: string;
  headers?: Record<string, string>;
  body?: string;
  /** The status the socket answers with (so that two equal failures cannot pass). */
  status: number;
}

interface Answer {
  status: number;
  headers: Record<string, string | string[]>;
  body: string;
}

/** Headers that belong to the connection (or the clock), not to the app's answer. */
const CONNECTION = new Set(['date', 'connection', 'keep-alive', 'transfer-encoding']);

function fromSocket(status: number, raw: Record<string, string | string[] | undefined>, body: string): Answer {
  const headers: Record<string, string | string[]> = {};
  for (const [k, v] of Object.entries(raw)) if (!CONNECTION.has(k) && v !== undefined) headers[k] = v;
  return { status, headers, body };
}

async function fromFetch(res: Response): Promise<Answer> {
  const headers: Record<string, string | string[]> = {};
  for (const [k, v] of res.headers) if (!CONNECTION.has(k) && k !== 'set-cookie') headers[k] = v;
  const cookies = res.headers.getSetCookie();
  if (cookies.length > 0) headers['set-cookie'] = cookies;
  return { status: res.status, headers, body: await res.text() };
}

/** writeHead with an array: a repeated name, several Set-Cookie. */
const writeHeadArray: Route = (_req, res) => {
  res.writeHead(201, ['X-A', '1', 'X-A', '2', 'Set-Cookie', 'a=1', 'Set-Cookie', 'b=2']);
  res.end('made');
};

const CASES: Case[] = [
  {
    name: 'routing, params and req members',
    app: (t) =>
      t().get('/users/:id', (req, res) => {
        res.json({ id: req.params.id, ip: req.ip, addr: req.socket.remoteAddress, protocol: req.protocol, secure: req.secure, version: req.httpVersion, url: req.originalUrl, host: req.get('host') });
      }),
    path: '/users/42?x=1',
    status: 200,
  },
  {
    name: 'a sub-app mounted on a path',
    app: (t) => {
      const sub = t().get('/:slug', (req, res) => res.json({ slug: req.params.slug, baseUrl: req.baseUrl, url: req.url, original: req.originalUrl }));
      return t().use('/blog', sub);
    },
    path: '/blog/hello',
    status: 200,
  },
  {
    name: 'json body',
    app: (t) => t().use(t.json()).post('/echo', (req, res) => res.json(req.body)),
    method: 'POST',
    path: '/echo',
    status: 200,
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ a: 1, b: [true, null] }),
  },
  {
    name: 'urlencoded body',
    app: (t) => t().use(t.urlencoded({ extended: false })).post('/form', (req, res) => res.json(req.body)),
    method: 'POST',
    path: '/form',
    status: 200,
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
    body: 'a=1&b=two',
  },
  {
    name: 'a body over the limit is a 413',
    app: (t) => {
      const app = t().use(t.text({ limit: 8 })).post('/t', (req, res) => res.send(req.body));
      return app.use(((err: { status: number; type: string }, _req: Req, res: Res, _next: () => void) => res.status(err.status).send(err.type)) as never);
    },
    method: 'POST',
    path: '/t',
    status: 413,
    headers: { 'content-type': 'text/plain' },
    body: 'far more than eight bytes',
  },
  {
    name: 'res.status().send()',
    app: (t) => t().get('/made', (_req, res) => res.status(201).send('made')),
    path: '/made',
    status: 201,
  },
  {
    name: 'res.redirect()',
    app: (t) => t().get('/old', (_req, res) => res.redirect('/new')),
    path: '/old',
    status: 302,
    headers: { accept: 'text/html' },
  },
  {
    name: 'several Set-Cookie headers stay several',
    app: (t) =>
      t().get('/c', (_req, res) => {
        res.cookie('a', '1');
        res.cookie('b', '2', { httpOnly: true });
        res.send('ok');
      }),
    path: '/c',
    status: 200,
  },
  {
    name: 'an error handler',
    app: (t) =>
      t()
        .get('/boom', () => {
          throw new Error('boom');
        })
        .use(((err: Error, _req: Req, res: Res, _next: () => void) => res.status(500).send(`caught ${err.message}`)) as never),
    path: '/boom',
    status: 500,
  },
  {
    name: "the final handler's 404",
    app: (t) => t().get('/here', (_req, res) => res.send('here')),
    path: '/not-here',
    status: 404,
  },
  {
    name: "the final handler's 500",
    app: (t) =>
      t()
        .set('env', 'production')
        .get('/boom', () => {
          throw new Error('boom');
        }),
    path: '/boom',
    status: 500,
  },
  {
    name: 'HEAD: the headers of GET, no body',
    app: (t) => t().get('/h', (_req, res) => res.send('a body')),
    method: 'HEAD',
    path: '/h',
    status: 200,
  },
  {
    name: '204: no body',
    app: (t) => t().get('/n', (_req, res) => res.status(204).send('dropped')),
    path: '/n',
    status: 204,
  },
  {
    name: 'static file',
    app: (t) => t().use(t.static(PUBLIC)),
    path: '/hello.txt',
    status: 200,
  },
  {
    name: 'static file: a range',
    app: (t) => t().use(t.static(PUBLIC)),
    path: '/digits.txt',
    status: 206,
    headers: { range: 'bytes=2-5' },
  },
  {
    name: 'static file: 304 for a fresh copy',
    app: (t) => t().use(t.static(PUBLIC)),
    path: '/hello.txt',
    status: 304,
    headers: { 'if-modified-since': new Date(Date.now() + 86_400_000).toUTCString() },
  },
  {
    name: 'res.sendFile()',
    app: (t) => t().get('/f', (_req, res) => res.sendFile(join(PUBLIC, '4k.txt'))),
    path: '/f',
    status: 200,
  },
  {
    name: 'res.sendFile() of a large file, streamed',
    app: (t) => t().get('/large', (_req, res) => res.sendFile(LARGE)),
    path: '/large',
    status: 200,
  },
  {
    name: 'X-Forwarded-* under trust proxy',
    app: (t) =>
      t()
        .set('trust proxy', true)
        .get('/who', (req, res) => res.json({ ip: req.ip, ips: req.ips, protocol: req.protocol, secure: req.secure, hostname: req.hostname })),
    path: '/who',
    status: 200,
    headers: { 'x-forwarded-for': '203.0.113.9, 10.0.0.2', 'x-forwarded-proto': 'https', 'x-forwarded-host': 'example.com' },
  },
  {
    name: 'res.write() then res.end(): no Content-Length, the chunks in order',
    app: (t) =>
      t().get('/w', (_req, res) => {
        res.set('content-type', 'text/plain');
        res.write('one,');
        res.write('two,');
        res.end('three');
      }),
    path: '/w',
    status: 200,
  },
  {
    name: 'res.download()',
    app: (t) => t().get('/d', (_req, res) => res.download(join(PUBLIC, 'data.csv'), 'report.csv')),
    path: '/d',
    status: 200,
  },
  {
    name: 'res.format()',
    app: (t) =>
      t().get('/f', (_req, res) => {
        res.format({ 'text/plain': () => res.send('text'), 'application/json': () => res.json({ as: 'json' }) });
      }),
    path: '/f',
    headers: { accept: 'application/json' },
    status: 200,
  },
  {
    name: 'res.render() with ejs',
    app: (t) => {
      const app = t().set('views', VIEWS).set('view engine', 'ejs');
      return app.get('/v', (_req, res) => res.render('user', { app: 'a', res: 'r', call: 'c', shared: 's' }));
    },
    path: '/v',
    status: 200,
  },
  // The ecosystem's middleware, unchanged.
  {
    name: 'helmet',
    app: (t) => t().use(helmet() as never).get('/', (_req, res) => res.send('safe')),
    path: '/',
    status: 200,
  },
  {
    name: 'cors, a preflight',
    app: (t) => t().use(cors({ origin: 'https://a.example', credentials: true }) as never).get('/', (_req, res) => res.send('x')),
    method: 'OPTIONS',
    path: '/',
    headers: { origin: 'https://a.example', 'access-control-request-method': 'PUT' },
    status: 204,
  },
  {
    name: 'compression (gzip)',
    app: (t) => t().use(compression({ threshold: 0 }) as never).get('/', (_req, res) => res.send('squeeze me '.repeat(100))),
    path: '/',
    headers: { 'accept-encoding': 'gzip' },
    status: 200,
  },
  {
    name: 'cookie-parser',
    app: (t) => t().use(cookieParser('s3cret') as never).get('/', (req, res) => res.json({ cookies: req.cookies, signed: req.signedCookies })),
    path: '/',
    headers: { cookie: 'a=1; b=two' },
    status: 200,
  },
  {
    name: 'multer, a file upload',
    app: (t) =>
      t().post('/up', multer().single('doc') as never, (req, res) => {
        const file = req.file as { originalname: string; size: number; buffer: Buffer };
        res.json({ name: file.originalname, size: file.size, text: file.buffer.toString(), field: (req.body as Record<string, string>).title });
      }),
    method: 'POST',
    path: '/up',
    headers: { 'content-type': 'multipart/form-data; boundary=XyZ' },
    body: ['--XyZ', 'Content-Disposition: form-data; name="title"', '', 'notes', '--XyZ', 'Content-Disposition: form-data; name="doc"; filename="a.txt"', 'Content-Type: text/plain', '', 'file body', '--XyZ--', ''].join('\r\n'),
    status: 200,
  },
];

/** passport with passport-local, without a session: a login form checked by the strategy. */
function withPassport(t: Entry): LooseApp {
  const passport = new Passport();
  const users = [{ id: 1, name: 'ada', password: 'lovelace' }];
  passport.use(
    new LocalStrategy((username, password, done) => {
      const user = users.find((u) => u.name === username && u.password === password);
      done(null, user ?? false, user ? undefined : { message: 'wrong' });
    }),
  );
  const app = t().use(t.urlencoded({ extended: false }));
  app.post('/login', passport.initialize() as never, passport.authenticate('local', { session: false }) as never, (req, res) => res.json({ user: (req as { user?: { name: string } }).user?.name }));
  return app;
}

CASES.push(
  {
    name: 'passport-local: a good login',
    app: withPassport,
    method: 'POST',
    path: '/login',
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
    body: 'username=ada&password=lovelace',
    status: 200,
  },
  {
    name: 'passport-local: a wrong password is its 401',
    app: withPassport,
    method: 'POST',
    path: '/login',
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
    body: 'username=ada&password=nope',
    status: 401,
  },
  {
    name: 'an app that sets Transfer-Encoding: chunked itself: the body without chunk framing',
    app: (t) =>
      t().get('/te', (_req, res) => {
        res.set('transfer-encoding', 'chunked');
        res.set('content-type', 'text/plain');
        res.write('first,');
        res.write('');
        res.write(Buffer.from('second,') as never);
        res.end('last');
      }),
    path: '/te',
    status: 200,
  },
  {
    name: "node's own res.end(text): the Content-Length node adds, no Content-Type added",
    app: (t) => t().get('/raw', (_req, res) => res.end('plain words')),
    path: '/raw',
    status: 200,
  },
  {
    name: "node's own res.end() with no body: Content-Length 0",
    app: (t) => t().get('/empty', (_req, res) => res.end()),
    path: '/empty',
    status: 200,
  },
  {
    name: 'writeHead(status, array): a repeated name and several Set-Cookie, over set headers',
    app: (t) => t().get('/wh', writeHeadArray),
    path: '/wh',
    status: 201,
  },
  {
    name: 'writeHead(status, array) with no header set before (node stores none)',
    app: (t) => t().disable('x-powered-by').get('/wh', writeHeadArray),
    path: '/wh',
    status: 201,
  },
  {
    name: 'writeHead(status, message, object) with an array and a number, no header set before',
    app: (t) =>
      t()
        .disable('x-powered-by')
        .get('/wh', (_req, res) => {
          res.writeHead(202, 'Taken', { 'Set-Cookie': ['a=1', 'b=2'], 'X-N': 5, 'Content-Type': 'text/plain' });
          res.end('taken');
        }),
    path: '/wh',
    status: 202,
  },
  {
    name: 'latin1 text: ASCII and not',
    app: (t) =>
      t().get('/l1', (_req, res) => {
        res.set('content-type', 'text/plain; charset=iso-8859-1');
        (res.write as (chunk: string, encoding: string) => boolean)('plain, ', 'latin1');
        (res.end as (chunk: string, encoding: string) => void)('caf\u00e9', 'latin1');
      }),
    path: '/l1',
    status: 200,
  },
  {
    name: 'Transfer-Encoding: chunked set by the app, and res.send()',
    app: (t) => t().get('/te', (_req, res) => res.set('transfer-encoding', 'chunked').send('all at once')),
    path: '/te',
    status: 200,
  },
);

/** The same request over a socket and through app.fetch. */
async function both(app: LooseApp, c: Case): Promise<[Answer, Answer]> {
  const served = await serve(app as never);
  try {
    const headers = { ...c.headers, ...(c.body !== undefined && { 'content-length': String(Buffer.byteLength(c.body)) }) };
    const raw = await rawRequest(served.port, c.method ?? 'GET', c.path, headers, c.body);
    const request = new Request(`http://127.0.0.1:${served.port}${c.path}`, { method: c.method ?? 'GET', headers, ...(c.body !== undefined && { body: c.body }) });
    const res = await app.fetch(request, { remoteAddress: '127.0.0.1' });
    return [fromSocket(raw.status, raw.headers, raw.body), await fromFetch(res)];
  } finally {
    await served.close();
  }
}

for (const gen of GENERATIONS) {
  describe(`app.fetch answers as the socket does (${gen})`, () => {
    for (const c of CASES) {
      if (c.only !== undefined && !c.only.includes(gen)) continue;
      test(c.name, async () => {
        const [socket, fetched] = await both(c.app(ENTRIES[gen]), c);
        assert.equal(socket.status, c.status);
        assert.deepEqual(fetched, socket);
      });
    }
  });
}

/** Reads one chunk of a response body as text. */
async function nextChunk(reader: ReadableStreamDefaultReader<Uint8Array>): Promise<string | undefined> {
  const { done, value } = await within(reader.read(), "the response body's next chunk");
  return done ? undefined : Buffer.from(value).toString();
}

for (const gen of GENERATIONS) {
  const t = ENTRIES[gen];
  describe(`app.fetch on its own (${gen})`, () => {
    test('works unbound, and its answer is a Response', async () => {
      const app = t().get('/users/:id', (req, res) => res.send(`user ${req.params.id}`));
      const { fetch } = app;
      const res = await fetch(new Request('http://localhost/users/1'));
      assert.ok(res instanceof Response);
      assert.equal(res.status, 200);
      assert.equal(res.statusText, 'OK');
      assert.equal(res.headers.get('content-length'), '6');
      assert.equal(await res.text(), 'user 1');
      const worker = { fetch: app.fetch };
      assert.equal(await (await worker.fetch(new Request('http://localhost/users/2'))).text(), 'user 2');
    });

    test("the Date node adds, none under sendDate = false, the app's own as it set it", async () => {
      const app = t()
        .get('/d', (_req, res) => res.send('d'))
        .get('/none', (_req, res) => {
          (res as unknown as { sendDate: boolean }).sendDate = false;
          res.send('none');
        })
        .get('/own', (_req, res) => res.set('Date', 'Tue, 01 Jan 2030 00:00:00 GMT').send('own'));
      const date = (await app.fetch(new Request('http://localhost/d'))).headers.get('date');
      assert.ok(date !== null && !Number.isNaN(Date.parse(date)), String(date));
      assert.equal((await app.fetch(new Request('http://localhost/none'))).headers.get('date'), null);
      assert.equal((await app.fetch(new Request('http://localhost/own'))).headers.get('date'), 'Tue, 01 Jan 2030 00:00:00 GMT');
    });

    test("req and res are node's IncomingMessage and ServerResponse, of the app's classes", async () => {
      const app = t().get('/k', (req, res) => {
        res.json({
          req: req instanceof IncomingMessage && Object.getPrototypeOf(req) === (app as unknown as { request: object }).request,
          res: res instanceof ServerResponse && Object.getPrototypeOf(res) === (app as unknown as { response: object }).response,
          app: req.app === app,
        });
      });
      assert.deepEqual(await (await app.fetch(new Request('http://localhost/k'))).json(), { req: true, res: true, app: true });
    });

    test('an https URL is a secure request; the host comes from the URL', async () => {
      const app = t().get('/s', (req, res) => res.json({ protocol: req.protocol, secure: req.secure, hostname: req.hostname, ip: req.ip ?? null }));
      const res = await app.fetch(new Request('https://example.com:8443/s'));
      assert.deepEqual(await res.json(), { protocol: 'https', secure: true, hostname: 'example.com', ip: null });
    });

    test('a body of unknown length (a stream) is read as a chunked one', async () => {
      const app = t().use(t.text()).post('/t', (req, res) => res.send(`got ${String(req.body)}`));
      const parts = ['str', 'eam', 'ed'];
      const body = new ReadableStream<Uint8Array>({
        pull(controller) {
          const part = parts.shift();
          if (part === undefined) controller.close();
          else controller.enqueue(Buffer.from(part));
        },
      });
      const request = new Request('http://localhost/t', { method: 'POST', body, headers: { 'content-type': 'text/plain' }, duplex: 'half' } as RequestInit);
      assert.equal(await (await app.fetch(request)).text(), 'got streamed');
    });

    test('res.write() chunks arrive as written (server-sent events)', async () => {
      let release: () => void = () => {};
      const second = new Promise<void>((resolve) => (release = resolve));
      const app = t().get('/events', (_req, res) => {
        res.set('content-type', 'text/event-stream');
        res.write('data: 1\n\n');
        void second.then(() => res.end('data: 2\n\n'));
      });
      const res = await app.fetch(new Request('http://localhost/events'));
      assert.match(res.headers.get('content-type') ?? '', /^text\/event-stream/);
      assert.equal(res.headers.get('content-length'), null);
      const reader = res.body!.getReader();
      // The first event is there while the app has not written the second.
      assert.equal(await nextChunk(reader), 'data: 1\n\n');
      release();
      assert.equal(await nextChunk(reader), 'data: 2\n\n');
      assert.equal(await nextChunk(reader), undefined);
    });

    test('an aborted request is a client going away: aborted, close, and the log line', async () => {
      const events: string[] = [];
      const lines: string[] = [];
      let reached: () => void = () => {};
      const inHandler = new Promise<void>((resolve) => (reached = resolve));
      const closed = new Promise<void>((resolve) => {
        const app = t();
        app.use(logger(':method :url :status', { stream: { write: (line: string) => void lines.push(line) } }) as never);
        app.post('/slow', (req, res) => {
          req.on('aborted', () => events.push('req aborted'));
          res.on('close', () => {
            events.push('res close');
            resolve();
          });
          reached();
        });
        const controller = new AbortController();
        const body = new ReadableStream<Uint8Array>({ pull: () => new Promise(() => {}) });
        const request = new Request('http://localhost/slow', { method: 'POST', body, signal: controller.signal, duplex: 'half' } as RequestInit);
        const answer = app.fetch(request);
        void inHandler.then(() => controller.abort());
        void assert.rejects(answer, { name: 'AbortError' });
      });
      await within(closed, "res 'close' after the client's abort");
      await new Promise((resolve) => setImmediate(resolve));
      assert.deepEqual(events, ['req aborted', 'res close']);
      assert.deepEqual(lines, ['POST /slow -\n']);
    });

    test('a request aborted before app.fetch is refused with its reason, the app not run', async () => {
      let ran = 0;
      const app = t().get('/', (_req, res) => {
        ran++;
        res.send('ran');
      });
      const reason = new Error('gone before it began');
      await assert.rejects(app.fetch(new Request('http://localhost/', { signal: AbortSignal.abort(reason) })), reason);
      assert.equal(ran, 0);
    });

    test('an error after the headers went out fails the body, as a cut connection', async () => {
      let fail: () => void = () => {};
      const failed = new Promise<void>((resolve) => (fail = resolve));
      const app = t().set('env', 'test');
      app.get('/half', (_req, res, next) => {
        res.write('half');
        void failed.then(() => next(new Error('late')));
      });
      const res = await app.fetch(new Request('http://localhost/half'));
      assert.equal(res.status, 200);
      const reader = res.body!.getReader();
      assert.equal(await nextChunk(reader), 'half');
      fail();
      await assert.rejects(reader.read());
    });

    test('cancelling the response body is a client going away', async () => {
      let closedRes: () => void = () => {};
      const closed = new Promise<void>((resolve) => (closedRes = resolve));
      const app = t().get('/stream', (_req, res) => {
        res.on('close', closedRes);
        res.write('first');
      });
      const res = await app.fetch(new Request('http://localhost/stream'));
      const reader = res.body!.getReader();
      assert.equal(await nextChunk(reader), 'first');
      await reader.cancel();
      await within(closed, "res 'close' after the body was cancelled");
    });

    test('express-session keeps a session across requests by its cookie', async () => {
      const app = t();
      app.use(session({ secret: 'k', resave: false, saveUninitialized: false }) as never);
      app.get('/count', (req, res) => {
        const s = req.session as unknown as { n?: number };
        s.n = (s.n ?? 0) + 1;
        res.send(String(s.n));
      });
      const first = await app.fetch(new Request('http://localhost/count'));
      assert.equal(await first.text(), '1');
      const cookie = first.headers.getSetCookie()[0]!.split(';')[0]!;
      const second = await app.fetch(new Request('http://localhost/count', { headers: { cookie } }));
      assert.equal(await second.text(), '2');
    });

    test('express-rate-limit counts clients by options.remoteAddress', async () => {
      const app = t();
      app.use(rateLimit({ windowMs: 60_000, limit: 2, standardHeaders: 'draft-7', legacyHeaders: false }) as never);
      app.get('/', (_req, res) => res.send('ok'));
      const ask = async (remoteAddress: string) => (await app.fetch(new Request('http://localhost/'), { remoteAddress })).status;
      assert.deepEqual([await ask('192.0.2.1'), await ask('192.0.2.1'), await ask('192.0.2.1'), await ask('192.0.2.2')], [200, 200, 429, 200]);
    });

    test('logline writes one line per request', async () => {
      const lines: string[] = [];
      const app = t();
      app.use(logger(':method :url :status :res[content-length] :remote-addr', { stream: { write: (line: string) => void lines.push(line) } }) as never);
      app.get('/a', (_req, res) => res.send('aaa'));
      await (await app.fetch(new Request('http://localhost/a'), { remoteAddress: '192.0.2.7' })).text();
      await (await app.fetch(new Request('http://localhost/missing'), { remoteAddress: '192.0.2.7' })).text();
      assert.deepEqual(lines, ['GET /a 200 3 192.0.2.7\n', `GET /missing 404 ${lines[1]?.split(' ')[3]} 192.0.2.7\n`]);
    });
  });
}

for (const gen of GENERATIONS) {
  describe(`app.fetch: who the client is, from what a runtime's server passes second (${gen})`, () => {
    const who = (options: object) => {
      const app = ENTRIES[gen]().get('/', (req, res) => res.json({ ip: req.ip, port: (req.socket as { remotePort?: number }).remotePort, family: (req.socket as { remoteFamily?: string }).remoteFamily }));
      const fetch = app.fetch as (request: Request, options: object) => Promise<Response>;
      return fetch(new Request('http://localhost/'), options).then((res) => res.json());
    };

    test("Deno.serve's handler info: remoteAddr", async () => {
      assert.deepEqual(await who({ remoteAddr: { transport: 'tcp', hostname: '203.0.113.5', port: 4123 }, completed: Promise.resolve() }), { ip: '203.0.113.5', port: 4123, family: 'IPv4' });
    });

    test("Bun.serve's server: requestIP(request), asked with the request", async () => {
      let asked: unknown;
      const server = { port: 3000, requestIP: (request: Request) => ((asked = request.url), { address: '2001:db8::7', family: 'IPv6', port: 5123 }) };
      assert.deepEqual(await who(server), { ip: '2001:db8::7', port: 5123, family: 'IPv6' });
      assert.equal(asked, 'http://localhost/');
    });

    test('options.remoteAddress wins; an object that says nothing leaves the client unknown', async () => {
      assert.deepEqual(await who({ remoteAddress: '192.0.2.1', remotePort: 1, remoteAddr: { hostname: '203.0.113.5', port: 2 } }), { ip: '192.0.2.1', port: 1, family: 'IPv4' });
      assert.deepEqual(await who({ GREETING: 'an env, say' }), {});
      assert.deepEqual(await who({ requestIP: () => null }), {});
    });
  });
}
