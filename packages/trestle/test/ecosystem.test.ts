// The ecosystem's middleware on trestle, unchanged: cors, helmet,
// compression, multer, passport with express-session, body-parser, morgan,
// response-time, express-rate-limit, http-proxy-middleware. Each is installed from
// npm with its own types (most of them typed for Express through
// @types/express), used as its README shows, and driven over HTTP; the
// assertions are what the package documents for Express.
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, test } from 'node:test';
import bodyParser from 'body-parser';
import compression from 'compression';
import cors from 'cors';
import session from 'express-session';
import { rateLimit } from 'express-rate-limit';
import helmet from 'helmet';
import { createProxyMiddleware } from 'http-proxy-middleware';
import morgan from 'morgan';
import multer from 'multer';
import { Passport } from 'passport';
import { Strategy as LocalStrategy } from 'passport-local';
import responseTime from 'response-time';
import request from 'supertest';
import trestle from 'trestle';
import trestleLegacy from 'trestle/legacy';
import trestleV4 from 'trestle/v4';
import { serve } from './helpers';

const STATIC_ROOT = join(__dirname, 'fixtures', 'static', 'public');
const LARGE_TEXT = 'All work and no play. '.repeat(200);

/**
 * The three generations. One suite body serves them all, so their apps are
 * typed as v5's here (the path syntax is all that differs, and these paths
 * are plain); each entry's own types are tested in test/types.
 */
const generations: Array<[string, () => trestle.Application]> = [
  ['trestle', () => trestle()],
  ['trestle/v4', () => trestleV4() as unknown as trestle.Application],
  ['trestle/legacy', () => trestleLegacy() as unknown as trestle.Application],
];

for (const [entry, makeApp] of generations) {
  describe(`cors on ${entry}`, () => {
    test('a preflight is answered 204 with the allowed methods and the requested headers', async () => {
      const app = makeApp();
      app.use(cors());
      app.get('/items', (_req, res) => res.json([1]));
      const res = await request(app)
        .options('/items')
        .set('Origin', 'http://client.test')
        .set('Access-Control-Request-Method', 'PUT')
        .set('Access-Control-Request-Headers', 'x-token')
        .expect(204);
      assert.equal(res.headers['access-control-allow-origin'], '*');
      assert.equal(res.headers['access-control-allow-methods'], 'GET,HEAD,PUT,PATCH,POST,DELETE');
      assert.equal(res.headers['access-control-allow-headers'], 'x-token');
      assert.equal(res.headers['content-length'], '0');
    });

    test('a simple request gets the configured origin and Vary: Origin, the route still answers', async () => {
      const app = makeApp();
      app.use(cors({ origin: 'http://client.test', credentials: true }));
      app.get('/items', (_req, res) => res.json([1, 2]));
      const res = await request(app).get('/items').set('Origin', 'http://client.test').expect(200, [1, 2]);
      assert.equal(res.headers['access-control-allow-origin'], 'http://client.test');
      assert.equal(res.headers['access-control-allow-credentials'], 'true');
      assert.match(String(res.headers.vary), /Origin/);
    });
  });

  describe(`helmet on ${entry}`, () => {
    test('its security headers are sent and X-Powered-By is removed', async () => {
      const app = makeApp();
      app.use(helmet());
      app.get('/', (_req, res) => res.send('safe'));
      const res = await request(app).get('/').expect(200, 'safe');
      assert.equal(res.headers['x-powered-by'], undefined);
      assert.equal(res.headers['x-content-type-options'], 'nosniff');
      assert.equal(res.headers['x-frame-options'], 'SAMEORIGIN');
      assert.match(String(res.headers['content-security-policy']), /^default-src 'self';/);
      assert.match(String(res.headers['strict-transport-security']), /^max-age=\d+; includeSubDomains$/);
      assert.equal(res.headers['referrer-policy'], 'no-referrer');
    });

    test('without helmet the app says X-Powered-By (the header helmet takes away)', async () => {
      const app = makeApp();
      app.get('/', (_req, res) => res.send('plain'));
      const res = await request(app).get('/').expect(200, 'plain');
      assert.equal(typeof res.headers['x-powered-by'], 'string');
    });
  });

  describe(`compression on ${entry}`, () => {
    test('a large answer is gzipped for a client that accepts it, without Content-Length', async () => {
      const app = makeApp();
      app.use(compression());
      app.get('/text', (_req, res) => res.type('text').send(LARGE_TEXT));
      const res = await request(app).get('/text').set('Accept-Encoding', 'gzip').expect(200);
      assert.equal(res.headers['content-encoding'], 'gzip');
      assert.equal(res.headers['content-length'], undefined);
      assert.match(String(res.headers.vary), /Accept-Encoding/);
      assert.equal(res.text, LARGE_TEXT);
    });

    test('identity for a client without Accept-Encoding, and for an answer under the threshold', async () => {
      const app = makeApp();
      app.use(compression());
      app.get('/text', (_req, res) => res.type('text').send(LARGE_TEXT));
      app.get('/small', (_req, res) => res.json({ ok: true }));
      const plain = await request(app).get('/text').set('Accept-Encoding', 'identity').expect(200);
      assert.equal(plain.headers['content-encoding'], undefined);
      assert.equal(plain.headers['content-length'], String(Buffer.byteLength(LARGE_TEXT)));
      assert.equal(plain.text, LARGE_TEXT);
      const small = await request(app).get('/small').set('Accept-Encoding', 'gzip').expect(200, { ok: true });
      assert.equal(small.headers['content-encoding'], undefined);
    });

    test('static files and res.json go through it too; HEAD is left uncompressed', async () => {
      const app = makeApp();
      app.use(compression({ threshold: 0 }));
      app.use('/static', trestle.static(STATIC_ROOT));
      app.get('/json', (_req, res) => res.json({ text: LARGE_TEXT }));
      const file = await request(app).get('/static/4k.txt').set('Accept-Encoding', 'gzip').expect(200);
      assert.equal(file.headers['content-encoding'], 'gzip');
      assert.equal(file.text, readFileSync(join(STATIC_ROOT, '4k.txt'), 'utf8'));
      const json = await request(app).get('/json').set('Accept-Encoding', 'gzip').expect(200);
      assert.equal(json.headers['content-encoding'], 'gzip');
      assert.deepEqual(json.body, { text: LARGE_TEXT });
      // compression leaves HEAD alone: the headers a GET without it would have.
      const head = await request(app).head('/json').set('Accept-Encoding', 'gzip').expect(200);
      assert.equal(head.headers['content-encoding'], undefined);
      assert.equal(head.headers['content-length'], String(Buffer.byteLength(JSON.stringify({ text: LARGE_TEXT }))));
    });
  });
}

/** multer and passport: Express 4 and 5 apps (the two their READMEs show). */
const modern = generations.slice(0, 2);

for (const [entry, makeApp] of modern) {
  describe(`multer on ${entry}`, () => {
    function uploadApp(limits?: multer.Options['limits']) {
      const app = makeApp();
      const upload = multer({ storage: multer.memoryStorage(), limits });
      app.post('/avatar', upload.single('avatar'), (req, res) => {
        const file = req.file!;
        res.json({ name: (req.body as { name?: string }).name, file: file.originalname, type: file.mimetype, text: file.buffer.toString() });
      });
      app.post('/photos', upload.array('photos', 2), (req, res) => {
        const files = req.files as Express.Multer.File[];
        res.json(files.map((f) => `${f.fieldname}:${f.originalname}:${f.size}`));
      });
      app.use((err: Error & { code?: string }, _req: trestle.Request, res: trestle.Response, _next: trestle.NextFunction) => {
        res.status(err instanceof multer.MulterError ? 413 : 500).json({ code: err.code });
      });
      return app;
    }

    test('upload.single puts the file in req.file and the text fields in req.body', async () => {
      await request(uploadApp())
        .post('/avatar')
        .field('name', 'Ada')
        .attach('avatar', Buffer.from('picture bytes'), { filename: 'ada.png', contentType: 'image/png' })
        .expect(200, { name: 'Ada', file: 'ada.png', type: 'image/png', text: 'picture bytes' });
    });

    test('upload.array fills req.files; one file too many is a MulterError for the error handler', async () => {
      const app = uploadApp();
      await request(app)
        .post('/photos')
        .attach('photos', Buffer.from('one'), 'a.jpg')
        .attach('photos', Buffer.from('three'), 'b.jpg')
        .expect(200, ['photos:a.jpg:3', 'photos:b.jpg:5']);
      await request(app)
        .post('/photos')
        .attach('photos', Buffer.from('1'), 'a.jpg')
        .attach('photos', Buffer.from('2'), 'b.jpg')
        .attach('photos', Buffer.from('3'), 'c.jpg')
        .expect(413, { code: 'LIMIT_UNEXPECTED_FILE' });
    });

    test('a file over the size limit reaches the error handler, and the app keeps serving', async () => {
      const app = uploadApp({ fileSize: 4 });
      await request(app).post('/avatar').attach('avatar', Buffer.from('far too big'), 'big.png').expect(413, { code: 'LIMIT_FILE_SIZE' });
      await request(app).post('/avatar').field('name', 'Bo').attach('avatar', Buffer.from('ok'), 'ok.png').expect(200);
    });
  });

  describe(`passport with express-session on ${entry}`, () => {
    interface User {
      id: number;
      username: string;
    }
    const users: User[] = [{ id: 7, username: 'ada' }];

    function loginApp() {
      const app = makeApp();
      const passport = new Passport();
      passport.use(
        new LocalStrategy((username, password, done) => {
          const user = users.find((u) => u.username === username);
          done(null, user && password === 'lovelace' ? user : false);
        }),
      );
      passport.serializeUser((user, done) => done(null, (user as User).id));
      passport.deserializeUser((id: number, done) => done(null, users.find((u) => u.id === id) ?? false));

      app.use(trestle.urlencoded({ extended: false }));
      app.use(session({ secret: 'test secret', resave: false, saveUninitialized: false }));
      app.use(passport.session());
      app.post('/login', passport.authenticate('local', { successRedirect: '/me', failureRedirect: '/login' }));
      app.post('/token', passport.authenticate('local', { session: false }), (req, res) => {
        res.json({ user: (req.user as User).username });
      });
      app.get('/me', (req, res) => {
        if (!req.isAuthenticated()) return res.sendStatus(401);
        res.json(req.user);
      });
      app.post('/logout', (req, res, next) => {
        req.logout((err) => (err ? next(err) : res.redirect('/login')));
      });
      return app;
    }

    test('a login redirects and sets the session cookie; the session then carries the user until logout', async () => {
      const agent = request.agent(loginApp());
      await agent.get('/me').expect(401, 'Unauthorized');
      const login = await agent.post('/login').type('form').send({ username: 'ada', password: 'lovelace' }).expect(302);
      assert.equal(login.headers.location, '/me');
      assert.match(String(login.headers['set-cookie']), /^connect\.sid=/);
      await agent.get('/me').expect(200, { id: 7, username: 'ada' });
      const logout = await agent.post('/logout').expect(302);
      assert.equal(logout.headers.location, '/login');
      await agent.get('/me').expect(401);
    });

    test('wrong credentials redirect to the failure page; without redirects they answer 401', async () => {
      const app = loginApp();
      const failed = await request(app).post('/login').type('form').send({ username: 'ada', password: 'nope' }).expect(302);
      assert.equal(failed.headers.location, '/login');
      assert.equal(failed.headers['set-cookie'], undefined);
      await request(app).post('/token').type('form').send({ username: 'ada', password: 'nope' }).expect(401);
      await request(app).post('/token').type('form').send({ username: 'ada', password: 'lovelace' }).expect(200, { user: 'ada' });
    });
  });
}

/** The middleware most Express 4 apps carry from before Express bundled it, and a few that hook deep. */
for (const [entry, makeApp] of modern) {
  describe(`body-parser on ${entry}`, () => {
    test('json and extended forms parse into req.body; a later built-in parser leaves the body alone', async () => {
      const app = makeApp();
      app.use(bodyParser.json(), bodyParser.urlencoded({ extended: true }), trestle.json());
      app.post('/echo', (req, res) => res.json(req.body));
      await request(app).post('/echo').send({ a: [1, 2] }).expect(200, { a: [1, 2] });
      await request(app).post('/echo').type('form').send('user[name]=ada&user[langs][]=en').expect(200, { user: { name: 'ada', langs: ['en'] } });
    });

    test('malformed JSON is a 400 through the final handler, and the app keeps serving', async () => {
      const app = makeApp();
      app.set('env', 'production');
      app.use(bodyParser.json());
      app.post('/echo', (req, res) => res.json(req.body));
      // The final handler logs the error, as Express's does outside the test env.
      const logged: unknown[] = [];
      const consoleError = console.error;
      console.error = (...args: unknown[]) => void logged.push(args[0]);
      try {
        const bad = await request(app).post('/echo').type('json').send('{"a":').expect(400);
        assert.match(bad.text, /Bad Request/);
      } finally {
        console.error = consoleError;
      }
      assert.match(String(logged[0]), /^SyntaxError/);
      await request(app).post('/echo').send({ ok: 1 }).expect(200, { ok: 1 });
    });
  });

  describe(`response-time and morgan on ${entry}`, () => {
    test('X-Response-Time is on every kind of answer, and morgan logs each with its status and length', async () => {
      const lines: string[] = [];
      const app = makeApp();
      app.use(morgan('combined', { stream: { write: (line: string) => void lines.push(line) } }));
      app.use(responseTime());
      app.use('/static', trestle.static(STATIC_ROOT));
      app.get('/send', (_req, res) => res.send('sent'));
      app.get('/json', (_req, res) => res.json({ ok: true }));
      for (const [path, length] of [['/send', '4'], ['/json', '11'], ['/static/4k.txt', '4096'], ['/missing', undefined]] as const) {
        const res = await request(app).get(path).set('User-Agent', 'eco-test');
        assert.match(String(res.headers['x-response-time']), /^\d+\.\d{3}ms$/, path);
        if (length) assert.equal(res.headers['content-length'], length, path);
      }
      assert.equal(lines.length, 4);
      assert.match(lines[0]!, /^127\.0\.0\.1 - - \[[^\]]+\] "GET \/send HTTP\/1\.1" 200 4 "-" "eco-test"\n$/);
      assert.match(lines[1]!, /"GET \/json HTTP\/1\.1" 200 11 /);
      assert.match(lines[2]!, /"GET \/static\/4k\.txt HTTP\/1\.1" 200 4096 /);
      assert.match(lines[3]!, /"GET \/missing HTTP\/1\.1" 404 \d+ /);
    });
  });

  describe(`express-rate-limit on ${entry}`, () => {
    test('the third request in the window is refused 429 with RateLimit headers; behind a proxy each client counts alone', async () => {
      const app = makeApp();
      app.set('trust proxy', 1);
      app.use(rateLimit({ windowMs: 60_000, limit: 2, standardHeaders: 'draft-7', legacyHeaders: false }));
      app.get('/', (req, res) => res.send(`hello ${req.ip}`));
      const client = (ip: string) => request(app).get('/').set('X-Forwarded-For', ip);
      await client('203.0.113.1').expect(200, 'hello 203.0.113.1');
      const second = await client('203.0.113.1').expect(200);
      assert.match(String(second.headers.ratelimit), /limit=2, remaining=0/);
      const refused = await client('203.0.113.1').expect(429);
      assert.equal(refused.headers['retry-after'], '60');
      await client('203.0.113.2').expect(200, 'hello 203.0.113.2');
    });
  });

  describe(`http-proxy-middleware on ${entry}`, () => {
    test('a mounted proxy forwards the path below the mount point, the query and a streamed body', async () => {
      const backend = await serve((req, res) => {
        let body = '';
        req.setEncoding('utf8');
        req.on('data', (chunk: string) => (body += chunk));
        req.on('end', () => res.end(`${req.method} ${req.url} ${body}`));
      });
      try {
        const app = makeApp();
        app.use('/api', createProxyMiddleware({ target: `http://127.0.0.1:${backend.port}` }));
        app.get('/local', (_req, res) => res.send('not proxied'));
        await request(app).get('/api/items?page=2').expect(200, 'GET /items?page=2 ');
        await request(app).post('/api/items').type('text').send('a body').expect(200, 'POST /items a body');
        await request(app).get('/local').expect(200, 'not proxied');
      } finally {
        await backend.close();
      }
    });
  });
}
