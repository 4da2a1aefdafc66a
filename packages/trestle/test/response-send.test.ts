import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import etag from 'etag';
import request from 'supertest';
import trestle from 'trestle';
import { appWith } from './response-helpers';

// Weak ETag of the three bytes "abc", as the etag package computes it.
const ABC_ETAG = 'W/"3-qZk+NkcGgWq6PiVxeFDCbJzQ2J0"';

describe('res.send bodies', () => {
  test('a string is HTML in UTF-8, its length counted in bytes', async () => {
    const res = await request(appWith((_req, res) => res.send('héllo ☃'))).get('/').expect(200, 'héllo ☃');
    assert.equal(res.headers['content-type'], 'text/html; charset=utf-8');
    assert.equal(res.headers['content-length'], String(Buffer.byteLength('héllo ☃')));
  });

  test('a string keeps the type already set, which gains charset=utf-8 (normalised)', async () => {
    const plain = await request(appWith((_req, res) => res.type('txt').send('x'))).get('/');
    assert.equal(plain.headers['content-type'], 'text/plain; charset=utf-8');
    const latin = await request(appWith((_req, res) => res.set('Content-Type', 'text/html; charset=latin1').send('x'))).get('/');
    assert.equal(latin.headers['content-type'], 'text/html; charset=utf-8');
    const params = await request(appWith((_req, res) => res.type('Text/Plain; Foo="bar"; a=b').send('x'))).get('/');
    assert.equal(params.headers['content-type'], 'text/plain; foo=bar; a=b; charset=utf-8');
  });

  test('a Buffer is octet-stream unless a type is set', async () => {
    const res = await request(appWith((_req, res) => res.send(Buffer.from('abc')))).get('/');
    assert.equal(res.headers['content-type'], 'application/octet-stream');
    assert.equal(res.headers['content-length'], '3');
    assert.equal(res.headers.etag, ABC_ETAG);
    assert.equal(Buffer.from(res.body as Buffer).toString(), 'abc');
    const typed = await request(appWith((_req, res) => res.type('txt').send(Buffer.from('abc')))).get('/').expect('abc');
    assert.equal(typed.headers['content-type'], 'text/plain; charset=utf-8');
  });

  test('a Uint8Array is sent as its bytes', async () => {
    const res = await request(appWith((_req, res) => res.type('txt').send(new Uint8Array([65, 66, 67])))).get('/').expect('ABC');
    assert.equal(res.headers['content-length'], '3');
  });

  test('null is an empty body with no type; a type already set is left as it is', async () => {
    const res = await request(appWith((_req, res) => res.send(null))).get('/').expect(200, '');
    assert.equal(res.headers['content-length'], '0');
    assert.equal(res.headers['content-type'], undefined);
    const typed = await request(appWith((_req, res) => res.type('application/json;charset=UTF-8').send(null))).get('/');
    assert.equal(typed.headers['content-type'], 'application/json;charset=UTF-8');
  });

  test('a Content-Type that cannot be parsed is an error for next() when a string is sent', async () => {
    const app = trestle();
    app.set('env', 'test');
    app.get('/', (_req, res) => res.type('a/b/c').send('x'));
    await request(app).get('/').expect(500, /TypeError: Invalid type: a\/b\/c/);
  });

  test('no argument sends no body (node writes Content-Length: 0) and no ETag', async () => {
    const res = await request(appWith((_req, res) => res.send())).get('/').expect(200, '');
    assert.equal(res.headers['content-length'], '0');
    assert.equal(res.headers.etag, undefined);
  });

  test('numbers, booleans, objects and arrays are JSON', async () => {
    const cases: Array<[unknown, string]> = [
      [201, '201'],
      [true, 'true'],
      [{ a: 1 }, '{"a":1}'],
      [[1, 'b'], '[1,"b"]'],
    ];
    for (const [value, text] of cases) {
      const res = await request(appWith((_req, res) => res.send(value))).get('/').expect(200);
      assert.equal(res.text, text);
      assert.equal(res.headers['content-type'], 'application/json; charset=utf-8');
    }
  });

  test('HEAD gets the headers of GET and no body', async () => {
    const app = appWith((_req, res) => res.send('héllo'));
    const get = await request(app).get('/').expect(200);
    const res = await request(app).head('/').expect(200);
    assert.equal(res.headers['content-length'], String(Buffer.byteLength('héllo')));
    assert.equal(res.headers['content-type'], 'text/html; charset=utf-8');
    assert.equal(res.headers.etag, get.headers.etag);
    assert.equal(res.text, undefined);
  });

  test('204 and 304 drop the body and its headers', async () => {
    for (const status of [204, 304]) {
      const res = await request(appWith((_req, res) => res.status(status).set('Transfer-Encoding', 'chunked').type('txt').send('abc'))).get('/');
      assert.equal(res.status, status);
      assert.equal(res.headers['content-type'], undefined);
      assert.equal(res.headers['content-length'], undefined);
      assert.equal(res.headers['transfer-encoding'], undefined);
      assert.equal(res.text, '');
    }
  });

  test('205 sends Content-Length 0 and no body', async () => {
    const res = await request(appWith((_req, res) => res.status(205).send('abc'))).get('/').expect(205);
    assert.equal(res.headers['content-length'], '0');
    assert.equal(res.text, '');
  });
});

describe('res.send ETag and conditional GET', () => {
  test('a weak ETag by default', async () => {
    const res = await request(appWith((_req, res) => res.send('abc'))).get('/');
    assert.equal(res.headers.etag, ABC_ETAG);
  });

  test('a strong ETag, none, or one from a function, per the etag setting', async () => {
    const strong = await request(appWith((_req, res) => res.send('abc'), (app) => app.set('etag', 'strong'))).get('/');
    assert.equal(strong.headers.etag, '"3-qZk+NkcGgWq6PiVxeFDCbJzQ2J0"');
    const off = await request(appWith((_req, res) => res.send('abc'), (app) => app.set('etag', false))).get('/');
    assert.equal(off.headers.etag, undefined);
    const custom = await request(
      appWith(
        (_req, res) => res.send('abc'),
        (app) => app.set('etag', (body, encoding) => `"${Buffer.isBuffer(body) ? 'buffer' : 'string'}-${body.length}-${String(encoding)}"`),
      ),
    ).get('/');
    assert.equal(custom.headers.etag, '"buffer-3-undefined"');
  });

  test('every body gets the etag package\'s ETag, byte for byte, each time it is sent', async () => {
    // Strings (ASCII, Latin-1, multi-byte, astral, a lone surrogate, empty,
    // around the lengths where send() changes how it writes) and Buffers,
    // each sent twice: nothing remembered from one answer may leak into another.
    const strings = ['', 'a', 'b', 'ab', 'é', 'café', '日本', '😀', 'a\uD800b', '\u0000\u007f\u0080\u00ff', '{"id":1}', '{"id":2}'];
    for (const n of [255, 256, 257, 999, 1000, 1001, 4000]) strings.push('x'.repeat(n - 1) + 'é'.slice(0, n % 2));
    const buffers = [Buffer.alloc(0), Buffer.from([0]), Buffer.from([0xff, 0xfe, 0x00, 0x80]), Buffer.from('abc'), Buffer.alloc(3000, 7)];
    const bodies: Array<string | Buffer> = [...strings, ...buffers];
    for (const weak of [true, false]) {
      const app = trestle();
      app.set('etag', weak ? 'weak' : 'strong');
      app.get('/:n', (req, res) => res.send(bodies[Number(req.params.n)]));
      for (let round = 0; round < 2; round++) {
        for (let n = 0; n < bodies.length; n++) {
          const res = await request(app).get(`/${n}`).expect(200);
          assert.equal(res.headers.etag, etag(bodies[n]!, { weak }), `body ${n}, round ${round}, weak ${weak}`);
        }
      }
    }
  });

  test('an ETag the handler set is kept', async () => {
    const res = await request(appWith((_req, res) => res.set('ETag', '"mine"').send('abc'))).get('/');
    assert.equal(res.headers.etag, '"mine"');
  });

  test('a matching If-None-Match gets 304 without body or content headers', async () => {
    const app = appWith((_req, res) => res.send('abc'));
    for (const tag of [ABC_ETAG, '*', `"other", ${ABC_ETAG}`]) {
      const res = await request(app).get('/').set('If-None-Match', tag).expect(304);
      assert.equal(res.text, '');
      assert.equal(res.headers['content-type'], undefined);
      assert.equal(res.headers['content-length'], undefined);
      assert.equal(res.headers.etag, ABC_ETAG);
    }
    await request(app).get('/').set('If-None-Match', '"other"').expect(200, 'abc');
  });

  test('HEAD is conditional too', async () => {
    await request(appWith((_req, res) => res.send('abc'))).head('/').set('If-None-Match', ABC_ETAG).expect(304);
  });

  test('Cache-Control: no-cache, a non-2xx status or a POST always get the body', async () => {
    await request(appWith((_req, res) => res.send('abc')))
      .get('/')
      .set('If-None-Match', ABC_ETAG)
      .set('Cache-Control', 'no-cache')
      .expect(200, 'abc');
    await request(appWith((_req, res) => res.status(404).send('abc'))).get('/').set('If-None-Match', '*').expect(404, 'abc');
    const app = trestle();
    app.post('/', (_req, res) => res.send('abc'));
    await request(app).post('/').set('If-None-Match', '*').expect(200, 'abc');
  });

  test('Last-Modified against If-Modified-Since', async () => {
    const app = appWith((_req, res) => res.set('Last-Modified', 'Wed, 21 Oct 2015 07:28:00 GMT').send('abc'), (a) => a.set('etag', false));
    await request(app).get('/').set('If-Modified-Since', 'Wed, 21 Oct 2015 07:28:00 GMT').expect(304, '');
    await request(app).get('/').set('If-Modified-Since', 'Wed, 21 Oct 2015 07:27:59 GMT').expect(200, 'abc');
  });

  test('a long body is measured and tagged the same way', async () => {
    const body = 'é'.repeat(3000);
    const res = await request(appWith((_req, res) => res.send(body))).get('/').expect(200, body);
    assert.equal(res.headers['content-length'], '6000');
    assert.match(res.headers.etag as string, /^W\/"1770-/);
  });
});

describe('res.json', () => {
  test('sends JSON with its type; a type already set is kept', async () => {
    const res = await request(appWith((_req, res) => res.json({ a: '<b>&' }))).get('/').expect(200, '{"a":"<b>&"}');
    assert.equal(res.headers['content-type'], 'application/json; charset=utf-8');
    const typed = await request(appWith((_req, res) => res.type('application/vnd.api+json').json({ a: 1 }))).get('/');
    assert.equal(typed.headers['content-type'], 'application/vnd.api+json; charset=utf-8');
  });

  test('null and strings are JSON values; undefined sends no body', async () => {
    await request(appWith((_req, res) => res.json(null))).get('/').expect(200, 'null');
    await request(appWith((_req, res) => res.json('x'))).get('/').expect(200, '"x"');
    const res = await request(appWith((_req, res) => res.json(undefined))).get('/').expect(200, '');
    assert.equal(res.headers['content-type'], 'application/json; charset=utf-8');
    assert.equal(res.headers['content-length'], '0');
  });

  test('json spaces: 2 in development, 0 otherwise, or as set', async () => {
    const body = { a: 1 };
    await request(appWith((_req, res) => res.json(body), (app) => app.set('env', 'development'))).get('/').expect('{\n  "a": 1\n}');
    await request(appWith((_req, res) => res.json(body), (app) => app.set('env', 'production'))).get('/').expect('{"a":1}');
    await request(appWith((_req, res) => res.json(body), (app) => app.set('env', 'test'))).get('/').expect('{"a":1}');
    await request(appWith((_req, res) => res.json(body), (app) => app.set('json spaces', '\t'))).get('/').expect('{\n\t"a": 1\n}');
    await request(appWith((_req, res) => res.json(body), (app) => app.set('env', 'development').set('json spaces', 0))).get('/').expect('{"a":1}');
  });

  test('json replacer and json escape', async () => {
    const app = appWith(
      (_req, res) => res.json({ a: '<b>&</b>', secret: 1 }),
      (a) => {
        a.set('json replacer', (key: string, value: unknown) => (key === 'secret' ? undefined : value));
        a.set('json escape', true);
      },
    );
    await request(app).get('/').expect('{"a":"\\u003cb\\u003e\\u0026\\u003c/b\\u003e"}');
  });
});

describe('res.jsonp', () => {
  const payload = { a: '\u2028x\u2029' };
  const app = trestle();
  app.get('/', (_req, res) => res.jsonp(payload));
  app.get('/undefined', (_req, res) => res.jsonp(undefined));
  app.get('/typed', (_req, res) => res.type('text/plain').jsonp({ a: 1 }));

  test('without a callback: JSON with nosniff', async () => {
    const res = await request(app).get('/').expect(200, '{"a":"\u2028x\u2029"}');
    assert.equal(res.headers['content-type'], 'application/json; charset=utf-8');
    assert.equal(res.headers['x-content-type-options'], 'nosniff');
  });

  test('with a callback: a guarded call, as text/javascript with nosniff', async () => {
    const res = await request(app).get('/?callback=handle').expect(200);
    assert.equal(res.text, `/**/ typeof handle === 'function' && handle({"a":"\\u2028x\\u2029"});`);
    assert.equal(res.headers['content-type'], 'text/javascript; charset=utf-8');
    assert.equal(res.headers['x-content-type-options'], 'nosniff');
  });

  test('the callback name is stripped to identifier characters', async () => {
    const kept = await request(app).get('/?callback=foo.bar[0]$_').expect(200);
    assert.ok(kept.text.startsWith(`/**/ typeof foo.bar[0]$_ === 'function' && foo.bar[0]$_(`));
    const stripped = await request(app).get(`/?callback=${encodeURIComponent('<script>alert(1)</script>')}`);
    assert.match(stripped.text, /^\/\*\*\/ typeof scriptalert1script === 'function' && scriptalert1script\(/);
  });

  test('the first of several callbacks; an empty or non-string one means plain JSON', async () => {
    assert.match((await request(app).get('/?callback=a&callback=b')).text, /^\/\*\*\/ typeof a === /);
    const empty = await request(app).get('/?callback=');
    assert.equal(empty.headers['content-type'], 'application/json; charset=utf-8');
    const extended = trestle();
    extended.set('query parser', 'extended');
    extended.get('/', (_req, res) => res.jsonp({ a: 1 }));
    await request(extended).get('/?callback[a]=x').expect('{"a":1}');
  });

  test('undefined calls the callback with no argument', async () => {
    await request(app).get('/undefined?callback=cb').expect(`/**/ typeof cb === 'function' && cb();`);
    await request(app).get('/undefined').expect(200, '');
  });

  test('a type set earlier stays without a callback and is replaced with one', async () => {
    const plain = await request(app).get('/typed');
    assert.equal(plain.headers['content-type'], 'text/plain; charset=utf-8');
    assert.equal(plain.headers['x-content-type-options'], undefined);
    const script = await request(app).get('/typed?callback=x');
    assert.equal(script.headers['content-type'], 'text/javascript; charset=utf-8');
  });

  test('the jsonp callback name setting and json escape apply', async () => {
    const named = trestle();
    named.set('jsonp callback name', 'cb');
    named.set('json escape', true);
    named.get('/', (_req, res) => res.jsonp({ a: '<' }));
    await request(named).get('/?cb=x').expect(`/**/ typeof x === 'function' && x({"a":"\\u003c"});`);
    await request(named).get('/?callback=x').expect('{"a":"\\u003c"}');
  });

  test('HEAD answers the headers only', async () => {
    const res = await request(app).head('/?callback=foo').expect(200);
    assert.equal(res.headers['content-type'], 'text/javascript; charset=utf-8');
    assert.equal(res.headers['content-length'], '61');
  });
});

describe('res.sendStatus', () => {
  test('sends the status message as plain text', async () => {
    const res = await request(appWith((_req, res) => res.sendStatus(201))).get('/').expect(201, 'Created');
    assert.equal(res.headers['content-type'], 'text/plain; charset=utf-8');
  });

  test('an unknown code sends its number; 204 sends nothing', async () => {
    await request(appWith((_req, res) => res.sendStatus(599))).get('/').expect(599, '599');
    const none = await request(appWith((_req, res) => res.sendStatus(204))).get('/').expect(204, '');
    assert.equal(none.headers['content-type'], undefined);
  });

  test('an invalid code is a RangeError', async () => {
    const res = await request(appWith((_req, res) => res.sendStatus(42))).get('/').expect(520);
    assert.equal(res.body.name, 'RangeError');
  });
});
