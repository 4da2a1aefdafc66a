import assert from 'node:assert/strict';
import { readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { describe, test } from 'node:test';
import request from 'supertest';
import trestle, { type Application, type StaticOptions } from 'trestle';
import { rawRequest, serve } from './helpers';
import { reportError } from './middleware-helpers';


const ROOT = join(__dirname, 'fixtures', 'static', 'public');
const HELLO = join(ROOT, 'hello.txt');
const lastModified = (file: string) => statSync(file).mtime.toUTCString();
/** The reported error; send set a text type before failing, so the JSON comes as text. */
const reported = (res: { text: string }) => JSON.parse(res.text) as { name: string };

/** `trestle.static(ROOT, options)` (mounted on `mount`), then a visible fallthrough, then the error reporter. */
function staticApp(options?: StaticOptions, mount?: string): Application {
  const app = trestle();
  app.set('env', 'test');
  if (mount) app.use(mount, trestle.static(ROOT, options));
  else app.use(trestle.static(ROOT, options));
  app.use((req, res) => res.status(404).send(`fell through: ${req.method} ${req.url}`));
  app.use(reportError);
  return app;
}

/** Requests each literal path (no client-side normalising of `..`) and returns the answers. */
async function rawGets(app: Application, paths: string[]) {
  const server = await serve(app);
  try {
    const answers = [];
    for (const path of paths) answers.push(await rawRequest(server.port, 'GET', path));
    return answers;
  } finally {
    await server.close();
  }
}

describe('trestle.static(): serving files', () => {
  const app = staticApp();

  test('sends a file with its type, length and caching headers', async () => {
    const res = await request(app).get('/hello.txt').expect(200, 'hello world\n');
    assert.equal(res.headers['content-type'], 'text/plain; charset=utf-8');
    assert.equal(res.headers['content-length'], '12');
    assert.equal(res.headers['accept-ranges'], 'bytes');
    assert.equal(res.headers['cache-control'], 'public, max-age=0');
    assert.equal(res.headers['last-modified'], lastModified(HELLO));
    assert.match(res.headers.etag as string, /^W\/"c-[0-9a-f]+"$/);
  });

  test('HEAD sends the headers only', async () => {
    const res = await request(app).head('/hello.txt').expect(200);
    assert.equal(res.headers['content-length'], '12');
    assert.equal(res.text, undefined);
  });

  test('a 4 KiB file arrives whole; a query string is ignored; names are percent-decoded', async () => {
    const res = await request(app).get('/4k.txt?v=1').expect(200);
    assert.equal(res.text, readFileSync(join(ROOT, '4k.txt'), 'utf8'));
    await request(app).get('/with%20space.txt').expect(200, 'spaced\n');
  });

  test('a missing file, and methods other than GET and HEAD, fall through to next()', async () => {
    await request(app).get('/missing.txt').expect(404, 'fell through: GET /missing.txt');
    await request(app).post('/hello.txt').expect(404, 'fell through: POST /hello.txt');
    await request(app).delete('/hello.txt').expect(404, 'fell through: DELETE /hello.txt');
  });

  test('conditional GET: a matching ETag or date answers 304', async () => {
    const first = await request(app).get('/hello.txt').expect(200);
    const etag = first.headers.etag as string;
    await request(app).get('/hello.txt').set('If-None-Match', etag).expect(304, '');
    await request(app).get('/hello.txt').set('If-Modified-Since', lastModified(HELLO)).expect(304, '');
    await request(app).get('/hello.txt').set('If-None-Match', '"other"').expect(200, 'hello world\n');
  });

  test('a failed precondition is 412, passed to next(err) even with fallthrough', async () => {
    const res = await request(app).get('/hello.txt').set('If-Match', '"other"').expect(412);
    assert.equal(reported(res).name, 'PreconditionFailedError');
    await request(app).get('/hello.txt').set('If-Unmodified-Since', 'Thu, 01 Jan 1970 00:00:00 GMT').expect(412);
  });

  test('byte ranges: 206 with Content-Range, 416 when unsatisfiable', async () => {
    let res = await request(app).get('/digits.txt').set('Range', 'bytes=0-3').expect(206, '0123');
    assert.equal(res.headers['content-range'], 'bytes 0-3/10');
    assert.equal(res.headers['content-length'], '4');
    res = await request(app).get('/digits.txt').set('Range', 'bytes=-2').expect(206, '89');
    assert.equal(res.headers['content-range'], 'bytes 8-9/10');
    res = await request(app).get('/digits.txt').set('Range', 'bytes=100-200').expect(416);
    assert.equal(res.headers['content-range'], 'bytes */10');
    assert.equal(reported(res).name, 'RangeNotSatisfiableError');
    // Several ranges, another unit, or an If-Range that no longer matches: the whole file.
    await request(app).get('/digits.txt').set('Range', 'bytes=0-1,4-5').expect(200, '0123456789');
    await request(app).get('/digits.txt').set('Range', 'items=0-1').expect(200, '0123456789');
    await request(app).get('/digits.txt').set('Range', 'bytes=0-3').set('If-Range', '"old"').expect(200, '0123456789');
  });
});

describe('trestle.static(): directories', () => {
  const app = staticApp();
  const redirectPage = (location: string) =>
    `<!DOCTYPE html>\n<html lang="en">\n<head>\n<meta charset="utf-8">\n<title>Redirecting</title>\n</head>\n<body>\n<pre>Redirecting to ${location}</pre>\n</body>\n</html>\n`;

  test('index.html answers for a directory with a trailing slash', async () => {
    await request(app).get('/').expect(200, '<p>home</p>\n');
    await request(app).get('/sub/').expect(200, '<p>sub</p>\n');
    await request(app).get('/docs/').expect(404, 'fell through: GET /docs/');
  });

  test('a directory without its slash is redirected (301), keeping the query', async () => {
    const res = await request(app).get('/sub?x=1&y').expect(301);
    assert.equal(res.headers.location, '/sub/?x=1&y');
    assert.equal(res.text, redirectPage('/sub/?x=1&amp;y'));
    assert.equal(res.headers['content-type'], 'text/html; charset=UTF-8');
    assert.equal(res.headers['content-security-policy'], "default-src 'none'");
    assert.equal(res.headers['x-content-type-options'], 'nosniff');
    assert.equal(res.headers['content-length'], String(Buffer.byteLength(redirectPage('/sub/?x=1&amp;y'))));
  });

  test('leading slashes collapse, so the Location never names another host', async () => {
    const [answer] = await rawGets(app, ['//sub']);
    assert.equal(answer!.status, 301);
    assert.equal(answer!.headers.location, '/sub/');
  });

  test('mounted: the mount point itself redirects to its slash form', async () => {
    const mounted = staticApp(undefined, '/static');
    const res = await request(mounted).get('/static').expect(301);
    assert.equal(res.headers.location, '/static/');
    await request(mounted).get('/static/').expect(200, '<p>home</p>\n');
    await request(mounted).get('/static/sub').expect(301).expect('Location', '/static/sub/');
    await request(mounted).get('/static/hello.txt').expect(200, 'hello world\n');
  });

  test('redirect: false treats a directory without its slash as not found', async () => {
    await request(staticApp({ redirect: false })).get('/sub').expect(404, 'fell through: GET /sub');
  });

  test('index: false, a name, or a list tried in order', async () => {
    await request(staticApp({ index: false })).get('/').expect(404, 'fell through: GET /');
    await request(staticApp({ index: 'page.html' })).get('/sub/').expect(200, '<p>page</p>\n');
    const list = staticApp({ index: ['default.htm', 'index.html'] });
    await request(list).get('/docs/').expect(200, '<p>default</p>\n');
    await request(list).get('/').expect(200, '<p>home</p>\n');
  });
});

describe('trestle.static(): options', () => {
  test('dotfiles: ignored by default, even inside a dot directory', async () => {
    const app = staticApp();
    await request(app).get('/.hidden').expect(404, 'fell through: GET /.hidden');
    await request(app).get('/.dotdir/file.txt').expect(404, 'fell through: GET /.dotdir/file.txt');
  });

  test('dotfiles: allow serves them; deny refuses them with 403', async () => {
    // `.hidden` has no extension, so it comes as application/octet-stream: a Buffer to supertest.
    const hidden = await request(staticApp({ dotfiles: 'allow' })).get('/.hidden').expect(200);
    assert.equal(String(hidden.body), 'hidden\n');
    await request(staticApp({ dotfiles: 'allow' })).get('/.dotdir/file.txt').expect(200, 'in dotdir\n');
    const res = await request(staticApp({ dotfiles: 'deny', fallthrough: false })).get('/.dotdir/file.txt').expect(403);
    assert.equal(res.body.name, 'ForbiddenError');
    await request(staticApp({ dotfiles: 'deny' })).get('/.hidden').expect(404, 'fell through: GET /.hidden');
  });

  test('extensions are tried when the file is not found', async () => {
    const app = staticApp({ extensions: ['html', 'txt'] });
    await request(app).get('/about').expect(200, '<p>about</p>\n');
    await request(app).get('/hello').expect(200, 'hello world\n');
    await request(staticApp({ extensions: 'html' })).get('/sub/page').expect(200, '<p>page</p>\n');
    await request(staticApp()).get('/about').expect(404);
  });

  test('fallthrough: false answers other methods with 405 and passes 404s to next(err)', async () => {
    const app = staticApp({ fallthrough: false });
    const res = await request(app).post('/hello.txt').expect(405, '');
    assert.equal(res.headers.allow, 'GET, HEAD');
    assert.equal(res.headers['content-length'], '0');
    const missing = await request(app).get('/missing.txt').expect(404);
    assert.equal(missing.body.code, 'ENOENT');
    assert.equal(missing.body.status, 404);
    assert.equal(missing.body.expose, false);
    await request(staticApp({ fallthrough: false, redirect: false })).get('/sub').expect(404).expect((r) => assert.equal(r.body.name, 'NotFoundError'));
  });

  test('etag and lastModified can be turned off', async () => {
    const res = await request(staticApp({ etag: false, lastModified: false })).get('/hello.txt').expect(200);
    assert.equal(res.headers.etag, undefined);
    assert.equal(res.headers['last-modified'], undefined);
  });

  test('maxAge (ms or an ms string), immutable and cacheControl', async () => {
    let res = await request(staticApp({ maxAge: '1d', immutable: true })).get('/hello.txt').expect(200);
    assert.equal(res.headers['cache-control'], 'public, max-age=86400, immutable');
    res = await request(staticApp({ maxAge: 5000 })).get('/hello.txt').expect(200);
    assert.equal(res.headers['cache-control'], 'public, max-age=5');
    res = await request(staticApp({ cacheControl: false, maxAge: 5000 })).get('/hello.txt').expect(200);
    assert.equal(res.headers['cache-control'], undefined);
  });

  test('acceptRanges: false ignores Range and sends no Accept-Ranges', async () => {
    const res = await request(staticApp({ acceptRanges: false })).get('/digits.txt').set('Range', 'bytes=0-3').expect(200, '0123456789');
    assert.equal(res.headers['accept-ranges'], undefined);
  });

  test('setHeaders(res, path, stat) runs for the file being sent', async () => {
    const app = staticApp({
      setHeaders(res, path, stat) {
        res.setHeader('X-File', `${path}:${stat.size}`);
      },
    });
    await request(app).get('/hello.txt').expect(200).expect('X-File', `${HELLO}:12`);
    await request(app).get('/sub/').expect(200).expect('X-File', `${join(ROOT, 'sub', 'index.html')}:11`);
  });

  test('bad arguments are refused when the middleware is made', () => {
    assert.throws(() => trestle.static(undefined as unknown as string), { name: 'TypeError', message: 'root path required' });
    assert.throws(() => trestle.static(5 as unknown as string), { name: 'TypeError', message: 'root path must be a string' });
    assert.throws(() => trestle.static(ROOT, { setHeaders: 'x' as never }), { name: 'TypeError', message: 'option setHeaders must be function' });
  });
});

describe('trestle.static(): paths outside root', () => {
  const escapes = ['/../secret.txt', '/%2e%2e/secret.txt', '/sub/..%2f..%2fsecret.txt', '/sub/%2e%2e/%2e%2e/secret.txt', '/.%2e/secret.txt'];

  test('.. in any spelling is 403 and nothing outside root is read', async () => {
    const answers = await rawGets(staticApp({ fallthrough: false }), escapes);
    for (const [i, answer] of answers.entries()) {
      assert.equal(answer.status, 403, escapes[i]);
      assert.equal(JSON.parse(answer.body).name, 'ForbiddenError', escapes[i]);
      assert.doesNotMatch(answer.body, /top secret/);
    }
  });

  test('with fallthrough, an escape attempt just falls through', async () => {
    const answers = await rawGets(staticApp(), escapes);
    for (const [i, answer] of answers.entries()) {
      assert.equal(answer.status, 404, escapes[i]);
      assert.equal(answer.body, `fell through: GET ${escapes[i]}`);
    }
  });

  test('mounted, .. cannot climb out of root either', async () => {
    const [answer] = await rawGets(staticApp({ fallthrough: false }, '/static'), ['/static/../secret.txt']);
    assert.notEqual(answer!.status, 200);
    assert.doesNotMatch(answer!.body, /top secret/);
  });

  test('a .. that stays inside root is served', async () => {
    const [answer] = await rawGets(staticApp(), ['/sub/../hello.txt']);
    assert.equal(answer!.status, 200);
    assert.equal(answer!.body, 'hello world\n');
  });

  test('null bytes and malformed percent-encoding are 400', async () => {
    const paths = ['/hello.txt%00', '/%00/../secret.txt', '/%ZZ'];
    const answers = await rawGets(staticApp({ fallthrough: false }), paths);
    for (const [i, answer] of answers.entries()) {
      assert.equal(answer.status, 400, paths[i]);
      assert.equal(JSON.parse(answer.body).name, 'BadRequestError', paths[i]);
    }
  });
});
