import assert from 'node:assert/strict';
import { statSync, writeFileSync, mkdtempSync, rmSync } from 'node:fs';
import * as http from 'node:http';
import { tmpdir } from 'node:os';
import { join, relative } from 'node:path';
import { after, describe, test } from 'node:test';
import request from 'supertest';
import trestle, { type RequestHandler } from 'trestle';
import { serve } from './helpers';
import { appWith, FIXTURES, reportErrors } from './response-helpers';

const ALPHABET = join(FIXTURES, 'alphabet.txt');
const NAME = join(FIXTURES, 'name.txt');
const lastModifiedOf = (path: string) => statSync(path).mtime.toUTCString();
/** The reported error's status; send may have set a text type before it failed, so the JSON can come as text. */
const reportedStatus = (res: { text: string }) => (JSON.parse(res.text) as { status: number }).status;

/** Answers with what the sendFile/download callback received. */
function reportCallback(res: trestle.Response) {
  return (err?: Error) => {
    const e = err as (Error & { code?: string; status?: number }) | undefined;
    if (res.headersSent) return;
    res.status(299).json(e ? { message: e.message, code: e.code, status: e.status ?? null } : { ok: true });
  };
}

describe('res.sendFile', () => {
  test('streams the file with type, length, caching and validator headers', async () => {
    const res = await request(appWith((_req, res) => res.sendFile(ALPHABET))).get('/').expect(200, 'abcdefghijklmnopqrstuvwxyz');
    assert.equal(res.headers['content-type'], 'text/plain; charset=utf-8');
    assert.equal(res.headers['content-length'], '26');
    assert.equal(res.headers['accept-ranges'], 'bytes');
    assert.equal(res.headers['cache-control'], 'public, max-age=0');
    assert.equal(res.headers['last-modified'], lastModifiedOf(ALPHABET));
    assert.match(res.headers.etag as string, /^W\/"1a-[0-9a-f]+"$/);
  });

  test('HEAD sends the headers only', async () => {
    const res = await request(appWith((_req, res) => res.sendFile(ALPHABET))).head('/').expect(200);
    assert.equal(res.headers['content-length'], '26');
    assert.equal(res.text, undefined);
  });

  test('conditional GET: ETag and Last-Modified give 304', async () => {
    const app = appWith((_req, res) => res.sendFile(ALPHABET));
    const first = await request(app).get('/').expect(200);
    const etag = first.headers.etag as string;
    const byTag = await request(app).get('/').set('If-None-Match', etag).expect(304, '');
    assert.equal(byTag.headers.etag, etag);
    assert.equal(byTag.headers['content-length'], undefined);
    await request(app).get('/').set('If-Modified-Since', first.headers['last-modified'] as string).expect(304, '');
    await request(app).get('/').set('If-Modified-Since', 'Thu, 01 Jan 1970 00:00:00 GMT').expect(200);
    await request(app).get('/').set('If-None-Match', '"nope"').expect(200);
  });

  test('preconditions that fail are 412', async () => {
    const app = appWith((_req, res) => res.sendFile(ALPHABET));
    assert.equal(reportedStatus(await request(app).get('/').set('If-Match', '"nope"').expect(520)), 412);
    assert.equal(reportedStatus(await request(app).get('/').set('If-Unmodified-Since', 'Thu, 01 Jan 1970 00:00:00 GMT').expect(520)), 412);
  });

  describe('byte ranges', () => {
    const app = appWith((_req, res) => res.sendFile(ALPHABET));

    test('one range is 206 with Content-Range', async () => {
      const res = await request(app).get('/').set('Range', 'bytes=1-2').expect(206, 'bc');
      assert.equal(res.headers['content-range'], 'bytes 1-2/26');
      assert.equal(res.headers['content-length'], '2');
    });

    test('suffix and open-ended ranges', async () => {
      await request(app).get('/').set('Range', 'bytes=-3').expect(206, 'xyz');
      const open = await request(app).get('/').set('Range', 'bytes=24-').expect(206, 'yz');
      assert.equal(open.headers['content-range'], 'bytes 24-25/26');
    });

    test('an unsatisfiable range is 416 with the size, through next()', async () => {
      assert.equal(reportedStatus(await request(app).get('/').set('Range', 'bytes=30-40').expect(520)), 416);
      const plain = trestle();
      plain.get('/', (_req, res) => res.sendFile(ALPHABET));
      const page = await request(plain).get('/').set('Range', 'bytes=30-40').expect(416);
      assert.equal(page.headers['content-range'], 'bytes */26');
    });

    test('several ranges or a malformed one send the whole file', async () => {
      await request(app).get('/').set('Range', 'bytes=0-0,2-3').expect(200, 'abcdefghijklmnopqrstuvwxyz');
      await request(app).get('/').set('Range', 'lines=1-2').expect(200, 'abcdefghijklmnopqrstuvwxyz');
    });

    test('If-Range: the range only while the validator still matches', async () => {
      const etag = (await request(app).get('/')).headers.etag as string;
      await request(app).get('/').set('Range', 'bytes=0-1').set('If-Range', etag).expect(206, 'ab');
      await request(app).get('/').set('Range', 'bytes=0-1').set('If-Range', '"old"').expect(200, 'abcdefghijklmnopqrstuvwxyz');
    });

    test('acceptRanges: false ignores Range and omits Accept-Ranges', async () => {
      const res = await request(appWith((_req, res) => res.sendFile(ALPHABET, { acceptRanges: false })))
        .get('/')
        .set('Range', 'bytes=0-1')
        .expect(200, 'abcdefghijklmnopqrstuvwxyz');
      assert.equal(res.headers['accept-ranges'], undefined);
    });
  });

  describe('paths', () => {
    test('a relative path with root', async () => {
      await request(appWith((_req, res) => res.sendFile('name.txt', { root: FIXTURES }))).get('/').expect(200, 'tobi');
    });

    test('a relative path without root, an empty path or a non-string is a TypeError', async () => {
      const cases: Array<[RequestHandler, string, string]> = [
        [(_req, res) => res.sendFile('name.txt'), 'path must be absolute or specify root to res.sendFile', 'TRESTLE_ERR_INVALID_ARG_VALUE'],
        [(_req, res) => res.sendFile(''), 'path argument is required to res.sendFile', 'TRESTLE_ERR_MISSING_ARG'],
        [(_req, res) => res.sendFile(42 as unknown as string), 'path must be a string to res.sendFile', 'TRESTLE_ERR_INVALID_ARG_TYPE'],
      ];
      for (const [handler, message, code] of cases) {
        const res = await request(appWith(handler)).get('/').expect(520);
        assert.deepEqual(res.body, { name: 'TypeError', message, code });
      }
    });

    test('names with spaces and percent signs are files, not escapes', async () => {
      await request(appWith((_req, res) => res.sendFile(join(FIXTURES, 'with space.txt')))).get('/').expect(200, 'space');
      await request(appWith((_req, res) => res.sendFile(join(FIXTURES, 'pct%.txt')))).get('/').expect(200, 'pct');
    });

    test('path traversal out of root is 403, however it is spelled', async () => {
      const app = trestle();
      app.get('/one/:file', (req, res) => res.sendFile(req.params.file, { root: join(FIXTURES, 'sub') }));
      app.get('/many/*parts', (req, res) => res.sendFile((req.params.parts as string[]).join('/'), { root: join(FIXTURES, 'sub') }));
      app.use(reportErrors);
      for (const path of ['/one/..%2Fname.txt', '/one/%2e%2e%2fname.txt', '/many/x/..%2F..%2Fname.txt']) {
        const res = await request(app).get(path).expect(520);
        assert.equal(res.body.status, 403, path);
      }
      await request(app).get('/one/file.txt').expect(200, 'sub');
    });

    test('.. in an absolute path is 403; a NUL byte is 400', async () => {
      const up = await request(appWith((_req, res) => res.sendFile(join(FIXTURES, 'sub') + '/../name.txt'))).get('/').expect(520);
      assert.equal(up.body.status, 403);
      const nul = await request(appWith((_req, res) => res.sendFile('a\0b', { root: FIXTURES }))).get('/').expect(520);
      assert.equal(nul.body.status, 400);
    });
  });

  describe('errors', () => {
    test('a missing file is a 404 error for next()', async () => {
      const res = await request(appWith((_req, res) => res.sendFile(join(FIXTURES, 'nope.txt')))).get('/').expect(520);
      assert.equal(res.body.status, 404);
      assert.equal(res.body.code, 'ENOENT');
      const plain = trestle();
      plain.set('env', 'production');
      plain.get('/', (_req, res) => res.sendFile(join(FIXTURES, 'nope.txt')));
      await request(plain).get('/').expect(404, /Not Found/);
    });

    test('with a callback, the callback gets the error and nothing is sent', async () => {
      const res = await request(appWith((_req, res) => res.sendFile(join(FIXTURES, 'nope.txt'), reportCallback(res)))).get('/').expect(299);
      assert.equal(res.body.code, 'ENOENT');
      assert.equal(res.body.status, 404);
    });

    test('a directory: next() without error, or EISDIR for a callback', async () => {
      const app = trestle();
      app.set('env', 'test');
      app.get('/', (_req, res) => res.sendFile(join(FIXTURES, 'sub')));
      await request(app).get('/').expect(404, /Cannot GET \//);
      const res = await request(appWith((_req, res) => res.sendFile(join(FIXTURES, 'sub'), reportCallback(res)))).get('/').expect(299);
      assert.deepEqual(res.body, { message: 'EISDIR, read', code: 'EISDIR', status: null });
    });

    test('a directory path ending in / serves its index.html', async () => {
      const res = await request(appWith((_req, res) => res.sendFile(join(FIXTURES, 'sub') + '/'))).get('/').expect(200, 'index');
      assert.equal(res.headers['content-type'], 'text/html; charset=utf-8');
    });

    test('the callback hears of success after the file was sent', async () => {
      let heard: unknown = 'not called';
      const app = appWith((_req, res) => res.sendFile(NAME, (err) => (heard = err)));
      await request(app).get('/').expect(200, 'tobi');
      assert.equal(heard, undefined);
    });

    test('a client that leaves mid-file: ECONNABORTED for the callback', async () => {
      const dir = mkdtempSync(join(tmpdir(), 'trestle-sendfile-'));
      after(() => rmSync(dir, { recursive: true, force: true }));
      const big = join(dir, 'big.bin');
      writeFileSync(big, Buffer.alloc(32 * 1024 * 1024, 1));
      let resolveHeard!: (e: unknown) => void;
      const heard = new Promise((r) => (resolveHeard = r));
      const app = trestle();
      app.get('/', (_req, res) => res.sendFile(big, (err) => resolveHeard(err)));
      const served = await serve(app);
      try {
        await new Promise<void>((resolve, reject) => {
          const req = http.get({ host: '127.0.0.1', port: served.port, path: '/', agent: false }, (res) => {
            res.destroy();
            resolve();
          });
          req.on('error', reject);
        });
        const err = (await heard) as NodeJS.ErrnoException;
        assert.equal(err.code, 'ECONNABORTED');
        assert.equal(err.message, 'Request aborted');
      } finally {
        await served.close();
      }
    });
  });

  describe('dotfiles', () => {
    test('ignored (404) by default, denied (403) or allowed on request', async () => {
      const app = trestle();
      app.get('/ignore', (_req, res) => res.sendFile(join(FIXTURES, '.dotfile')));
      app.get('/deny', (_req, res) => res.sendFile(join(FIXTURES, '.dotfile'), { dotfiles: 'deny' }));
      app.get('/allow', (_req, res) => res.sendFile(join(FIXTURES, '.dotfile'), { dotfiles: 'allow' }));
      app.get('/in-dot-dir', (_req, res) => res.sendFile('.hidden/file.txt', { root: FIXTURES }));
      app.get('/root-is-dot-dir', (_req, res) => res.sendFile('file.txt', { root: join(FIXTURES, '.hidden') }));
      app.use(reportErrors);
      assert.equal((await request(app).get('/ignore').expect(520)).body.status, 404);
      assert.equal((await request(app).get('/deny').expect(520)).body.status, 403);
      await request(app).get('/allow').expect(200);
      assert.equal((await request(app).get('/in-dot-dir').expect(520)).body.status, 404);
      await request(app).get('/root-is-dot-dir').expect(200, 'hidden');
    });
  });

  describe('options', () => {
    test('maxAge (milliseconds or a string) and immutable', async () => {
      const ms = await request(appWith((_req, res) => res.sendFile(NAME, { maxAge: 5000 }))).get('/');
      assert.equal(ms.headers['cache-control'], 'public, max-age=5');
      const str = await request(appWith((_req, res) => res.sendFile(NAME, { maxAge: '1d', immutable: true }))).get('/');
      assert.equal(str.headers['cache-control'], 'public, max-age=86400, immutable');
    });

    test('cacheControl, lastModified and etag can be turned off', async () => {
      const res = await request(appWith((_req, res) => res.sendFile(NAME, { cacheControl: false, lastModified: false, etag: false }))).get('/').expect(200, 'tobi');
      assert.equal(res.headers['cache-control'], undefined);
      assert.equal(res.headers['last-modified'], undefined);
      assert.equal(res.headers.etag, undefined);
    });

    test('the etag setting decides by default; the option wins over it', async () => {
      const off = await request(appWith((_req, res) => res.sendFile(NAME), (app) => app.set('etag', false))).get('/');
      assert.equal(off.headers.etag, undefined);
      const on = await request(appWith((_req, res) => res.sendFile(NAME, { etag: true }), (app) => app.set('etag', false))).get('/');
      assert.match(on.headers.etag as string, /^W\//);
    });

    test('headers are added and win over the computed ones', async () => {
      const res = await request(
        appWith((_req, res) => res.sendFile(NAME, { headers: { 'X-Extra': 'yes', 'Cache-Control': 'no-store', 'Content-Type': 'text/x-name' } })),
      ).get('/');
      assert.equal(res.headers['x-extra'], 'yes');
      assert.equal(res.headers['cache-control'], 'no-store');
      assert.equal(res.headers['content-type'], 'text/x-name');
    });

    test('a header value with CR/LF is an error for next(), and the server keeps serving', async () => {
      const app = appWith((req, res) => {
        if (req.query.bad) res.sendFile(NAME, { headers: { 'X-A': 'b\r\nSet-Cookie: evil=1' } });
        else res.sendFile(NAME);
      });
      const res = await request(app).get('/?bad=1').expect(520);
      assert.equal(res.body.code, 'ERR_INVALID_CHAR');
      assert.equal(res.headers['set-cookie'], undefined);
      await request(app).get('/').expect(200, 'tobi');
    });
  });
});

describe('res.download', () => {
  test('an attachment named after the file', async () => {
    const res = await request(appWith((_req, res) => res.download(NAME))).get('/').expect(200, 'tobi');
    assert.equal(res.headers['content-disposition'], 'attachment; filename=name.txt');
    assert.equal(res.headers['content-type'], 'text/plain; charset=utf-8');
    assert.equal(res.headers['accept-ranges'], 'bytes');
  });

  test('a filename of its own, non-ASCII included', async () => {
    const res = await request(appWith((_req, res) => res.download(NAME, 'résumé.txt'))).get('/').expect(200, 'tobi');
    assert.equal(res.headers['content-disposition'], `attachment; filename="r?sum?.txt"; filename*=UTF-8''r%C3%A9sum%C3%A9.txt`);
  });

  test('options: root, headers (a Content-Disposition among them is ignored)', async () => {
    const res = await request(
      appWith((_req, res) => res.download('name.txt', 'x.json', { root: FIXTURES, headers: { 'content-disposition': 'inline', 'X-A': '1' } })),
    ).get('/');
    assert.equal(res.headers['content-disposition'], 'attachment; filename=x.json');
    assert.equal(res.headers['x-a'], '1');
    assert.equal(res.headers['content-type'], 'text/plain; charset=utf-8');
  });

  test('download(path, options) and download(path, options, callback)', async () => {
    const res = await request(appWith((_req, res) => res.download('name.txt', { root: FIXTURES, headers: { 'X-B': '2' } }))).get('/').expect(200, 'tobi');
    assert.equal(res.headers['content-disposition'], 'attachment; filename=name.txt');
    assert.equal(res.headers['x-b'], '2');
    let heard: unknown = 'not called';
    await request(appWith((_req, res) => res.download(NAME, { headers: { 'X-B': '2' } }, (err) => (heard = err)))).get('/').expect(200, 'tobi');
    assert.equal(heard, undefined);
  });

  test('download(path, null, callback) and download(path, callback) with a missing file', async () => {
    const ok = await request(appWith((_req, res) => res.download(NAME, null, {}, reportCallback(res)))).get('/').expect(200);
    assert.equal(ok.headers['content-disposition'], 'attachment; filename=name.txt');
    const missing = await request(appWith((_req, res) => res.download(join(FIXTURES, 'nope.txt'), reportCallback(res)))).get('/').expect(299);
    assert.equal(missing.body.code, 'ENOENT');
  });

  test('a relative path without root is resolved from the working directory', async () => {
    const rel = relative(process.cwd(), NAME);
    await request(appWith((_req, res) => res.download(rel))).get('/').expect(200, 'tobi');
  });
});
