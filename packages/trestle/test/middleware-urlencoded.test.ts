import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import request from 'supertest';
import trestle from 'trestle';
import trestleV4 from 'trestle/v4';
import { asIs, echoApp, type Reported } from './middleware-helpers';

const FORM = 'application/x-www-form-urlencoded';
const parsed = (body: unknown) => ({ body, kind: 'object', has: true });

describe('trestle.urlencoded()', () => {
  const simple = echoApp(trestle.urlencoded());
  const extended = echoApp(trestle.urlencoded({ extended: true }));

  test('simple (the v5 default): keys as written, repeated keys become arrays', async () => {
    await request(simple).post('/').type(FORM).send('a=1&a=2&b[c]=3&d=%20+x&e').expect(200, parsed({ a: ['1', '2'], 'b[c]': '3', d: '  x', e: '' }));
    await request(simple).post('/').type(FORM).send('x[]=1&x[]=2&y.z=3').expect(200, parsed({ 'x[]': ['1', '2'], 'y.z': '3' }));
  });

  test('extended: nested objects and arrays through qs', async () => {
    await request(extended).post('/').type(FORM).send('a[b][c]=1&d[]=2&d[]=3&e[0]=x&e[1]=y').expect(200, parsed({ a: { b: { c: '1' } }, d: ['2', '3'], e: ['x', 'y'] }));
    // Indices past 100 (or the parameter count) make an object, as qs does.
    await request(extended).post('/').type(FORM).send('a[150]=1&a[5]=2').expect(200, parsed({ a: { 5: '2', 150: '1' } }));
  });

  test('an empty body is {}; another type or no body leaves req.body undefined', async () => {
    await request(simple).post('/').set('Content-Type', FORM).set('Content-Length', '0').expect(200, parsed({}));
    await request(extended).post('/').set('Content-Type', FORM).set('Content-Length', '0').expect(200, parsed({}));
    await request(simple).post('/').type('application/json').send('{"a":1}').expect(200, { body: null, kind: 'undefined', has: true });
    await request(simple).get('/').expect(200, { body: null, kind: 'undefined', has: true });
  });

  test('malformed percent-encoding is kept as written', async () => {
    await request(simple).post('/').type(FORM).send('a=%ZZ&b=%').expect(200, parsed({ a: '%ZZ', b: '%' }));
  });

  test('__proto__ never reaches a prototype, extended or not', async () => {
    const bodies: unknown[] = [];
    const record = trestle.Router();
    record.use((req, res) => {
      bodies.push(req.body);
      res.json({ ok: true });
    });
    const simpleApp = trestle();
    simpleApp.use(trestle.urlencoded(), record);
    const extendedApp = trestle();
    extendedApp.use(trestle.urlencoded({ extended: true }), record);
    await request(simpleApp).post('/').type(FORM).send('__proto__=1&%5F%5Fproto%5F%5F[polluted]=1&a=2').expect(200);
    await request(extendedApp)
      .post('/')
      .type(FORM)
      .send('__proto__[polluted]=1&a[__proto__][polluted]=2&b[constructor][prototype][polluted]=3&z=3')
      .expect(200);
    // Simple mode keeps `__proto__[polluted]` as one literal (harmless) key, as Express does.
    assert.deepEqual(bodies[0], { '__proto__[polluted]': '1', a: '2' });
    assert.deepEqual(bodies[1], { a: {}, b: { constructor: { prototype: { polluted: '3' } } }, z: '3' });
    for (const body of bodies as Array<Record<string, unknown>>) {
      assert.equal(Object.getPrototypeOf(body), Object.prototype);
      assert.equal((body as { polluted?: unknown }).polluted, undefined);
    }
    assert.equal(({} as { polluted?: unknown }).polluted, undefined);
    assert.equal(Object.getPrototypeOf(bodies[1] as object), Object.prototype);
  });

  test('parameterLimit: one more parameter than allowed is 413 parameters.too.many', async () => {
    const two = echoApp(trestle.urlencoded({ parameterLimit: 2 }));
    await request(two).post('/').type(FORM).send('a=1&b=2').expect(200, parsed({ a: '1', b: '2' }));
    for (const body of ['a=1&b=2&c=3', 'a=1&b=2&']) {
      const res = await request(two).post('/').type(FORM).send(body).expect(413);
      const err = res.body as Reported;
      assert.equal(err.message, 'too many parameters');
      assert.equal(err.type, 'parameters.too.many');
      assert.equal(err.name, 'PayloadTooLargeError');
      assert.equal(err.body, body);
    }
    const extendedTwo = echoApp(trestle.urlencoded({ extended: true, parameterLimit: 2 }));
    await request(extendedTwo).post('/').type(FORM).send('a=1&b=2&c=3').expect(413);
  });

  test('the default parameterLimit is 1000', async () => {
    const params = (n: number) => Array.from({ length: n }, (_, i) => `k${i}=1`).join('&');
    const res = await request(simple).post('/').type(FORM).send(params(1000)).expect(200);
    assert.equal(Object.keys((res.body as { body: object }).body).length, 1000);
    await request(simple).post('/').type(FORM).send(params(1001)).expect(413);
  });

  test('depth: deeper nesting than allowed is a 400', async () => {
    const shallow = echoApp(trestle.urlencoded({ extended: true, depth: 2 }));
    await request(shallow).post('/').type(FORM).send('a[b][c]=1').expect(200, parsed({ a: { b: { c: '1' } } }));
    const res = await request(shallow).post('/').type(FORM).send('a[b][c][d]=1').expect(400);
    const err = res.body as Reported;
    assert.equal(err.message, 'The input exceeded the depth');
    assert.equal(err.type, 'querystring.parse.rangeError');
    assert.equal(err.body, 'a[b][c][d]=1');
    await request(extended).post('/').type(FORM).send(`a${'[b]'.repeat(32)}=1`).expect(200);
    await request(extended).post('/').type(FORM).send(`a${'[b]'.repeat(33)}=1`).expect(400);
  });

  test('charset: utf-8 and iso-8859-1 only, else 415', async () => {
    await request(simple).post('/').type(`${FORM}; charset=iso-8859-1`).send('a=%E9').expect(200, parsed({ a: 'é' }));
    await request(simple).post('/').type(`${FORM}; charset=iso-8859-1`).serialize(asIs).send(Buffer.from([0x61, 0x3d, 0xe9])).expect(200, parsed({ a: 'é' }));
    for (const charset of ['utf-16', 'latin1', 'bogus']) {
      const res = await request(simple).post('/').type(`${FORM}; charset=${charset}`).send('a=1').expect(415);
      const err = res.body as Reported;
      assert.equal(err.message, `unsupported charset "${charset.toUpperCase()}"`);
      assert.equal(err.type, 'charset.unsupported');
      assert.equal(err.charset, charset);
    }
  });

  test('defaultCharset, charsetSentinel and interpretNumericEntities reach qs', async () => {
    const latin = echoApp(trestle.urlencoded({ defaultCharset: 'iso-8859-1' }));
    await request(latin).post('/').type(FORM).send('a=%E9').expect(200, parsed({ a: 'é' }));
    const sentinel = echoApp(trestle.urlencoded({ charsetSentinel: true }));
    await request(sentinel).post('/').type(`${FORM}; charset=iso-8859-1`).send('utf8=%E2%9C%93&a=%C3%A9').expect(200, parsed({ a: 'é' }));
    const entities = echoApp(trestle.urlencoded({ defaultCharset: 'iso-8859-1', interpretNumericEntities: true }));
    await request(entities).post('/').type(FORM).send('a=%26%239786%3B').expect(200, parsed({ a: '☺' }));
  });

  test('options are checked when the parser is created', () => {
    assert.throws(() => trestle.urlencoded({ parameterLimit: 0 }), { name: 'TypeError', message: 'option parameterLimit must be a positive number' });
    assert.throws(() => trestle.urlencoded({ extended: true, depth: -1 }), { name: 'TypeError', message: 'option depth must be a zero or a positive number' });
    assert.throws(() => trestle.urlencoded({ defaultCharset: 'latin1' as 'utf-8' }), {
      name: 'TypeError',
      message: 'option defaultCharset must be either utf-8 or iso-8859-1',
    });
    assert.throws(() => trestle.urlencoded({ limit: 'lots' }), { name: 'TypeError', message: 'option limit "lots" is invalid' });
  });

  test('v4: extended defaults to true, and leaving it out prints the body-parser deprecation', async () => {
    const warnings: string[] = [];
    const onDeprecation = (err: Error & { namespace?: string }) => warnings.push(`${err.namespace}: ${err.message}`);
    process.on('deprecation', onDeprecation);
    try {
      const app = echoApp(trestleV4.urlencoded());
      trestleV4.urlencoded({ extended: false });
      await request(app).post('/').type(FORM).send('a[b]=1').expect(200, parsed({ a: { b: '1' } }));
    } finally {
      process.removeListener('deprecation', onDeprecation);
    }
    assert.deepEqual(warnings, ['body-parser: undefined extended: provide extended option']);
  });
});
