import assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import { existsSync, readFileSync } from 'node:fs';
import * as http from 'node:http';
import { Writable } from 'node:stream';
import { join } from 'node:path';
import { describe, test } from 'node:test';
import request from 'supertest';
import trestleLegacy from 'trestle/legacy';
import trestleV4 from 'trestle/v4';
import { serve } from './helpers';

interface UploadedFile {
  fieldName: string;
  size: number;
  path: string;
  name: string;
  type: string;
  hash: string | null;
  lastModifiedDate: Date;
}

type Legacy = typeof trestleLegacy & {
  bodyParser(options?: Record<string, unknown>): (req: unknown, res: unknown, next: () => void) => void;
  logger(format: string, options: { stream: Writable }): (req: unknown, res: unknown, next: () => void) => void;
};
const legacy = trestleLegacy as Legacy;

/** An app whose route answers with what bodyParser left on the request. */
function parsingApp(options?: Record<string, unknown>) {
  const app = legacy();
  app.set('env', 'production');
  app.use(legacy.bodyParser(options));
  app.post('/', (req, res) => {
    const files = (req as unknown as { files: Record<string, UploadedFile | UploadedFile[]> }).files;
    const described = Object.fromEntries(
      Object.entries(files).map(([k, f]) => {
        const one = Array.isArray(f) ? f[0]! : f;
        return [k, { ...one, content: readFileSync(one.path, 'utf8'), dated: one.lastModifiedDate instanceof Date, count: Array.isArray(f) ? f.length : 1 }];
      }),
    );
    res.json({ body: req.body, files: described });
  });
  app.use((err: { status: number; type: string }, _req: unknown, res: { status(n: number): { json(v: unknown): void } }, _next: unknown) => {
    res.status(err.status).json({ type: err.type });
  });
  return app;
}

describe('legacy trestle.bodyParser()', () => {
  test('JSON and nested urlencoded bodies', async () => {
    const app = parsingApp();
    await request(app).post('/').type('json').send('{"a":[1,2]}').expect(200, { body: { a: [1, 2] }, files: {} });
    await request(app).post('/').type('form').send('user[name]=ann&user[tags][]=x').expect(200, { body: { user: { name: 'ann', tags: ['x'] } }, files: {} });
  });

  test('no body: req.body and req.files are empty objects', async () => {
    await request(parsingApp()).post('/').expect(200, { body: {}, files: {} });
  });

  test('multipart: fields into req.body, files to temporary files described in req.files', async () => {
    const res = await request(parsingApp({ hash: 'md5' }))
      .post('/')
      .field('title', 'Report')
      .field('meta[year]', '2024')
      .attach('doc', Buffer.from('hello upload'), { filename: 'notes.txt', contentType: 'text/plain' })
      .expect(200);
    const { body, files } = res.body as { body: unknown; files: Record<string, UploadedFile & { content: string; dated: boolean }> };
    assert.deepEqual(body, { title: 'Report', meta: { year: '2024' } });
    const doc = files.doc!;
    assert.equal(doc.name, 'notes.txt');
    assert.equal(doc.type, 'text/plain');
    assert.equal(doc.size, 12);
    assert.equal(doc.content, 'hello upload');
    assert.equal(doc.hash, createHash('md5').update('hello upload').digest('hex'));
    assert.equal(doc.fieldName, 'doc');
    assert.ok(doc.dated);
    assert.ok(existsSync(doc.path));
  });

  test('several files in one field make an array', async () => {
    const res = await request(parsingApp())
      .post('/')
      .attach('pics', Buffer.from('a'), 'a.png')
      .attach('pics', Buffer.from('bb'), 'b.png')
      .expect(200);
    assert.equal((res.body as { files: { pics: { count: number } } }).files.pics.count, 2);
  });

  test('a multipart body over the limit is 413 entity.too.large', async () => {
    await request(parsingApp({ limit: 1000 }))
      .post('/')
      .attach('big', Buffer.alloc(5000, 'x'), 'big.bin')
      .expect(413, { type: 'entity.too.large' });
  });

  test('a malformed multipart body is a 400, and the server keeps serving', async () => {
    const app = parsingApp();
    await request(app).post('/').set('Content-Type', 'multipart/form-data; boundary=zzz').send('--zzz\r\nnot a header\r\n\r\n').expect(400);
    await request(app).post('/').type('json').send('{"ok":true}').expect(200);
  });

  test('an upload cut short mid-body gets no answer from the route and leaves the server serving', async () => {
    const app = parsingApp();
    const served = await serve(app);
    try {
      await new Promise<void>((resolve) => {
        const req = http.request({ host: '127.0.0.1', port: served.port, method: 'POST', path: '/', headers: { 'content-type': 'multipart/form-data; boundary=b', 'content-length': '10000' } });
        req.on('error', () => resolve());
        req.write('--b\r\nContent-Disposition: form-data; name="f"; filename="x.txt"\r\n\r\npartial', () => {
          req.destroy();
          resolve();
        });
      });
      await request(app).post('/').type('json').send('{"after":1}').expect(200, { body: { after: 1 }, files: {} });
    } finally {
      await served.close();
    }
  });
});

describe('legacy trestle.logger and trestle.static', () => {
  test('logger is logline', async () => {
    const lines: string[] = [];
    let seen!: () => void;
    const logged = new Promise<void>((resolve) => (seen = resolve));
    const stream = new Writable({
      write(chunk: Buffer, _enc, cb) {
        lines.push(chunk.toString());
        seen();
        cb();
      },
    });
    const app = legacy();
    app.use(legacy.logger(':method :url :status', { stream }));
    app.get('/logged', (_req, res) => res.send('x'));
    await request(app).get('/logged').expect(200);
    await logged;
    assert.deepEqual(lines, ['GET /logged 200\n']);
  });

  test('static serves files, with the legacy "." mount continuation', async () => {
    const app = legacy();
    app.use('/assets', legacy.static(join(__dirname, 'fixtures', 'tls')));
    const res = await request(app).get('/assets/cert.pem').expect(200);
    assert.match(res.text, /BEGIN CERTIFICATE/);
  });
});

describe('v4: middleware Express 4 stopped bundling', () => {
  test('asking for it throws an error that says where it went', () => {
    assert.throws(() => trestleV4.bodyParser, /Most middleware \(like bodyParser\) is no longer bundled with Express/);
    assert.throws(() => trestleV4.session, /like session/);
    assert.equal(typeof trestleV4.json, 'function');
    assert.equal(typeof trestleV4.static, 'function');
  });

  test('body parsers leave req.body as {} when they read nothing, as Express 4 does', async () => {
    const app = trestleV4();
    app.use(trestleV4.json());
    app.post('/', (req, res) => res.send(JSON.stringify(req.body)));
    await request(app).post('/').type('text/csv').send('a,b').expect('{}');
    await request(app).post('/').expect('{}');
    await request(app).post('/').type('json').send('{"x":1}').expect('{"x":1}');
  });
});
