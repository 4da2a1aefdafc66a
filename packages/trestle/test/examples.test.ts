// The runnable apps under examples/: each is driven over HTTP the way a
// person would use it, so they keep working as the framework changes.
import assert from 'node:assert/strict';
import { join } from 'node:path';
import { Writable } from 'node:stream';
import { describe, test } from 'node:test';
import request from 'supertest';
import { effective, eventFor, fakeContext } from './fixtures/lambda/events';
import { modes, serveH2 } from './http2-helpers';

type AppFactory = (options?: unknown) => import('node:http').RequestListener;
const load = (name: string) => require(join(__dirname, '..', '..', '..', 'examples', name)) as AppFactory;

/** A log stream that keeps its lines in memory. */
function memoryLog(): { lines: string[]; logStream: Writable } {
  const lines: string[] = [];
  const logStream = new Writable({
    write(chunk: Buffer, _enc, cb) {
      lines.push(chunk.toString());
      cb();
    },
  });
  return { lines, logStream };
}

describe('examples/app.js (v5, what npm start serves)', () => {
  test('routers, params and the error handler', async () => {
    const app = load('app.js')();
    const silent = console.error;
    console.error = () => undefined;
    try {
      await request(app).get('/books/2').expect(200).expect((res) => assert.equal(res.body.title, 'Invisible Cities'));
      await request(app).get('/books/1/title').expect(200, 'The Left Hand of Darkness');
      await request(app).get('/books/99').expect(404).expect((res) => assert.deepEqual(res.body, { error: 'No book 99' }));
      await request(app).get('/boom').expect(500).expect((res) => assert.deepEqual(res.body, { error: 'Internal Server Error' }));
    } finally {
      console.error = silent;
    }
  });
});

describe('examples/v4-app.js on trestle/v4', () => {
  test('views with locals, sessions, v4 paths, old response forms', async () => {
    const agent = request.agent(load('v4-app.js')());
    const first = await agent.get('/').expect(200);
    assert.match(first.text, /<h1>Notes<\/h1>/);
    assert.match(first.text, /Visits this session: 1/);
    assert.match(first.text, /Served by trestle\/v4/);
    const second = await agent.get('/').expect(200);
    assert.match(second.text, /Visits this session: 2/);
    await agent.get('/notes/1').expect(200, 'Buy milk');
    await agent.get('/notes/1.json').expect(200, { id: 1, text: 'Buy milk' });
    await agent.get('/notes/abc').expect(404);
    await agent.get('/notes/9').expect(404, { error: 'No note 9' });
    await agent.post('/notes').send({ text: 'Call Bob' }).expect(201, { id: 2, text: 'Call Bob' });
    await agent.post('/notes').type('form').send('nothing=1').expect(400, 'text is required');
  });
});

describe('examples/legacy-app.js on trestle/legacy', () => {
  test('configure, logger, bodyParser with uploads, app.router, views and sessions', async () => {
    const { lines, logStream } = memoryLog();
    const agent = request.agent(load('legacy-app.js')({ logStream }));
    const page = await agent.get('/').expect(200);
    assert.match(page.text, /Visits this session: 1/);
    assert.match(page.text, /Served by trestle\/legacy/);
    await agent.get('/notes/1').expect(200, 'Buy milk');
    await agent.get('/notes/7').expect(404, 'No note 7');
    const created = await agent
      .post('/notes')
      .field('text', 'Scan receipts')
      .attach('attachment', Buffer.from('receipt data'), 'receipt.txt')
      .expect(201);
    assert.deepEqual(created.body, { id: 2, text: 'Scan receipts', file: 'receipt.txt, 12 bytes' });
    await agent.post('/notes').send({}).expect(400, 'text is required');
    const listed = await agent.get('/').expect(200);
    assert.match(listed.text, /Scan receipts<\/a> \(file: receipt.txt, 12 bytes\)/);
    // Every request counts: two pages, two notes, two posts so far.
    assert.match(listed.text, /Visits this session: 6/);
    await agent.get('/public/notes.ejs').expect(200);
    assert.ok(lines.some((l) => l.includes('GET /notes/1')));
  });
});

describe('examples/http2-app.js over HTTP/2', () => {
  for (const mode of modes) {
    test(`${mode}: negotiation, a JSON body, a forbidden header dropped`, async () => {
      const served = await serveH2(load('http2-app.js')(), mode);
      try {
        const home = await served.request('/', { headers: { accept: 'application/json' } });
        assert.deepEqual(JSON.parse(home.text), { httpVersion: '2.0', protocol: mode === 'h2' ? 'https' : 'http', host: `127.0.0.1:${served.port}` });
        const echo = await served.request('/echo', { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{"a":1}' });
        assert.deepEqual(JSON.parse(echo.text), { received: { a: 1 } });
        const kept = await served.request('/keep-alive');
        assert.equal(kept.text, 'served over HTTP/2.0');
        assert.equal(kept.headers.connection, undefined);
      } finally {
        await served.close();
      }
    });
  }
});

describe('examples/production.js', () => {
  test('health, routes with req.signal, then a shutdown: health says 503, the hooks close the database and end the log', async () => {
    const { lines, logStream } = memoryLog();
    const db = { open: true, query: async (sql: string) => [{ sql }], close: async () => void (db.open = false) };
    const app = load('production.js')({ logStream, db }) as unknown as import('trestle').Application;
    await request(app).get('/health').expect(200, 'ok');
    await request(app).get('/books').expect(200, [{ sql: 'SELECT * FROM books' }]);
    await request(app).post('/books').send({ title: 'Kindred' }).expect(201, { created: { title: 'Kindred' } });
    const report = await app.shutdown();
    assert.deepEqual(report.hookErrors, []);
    assert.equal(db.open, false);
    assert.equal(logStream.writableFinished, true);
    assert.equal(lines.length, 3);
    await request(app).get('/health').expect(503, 'draining');
  });
});

describe('examples/lambda.js as Lambda calls it', () => {
  test('API Gateway and ALB events, cookies, the context, a PNG, and /events streamed under streamingHandler', async () => {
    const written: string[] = [];
    const stdoutWrite = process.stdout.write;
    // The example logs to stdout (CloudWatch); the test keeps the lines.
    process.stdout.write = ((chunk: string) => written.push(String(chunk)) > 0) as typeof process.stdout.write;
    const file = join(__dirname, '..', '..', '..', 'examples', 'lambda.js');
    const writes: string[] = [];
    let metadata: unknown;
    (globalThis as Record<string, unknown>).awslambda = {
      streamifyResponse: (fn: unknown) => fn,
      HttpResponseStream: { from: (stream: unknown, meta: unknown) => ((metadata = meta), stream) },
    };
    try {
      delete require.cache[file];
      const example = require(file) as Record<string, (...args: unknown[]) => Promise<Record<string, unknown>>>;
      const call = async (kind: 'rest' | 'http' | 'alb-multi', spec: Parameters<typeof eventFor>[1]) => effective(await example.handler!(eventFor(kind, spec), fakeContext()));
      const list = await call('rest', { path: '/notes' });
      assert.deepEqual(JSON.parse(list.body.toString()), [{ id: 1, text: 'Deploy to Lambda' }]);
      const made = await call('http', { method: 'POST', path: '/notes', headers: [['content-type', 'application/json']], body: '{"text":"Stream events"}' });
      assert.equal(made.status, 201);
      assert.deepEqual(made.headers['set-cookie'], ['last-note=2; Path=/; HttpOnly']);
      const who = await call('rest', { path: '/whoami' });
      assert.deepEqual(JSON.parse(who.body.toString()), { ip: '192.0.2.1', requestId: 'c6af9ac6-7b61-11e6-9a41-93e812345678', stage: 'prod' });
      const pixel = await call('alb-multi', { path: '/pixel.png' });
      assert.deepEqual(pixel.body.subarray(1, 4).toString(), 'PNG');
      const whole = await call('http', { path: '/events' });
      assert.equal(whole.body.toString(), 'data: 1\n\ndata: 2\n\ndata: 3\n\n');
      const stream = { write: (c: Uint8Array) => writes.push(Buffer.from(c).toString()) > 0, end: () => writes.push('(end)'), once: () => stream };
      await example.streamingHandler!(eventFor('url', { path: '/events' }), stream, fakeContext());
      assert.deepEqual(writes, ['data: 1\n\n', 'data: 2\n\n', 'data: 3\n\n', '(end)']);
      assert.equal((metadata as { statusCode: number }).statusCode, 200);
    } finally {
      process.stdout.write = stdoutWrite;
      delete (globalThis as Record<string, unknown>).awslambda;
      delete require.cache[file];
    }
    assert.ok(written.some((line) => line.startsWith('GET /notes 200')), written.join(''));
    assert.ok(written.some((line) => line.startsWith('POST /notes 201')));
  });
});
