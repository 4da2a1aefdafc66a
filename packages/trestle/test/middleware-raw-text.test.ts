import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import request from 'supertest';
import trestle from 'trestle';
import { asIs, echoApp, type Reported } from './middleware-helpers';

const OCTETS = 'application/octet-stream';

describe('trestle.raw()', () => {
  const app = echoApp(trestle.raw());

  test('the body as a Buffer', async () => {
    await request(app).post('/').type(OCTETS).send(Buffer.from([0, 1, 254, 255])).expect(200, { body: '0001feff', kind: 'buffer', has: true });
  });

  test('an empty body is an empty Buffer; another type leaves req.body undefined', async () => {
    await request(app).post('/').set('Content-Type', OCTETS).set('Content-Length', '0').expect(200, { body: '', kind: 'buffer', has: true });
    await request(app).post('/').type('text/plain').send('abc').expect(200, { body: null, kind: 'undefined', has: true });
  });

  test('a charset parameter changes nothing: the bytes stay bytes', async () => {
    await request(app).post('/').type(`${OCTETS}; charset=bogus`).send(Buffer.from('abc')).expect(200, { body: '616263', kind: 'buffer', has: true });
  });

  test('type: */* takes any request with a type', async () => {
    const any = echoApp(trestle.raw({ type: '*/*' }));
    await request(any).post('/').type('image/png').send(Buffer.from([137, 80])).expect(200, { body: '8950', kind: 'buffer', has: true });
  });

  test('limit counts bytes', async () => {
    const four = echoApp(trestle.raw({ limit: 4 }));
    await request(four).post('/').type(OCTETS).send(Buffer.from('abcd')).expect(200, { body: '61626364', kind: 'buffer', has: true });
    const res = await request(four).post('/').type(OCTETS).send(Buffer.from('abcde')).expect(413);
    assert.equal((res.body as Reported).type, 'entity.too.large');
  });
});

describe('trestle.text()', () => {
  const app = echoApp(trestle.text());

  test('the body as a string', async () => {
    await request(app).post('/').type('text/plain').send('hello, world').expect(200, { body: 'hello, world', kind: 'string', has: true });
  });

  test('an empty body is ""; another type leaves req.body undefined', async () => {
    await request(app).post('/').set('Content-Type', 'text/plain').set('Content-Length', '0').expect(200, { body: '', kind: 'string', has: true });
    await request(app).post('/').type('text/html').send('<b>x</b>').expect(200, { body: null, kind: 'undefined', has: true });
  });

  test('decodes the charset the request names, through iconv-lite', async () => {
    await request(app).post('/').type('text/plain; charset=iso-8859-1').serialize(asIs).send(Buffer.from([0xe9, 0x41])).expect(200, { body: 'éA', kind: 'string', has: true });
    const utf16 = Buffer.from([0xff, 0xfe, 0x61, 0, 0x62, 0]);
    await request(app).post('/').type('text/plain; charset=utf-16').serialize(asIs).send(utf16).expect(200, { body: 'ab', kind: 'string', has: true });
  });

  test('skips a UTF-8 byte-order mark', async () => {
    const body = Buffer.concat([Buffer.from([0xef, 0xbb, 0xbf]), Buffer.from('abc')]);
    await request(app).post('/').type('text/plain').serialize(asIs).send(body).expect(200, { body: 'abc', kind: 'string', has: true });
  });

  test('an unknown charset is 415 charset.unsupported', async () => {
    const res = await request(app).post('/').type('text/plain; charset=bogus').send('ab').expect(415);
    const err = res.body as Reported;
    assert.equal(err.message, 'unsupported charset "BOGUS"');
    assert.equal(err.type, 'charset.unsupported');
    assert.equal(err.charset, 'bogus');
    assert.equal(err.status, 415);
    assert.equal(err.expose, true);
  });

  test('defaultCharset applies when the request names none', async () => {
    const latin = echoApp(trestle.text({ defaultCharset: 'latin1' }));
    await request(latin).post('/').type('text/plain').serialize(asIs).send(Buffer.from([0xe9, 0x41])).expect(200, { body: 'éA', kind: 'string', has: true });
  });

  test('type picks other text types', async () => {
    const html = echoApp(trestle.text({ type: 'text/html' }));
    await request(html).post('/').type('text/html').send('<b>x</b>').expect(200, { body: '<b>x</b>', kind: 'string', has: true });
  });
});
