// The conformance app of the runtime tests (bun-deno.test.ts, workers.test.ts):
// one app, written once, run on Node over a socket and on each other runtime;
// the answers are compared. CommonJS with no TypeScript, so Bun, Deno and a
// Worker bundler take it as it is. `framework` is the entry (trestle,
// trestle/v4 or trestle/legacy), `log` the stream logline writes to (its default,
// process.stdout, when none).
'use strict';
const path = require('path');
const cookieParser = require('cookie-parser');
const logger = require('logline-http');

function createApp(framework, log, options) {
  const files = !(options && options.noFiles);
  const app = framework();
  // A Worker bundled by wrangler has no __dirname (its views are never read there).
  app.set('views', path.join(typeof __dirname === 'string' ? __dirname : '/', 'views'));
  app.set('view engine', 'ejs');
  app.use(logger(':method :url :status :res[content-length]', log ? { stream: log } : {}));
  app.use(cookieParser('runtime secret'));
  app.use(framework.json({ limit: '1kb' }));
  app.use(framework.urlencoded({ extended: false, limit: '1kb' }));
  if (files) app.use('/static', framework.static(path.join(__dirname, 'public')));
  if (options && options.wrapped) wrappedRoutes(app);

  app.get('/', (req, res) => res.send('home'));
  app.get('/users/:id/books/:book', (req, res) => res.json({ params: req.params, query: req.query }));
  app.post('/echo', (req, res) => res.json({ body: req.body, type: req.get('content-type') }));
  app.put('/echo', (req, res) => res.status(201).json(req.body));
  app.get('/cookies/set', (req, res) => {
    res.cookie('plain', 'one', { httpOnly: true });
    res.cookie('signed', 'two', { signed: true, path: '/cookies' });
    res.cookie('gone', '', { expires: new Date(0) });
    res.send('set');
  });
  app.get('/cookies/read', (req, res) => res.json({ cookies: req.cookies, signed: req.signedCookies }));
  app.get('/view', (req, res) => res.render('page', { title: 'Shelf', items: ['one', '<two>'] }));
  app.get('/redirect', (req, res) => res.redirect('/users/1/books/2'));
  app.get('/status/:code', (req, res) => res.sendStatus(Number(req.params.code)));
  app.get('/thrown', () => {
    throw Object.assign(new Error('Teapot here'), { status: 418, expose: true });
  });
  app.get('/crash', (req, res, next) => next(new Error('internal detail')));
  app.get('/ip', (req, res) => res.json({ ip: req.ip, protocol: req.protocol, hostname: req.hostname, httpVersion: req.httpVersion }));
  streamRoutes(app);
  // Errors the app knows answer here; the rest go on to the final handler (its 404, 413 and 500 pages).
  app.use((err, req, res, next) => {
    if (err.status === 418) return res.status(418).json({ error: err.message });
    next(err);
  });
  return app;
}

/**
 * A server-sent stream in two parts (streaming.test.ts): the second part is
 * written only when /stream/release is asked, so a client that has the first
 * part before it asks shows the answer streams as written. /held writes
 * nothing until released. /stream/state tells whether the open answer's req
 * and res saw the client go away.
 */
function streamRoutes(app) {
  let open = null;
  const watch = (req, res) => {
    const state = { res, closed: false, aborted: false };
    res.on('close', () => (state.closed = !res.writableFinished));
    req.on('close', () => (state.aborted = !res.writableFinished));
    return state;
  };
  app.get('/stream', (req, res) => {
    open = watch(req, res);
    res.type('text/event-stream');
    res.write('data: one\n\n');
  });
  // Nothing written until released: for a client that leaves before any answer.
  app.get('/held', (req, res) => {
    open = watch(req, res);
  });
  app.get('/stream/release', (req, res) => {
    if (open === null) return res.status(409).send('no stream open');
    open.res.end('data: two\n\n');
    open = null;
    res.send('released');
  });
  app.get('/stream/state', (req, res) => res.json(open === null ? null : { closed: open.closed, aborted: open.aborted }));
}

/**
 * Middleware that wraps res.write and res.end, for the Workers journey
 * (test/journeys/workers.test.ts): express-session (which writes all but an
 * answer's last byte, then ends with it), compression, and a wrapper of its
 * own that ends a turn later. Loaded only when asked, so the other runtime
 * tests need none of them.
 */
function wrappedRoutes(app) {
  const session = require('express-session');
  const compression = require('compression');
  app.use(session({ secret: 'runtime secret', resave: false, saveUninitialized: false }));
  app.use(compression({ threshold: 512 }));
  app.use((req, res, next) => {
    const write = res.write;
    const end = res.end;
    let written = 0;
    res.write = function (chunk, encoding, callback) {
      if (chunk) written += Buffer.byteLength(chunk, typeof encoding === 'string' ? encoding : undefined);
      return write.call(this, chunk, encoding, callback);
    };
    res.end = function (chunk, encoding, callback) {
      const self = this;
      setTimeout(() => end.call(self, chunk, encoding, callback), 1);
      return this;
    };
    res.on('finish', () => (res.locals.written = written));
    next();
  });
  app.get('/big', (req, res) => res.type('text').send('trestle on workers, '.repeat(400)));
  app.get('/big/streamed', (req, res) => {
    res.type('text');
    for (let i = 0; i < 40; i++) res.write(`line ${i} ${'x'.repeat(80)}\n`);
    res.end('done\n');
  });
  app.get('/session', (req, res) => {
    req.session.views = (req.session.views || 0) + 1;
    res.json({ views: req.session.views });
  });
  app.post('/created', (req, res) => res.status(201).json({ made: true }));
  // A declared length, the body written over two turns: a streamed answer that keeps its Content-Length.
  app.get('/sized', (req, res) => {
    res.set({ 'Content-Type': 'text/plain', 'Content-Length': '10' });
    res.write('hello');
    setTimeout(() => res.end('world'), 5);
  });
}

module.exports = createApp;
