import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import request from 'supertest';
import trestle from 'trestle';
import { appWith, reportErrors } from './response-helpers';

describe('res.redirect', () => {
  const app = appWith((_req, res) => res.redirect('/a b?<x>&"y"'));
  const LOCATION = '/a%20b?%3Cx%3E&%22y%22';

  test('302 by default, Location encoded, text body when nothing says otherwise', async () => {
    const res = await request(app).get('/').expect(302);
    assert.equal(res.headers.location, LOCATION);
    assert.equal(res.headers.vary, 'Accept');
    assert.equal(res.headers['content-type'], 'text/plain; charset=utf-8');
    assert.equal(res.text, `Found. Redirecting to ${LOCATION}`);
    assert.equal(res.headers['content-length'], String(res.text.length));
  });

  test('an HTML body, escaped, for clients that want HTML', async () => {
    const res = await request(app).get('/').set('Accept', 'text/html').expect(302);
    assert.equal(res.headers['content-type'], 'text/html; charset=utf-8');
    assert.equal(
      res.text,
      `<!DOCTYPE html><head><title>Found</title></head><body><p>Found. Redirecting to /a%20b?%3Cx%3E&amp;%22y%22</p></body>`,
    );
  });

  test('an empty body for clients that accept neither', async () => {
    const res = await request(app).get('/').set('Accept', 'application/json').expect(302, '');
    assert.equal(res.headers['content-type'], undefined);
    assert.equal(res.headers['content-length'], '0');
  });

  test('HEAD: the headers, no body', async () => {
    const res = await request(app).head('/').set('Accept', 'text/html').expect(302);
    assert.equal(res.headers['content-length'], '116');
    assert.equal(res.text, undefined);
  });

  test('redirect(status, url)', async () => {
    const res = await request(appWith((_req, res) => res.redirect(301, 'http://example.com/ä'))).get('/').expect(301);
    assert.equal(res.headers.location, 'http://example.com/%C3%A4');
    assert.equal(res.text, 'Moved Permanently. Redirecting to http://example.com/%C3%A4');
  });

  test('a status without a message says undefined, as Express does', async () => {
    await request(appWith((_req, res) => res.redirect(399, '/x'))).get('/').expect(399, 'undefined. Redirecting to /x');
  });

  test('an invalid status is an error for next()', async () => {
    // The redirect had set its text type by then, so the report comes as text.
    const res = await request(appWith((_req, res) => res.redirect(1000, '/x'))).get('/').expect(520);
    assert.equal(JSON.parse(res.text).name, 'RangeError');
    const swapped = await request(appWith((_req, res) => (res.redirect as (a: unknown, b: unknown) => void)('/x', 301))).get('/').expect(520);
    assert.equal(JSON.parse(swapped.text).name, 'TypeError');
  });

  test('v5: "back" is not the Referer', async () => {
    const res = await request(appWith((_req, res) => res.redirect('back'))).get('/').set('Referer', '/from').expect(302);
    assert.equal(res.headers.location, 'back');
  });

  test('markup in a URL cannot reach the HTML body unescaped', async () => {
    const res = await request(appWith((_req, res) => res.redirect('javascript:alert(1)<script>'))).get('/').set('Accept', 'text/html');
    assert.equal(res.headers.location, 'javascript:alert(1)%3Cscript%3E');
    assert.ok(!res.text.includes('<script>'));
  });
});

describe('res.format', () => {
  const app = trestle();
  app.get('/', (_req, res) =>
    res.format({
      text: () => res.send('text'),
      'application/json': () => res.send({ kind: 'json' }),
      html: () => res.send('<p>html</p>'),
    }),
  );
  app.get('/default', (_req, res) =>
    res.format({
      json: () => res.send({ kind: 'json' }),
      default: () => res.status(406).send('nothing fits'),
    }),
  );
  app.get('/q', (_req, res) => res.format({ 'text/plain; q=0.5': () => res.send('t'), json: () => res.send({}), foo: () => res.send('x') }));
  app.use(reportErrors);

  test('the first key when Accept is absent, with its Content-Type and Vary: Accept', async () => {
    const res = await request(app).get('/').expect(200, 'text');
    assert.equal(res.headers['content-type'], 'text/plain; charset=utf-8');
    assert.equal(res.headers.vary, 'Accept');
  });

  test('the best match for the Accept header, by extension or media type key', async () => {
    const html = await request(app).get('/').set('Accept', 'text/html').expect(200, '<p>html</p>');
    assert.equal(html.headers['content-type'], 'text/html; charset=utf-8');
    const json = await request(app).get('/').set('Accept', 'text/*;q=0.5, application/*').expect(200, '{"kind":"json"}');
    assert.equal(json.headers['content-type'], 'application/json; charset=utf-8');
  });

  test('default when nothing matches', async () => {
    await request(app).get('/default').set('Accept', 'image/png').expect(406, 'nothing fits');
  });

  test('otherwise a 406 error for next(), listing the types on offer', async () => {
    const res = await request(app).get('/q').set('Accept', 'image/png').expect(520);
    assert.deepEqual(res.body, {
      name: 'NotAcceptableError',
      message: 'Not Acceptable',
      code: 'TRESTLE_ERR_NOT_ACCEPTABLE',
      status: 406,
      types: ['text/plain', 'application/json', 'application/octet-stream'],
    });
    assert.equal(res.headers.vary, 'Accept');
  });

  test('the default error page answers that 406', async () => {
    const plain = trestle();
    plain.set('env', 'production');
    plain.get('/', (_req, res) => res.format({ json: () => res.send({}) }));
    const res = await request(plain).get('/').set('Accept', 'image/png').expect(406);
    assert.match(res.text, /<pre>Not Acceptable<\/pre>/);
  });

  test('Vary: Accept is added to an existing Vary', async () => {
    const res = await request(appWith((_req, res) => res.vary('Origin').format({ json: () => res.send({}) }))).get('/');
    assert.equal(res.headers.vary, 'Origin, Accept');
  });
});
