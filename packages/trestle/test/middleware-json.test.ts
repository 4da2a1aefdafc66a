import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import request from 'supertest';
import trestle from 'trestle';
import { asIs, echoApp, type Echo, type Reported } from './middleware-helpers';

const JSON_TYPE = 'application/json';

/**
 * What this process's JSON.parse says about `text`: Express passes the
 * engine's message through, and V8 words it differently across node versions
 * (node 22 added "(line 1 column 7)").
 */
function engineMessage(text: string): string {
  try {
    JSON.parse(text);
  } catch (err) {
    return (err as SyntaxError).message;
  }
  throw new Error(`JSON.parse accepted ${text}`);
}

describe('trestle.json()', () => {
  const app = echoApp(trestle.json());

  test('parses an object into req.body', async () => {
    const res = await request(app).post('/').type(JSON_TYPE).send('{"user":"tobi","tags":[1,2]}').expect(200);
    assert.deepEqual(res.body, { body: { user: 'tobi', tags: [1, 2] }, kind: 'object', has: true } satisfies Echo);
  });

  test('parses an array, and any method with a body (GET, DELETE)', async () => {
    await request(app).post('/').type(JSON_TYPE).send('[1,"2"]').expect(200, { body: [1, '2'], kind: 'object', has: true });
    await request(app).get('/').type(JSON_TYPE).send('{"a":1}').expect(200, { body: { a: 1 }, kind: 'object', has: true });
    await request(app).delete('/').type(JSON_TYPE).send('{"a":1}').expect(200, { body: { a: 1 }, kind: 'object', has: true });
  });

  test('an empty body (Content-Length: 0) is {}', async () => {
    await request(app).post('/').set('Content-Type', JSON_TYPE).set('Content-Length', '0').expect(200, { body: {}, kind: 'object', has: true });
  });

  test('leaves req.body undefined without a body or for another type, and calls next()', async () => {
    await request(app).get('/').set('Content-Type', JSON_TYPE).expect(200, { body: null, kind: 'undefined', has: true });
    await request(app).post('/').type('text/plain').send('{"a":1}').expect(200, { body: null, kind: 'undefined', has: true });
    await request(app).post('/').set('Content-Type', '').send('{"a":1}').expect(200, { body: null, kind: 'undefined', has: true });
  });

  test('matches the type case-insensitively and ignores a malformed parameter, as type-is does', async () => {
    await request(app).post('/').set('Content-Type', 'APPLICATION/JSON').send('{"a":1}').expect(200, { body: { a: 1 }, kind: 'object', has: true });
    await request(app).post('/').set('Content-Type', 'application/json; charset').send('{"a":1}').expect(200, { body: { a: 1 }, kind: 'object', has: true });
  });

  test('one parser answers each Content-Type on its own merits, however they alternate', async () => {
    // The parser remembers its answer per header value: a value seen before must not leak into another.
    const cases: Array<[string, number, string]> = [
      ['application/json', 200, 'object'],
      ['text/plain', 200, 'undefined'],
      ['application/json; charset=koi8-r', 415, ''],
      ['application/json; charset=UTF-8', 200, 'object'],
      ['application/vnd.api+json', 200, 'undefined'],
      ['application/json; charset=latin1', 415, ''],
    ];
    for (let round = 0; round < 2; round++) {
      for (const [type, status, kind] of cases) {
        const res = await request(app).post('/').set('Content-Type', type).send('{"a":1}').expect(status);
        if (status === 200) assert.equal((res.body as Echo).kind, kind, `${type}, round ${round}`);
      }
    }
  });

  test('malformed JSON: 400 entity.parse.failed, a SyntaxError keeping the body', async () => {
    const res = await request(app).post('/').type(JSON_TYPE).send('{"a":1').expect(400);
    const err = res.body as Reported;
    assert.equal(err.type, 'entity.parse.failed');
    assert.equal(err.status, 400);
    assert.equal(err.statusCode, 400);
    assert.equal(err.expose, true);
    assert.equal(err.name, 'SyntaxError');
    assert.equal(err.isSyntaxError, true);
    assert.equal(err.body, '{"a":1');
    assert.equal(err.message, engineMessage('{"a":1'));
  });

  test('whitespace only is malformed, not empty', async () => {
    const res = await request(app).post('/').type(JSON_TYPE).send('   ').expect(400);
    assert.equal((res.body as Reported).message, engineMessage('   '));
  });

  test('strict (default): a primitive at the top level is refused with JSON.parse wording', async () => {
    // body-parser's wording: the engine's message for the body with its first
    // token swapped for '#' (which no JSON text starts with), the token put back.
    const swaps: Array<[string, string]> = [
      ['true', `#rue`],
      ['  "x" ', `  #x" `],
      ['123', `#23`],
      ['#abc', `#abc`],
      [`"${'x'.repeat(200)}"`, `#${'x'.repeat(200)}"`],
    ];
    const cases = swaps.map(([body, swapped]) => [body, engineMessage(swapped).replaceAll('#', body.trim()[0]!)] as const);
    for (const [body, message] of cases) {
      const res = await request(app).post('/').type(JSON_TYPE).send(body).expect(400);
      const err = res.body as Reported;
      assert.equal(err.message, message);
      assert.equal(err.type, 'entity.parse.failed');
      assert.equal(err.body, body);
      assert.equal(err.isSyntaxError, true);
    }
    await request(app).post('/').type(JSON_TYPE).send(' \n\t{"a":1}').expect(200, { body: { a: 1 }, kind: 'object', has: true });
  });

  test('strict: false accepts anything JSON.parse accepts', async () => {
    const loose = echoApp(trestle.json({ strict: false }));
    await request(loose).post('/').type(JSON_TYPE).send('true').expect(200, { body: true, kind: 'boolean', has: true });
    await request(loose).post('/').type(JSON_TYPE).send('"hi"').expect(200, { body: 'hi', kind: 'string', has: true });
    await request(loose).post('/').type(JSON_TYPE).send('').expect(200, { body: {}, kind: 'object', has: true });
    const res = await request(loose).post('/').type(JSON_TYPE).send('tru').expect(400);
    assert.equal((res.body as Reported).type, 'entity.parse.failed');
  });

  test('reviver is passed to JSON.parse', async () => {
    const doubled = echoApp(trestle.json({ reviver: (_key, value) => (typeof value === 'number' ? value * 2 : value) }));
    await request(doubled).post('/').type(JSON_TYPE).send('{"a":1,"b":{"c":2}}').expect(200, { body: { a: 2, b: { c: 4 } }, kind: 'object', has: true });
  });

  test('type: a type-is pattern, a list, or a predicate', async () => {
    const vendor = echoApp(trestle.json({ type: 'application/*+json' }));
    await request(vendor).post('/').type('application/vnd.api+json').send('{"a":1}').expect(200, { body: { a: 1 }, kind: 'object', has: true });
    await request(vendor).post('/').type(JSON_TYPE).send('{"a":1}').expect(200, { body: null, kind: 'undefined', has: true });
    const list = echoApp(trestle.json({ type: ['text/plain', 'json'] }));
    await request(list).post('/').type('text/plain').send('{"a":1}').expect(200, { body: { a: 1 }, kind: 'object', has: true });
    await request(list).post('/').type(JSON_TYPE).send('{"b":1}').expect(200, { body: { b: 1 }, kind: 'object', has: true });
    const predicate = echoApp(trestle.json({ type: (req) => req.headers['x-json'] === 'yes' }));
    await request(predicate).post('/').type('text/plain').set('X-Json', 'yes').send('{"a":1}').expect(200, { body: { a: 1 }, kind: 'object', has: true });
    await request(predicate).post('/').type(JSON_TYPE).send('{"a":1}').expect(200, { body: null, kind: 'undefined', has: true });
  });

  test('charset: any utf-* is decoded; others are 415 charset.unsupported', async () => {
    const utf16 = Buffer.from('{"name":"é"}', 'utf16le');
    await request(app).post('/').set('Content-Type', `${JSON_TYPE}; charset=utf-16le`).serialize(asIs).send(utf16).expect(200, { body: { name: 'é' }, kind: 'object', has: true });
    await request(app).post('/').set('Content-Type', `${JSON_TYPE}; charset="UTF-8"`).send('{"a":1}').expect(200, { body: { a: 1 }, kind: 'object', has: true });
    for (const [charset, upper] of [['latin1', 'LATIN1'], ['utf-99', 'UTF-99'], ['UTF8', 'UTF8']] as const) {
      const res = await request(app).post('/').set('Content-Type', `${JSON_TYPE}; charset=${charset}`).send('{"a":1}').expect(415);
      const err = res.body as Reported;
      assert.equal(err.message, `unsupported charset "${upper}"`);
      assert.equal(err.type, 'charset.unsupported');
      assert.equal(err.charset, charset.toLowerCase());
      assert.equal(err.name, 'UnsupportedMediaTypeError');
    }
  });

  test('defaultCharset applies when the request names none', async () => {
    const utf16 = echoApp(trestle.json({ defaultCharset: 'utf-16le' }));
    await request(utf16).post('/').type(JSON_TYPE).serialize(asIs).send(Buffer.from('{"a":1}', 'utf16le')).expect(200, { body: { a: 1 }, kind: 'object', has: true });
  });

  test('a UTF-8 byte-order mark is skipped', async () => {
    const body = Buffer.concat([Buffer.from([0xef, 0xbb, 0xbf]), Buffer.from('{"a":1}')]);
    await request(app).post('/').type(JSON_TYPE).serialize(asIs).send(body).expect(200, { body: { a: 1 }, kind: 'object', has: true });
  });

  test('__proto__ stays an own key and never reaches a prototype', async () => {
    const payload = '{"__proto__":{"polluted":1},"a":{"__proto__":{"polluted":2}},"constructor":{"prototype":{"polluted":3}}}';
    let seen: Record<string, unknown> | undefined;
    const checking = trestle();
    checking.use(trestle.json(), (req, res) => {
      seen = req.body as Record<string, unknown>;
      res.json({ ok: true });
    });
    await request(checking).post('/').type(JSON_TYPE).send(payload).expect(200);
    assert.ok(seen !== undefined);
    assert.equal(Object.getPrototypeOf(seen), Object.prototype);
    assert.equal(Object.getPrototypeOf(seen.a), Object.prototype);
    assert.equal((seen as { polluted?: unknown }).polluted, undefined);
    assert.equal(({} as { polluted?: unknown }).polluted, undefined);
    assert.deepEqual(Object.keys(seen), ['__proto__', 'a', 'constructor']);
  });
});
