// req.accepts, req.acceptsCharsets, req.acceptsEncodings, req.acceptsLanguages,
// req.is and req.range: every return value, over real HTTP.
import * as http from 'node:http';
import type { AddressInfo } from 'node:net';
import { test } from 'node:test';
import assert from 'node:assert/strict';
import request from 'supertest';
import trestle from 'trestle';
import { createFramework } from '../src/framework';
import { v5 } from '../src/generations/v5';
import { convertedMethod, negotiationMembers } from '../src/request/negotiation';

type Req = trestle.Request;

/** An app whose every request answers `{ value: ask(req) }` (`{ undefined: true }` for undefined). */
function answering(ask: (req: Req) => unknown) {
  const app = trestle();
  app.all('/', (req, res) => {
    const value = ask(req);
    res.json(value === undefined ? { undefined: true } : { value });
  });
  return app;
}

async function valueOf(ask: (req: Req) => unknown, headers: Record<string, string> = {}, body?: string): Promise<unknown> {
  const pending = body === undefined ? request(answering(ask)).get('/') : request(answering(ask)).post('/');
  // superagent offers gzip unless told otherwise; these tests decide what is offered.
  if (!('Accept-Encoding' in headers)) pending.unset('Accept-Encoding');
  const res = await pending.set(headers).send(body).expect(200);
  return 'undefined' in res.body ? undefined : res.body.value;
}

const accept = { Accept: 'text/html, application/json;q=0.9, */*;q=0.1' };

test('req.accepts: the best of the given types, as given', async () => {
  assert.equal(await valueOf((req) => req.accepts('json'), accept), 'json');
  assert.equal(await valueOf((req) => req.accepts('application/json'), accept), 'application/json');
  assert.equal(await valueOf((req) => req.accepts('json', 'html'), accept), 'html');
  assert.equal(await valueOf((req) => req.accepts(['json', 'text/html']), accept), 'text/html');
  assert.equal(await valueOf((req) => req.accepts('text/plain', 'html'), { Accept: 'text/*' }), 'text/plain');
  assert.equal(await valueOf((req) => req.accepts('png'), accept), 'png');
});

test('req.accepts takes a comma-separated list, as the spec describes', async () => {
  assert.equal(await valueOf((req) => req.accepts('json, html'), accept), 'html');
  assert.equal(await valueOf((req) => req.accepts('png,json'), { Accept: 'application/json' }), 'json');
  assert.equal(await valueOf((req) => req.accepts(['png, gif', 'json']), { Accept: 'application/json' }), 'json');
});

test('req.accepts answers false when nothing is acceptable', async () => {
  assert.equal(await valueOf((req) => req.accepts('png'), { Accept: 'text/html' }), false);
  assert.equal(await valueOf((req) => req.accepts('json', 'xml'), { Accept: 'text/html' }), false);
  assert.equal(await valueOf((req) => req.accepts('json'), { Accept: 'application/json;q=0' }), false);
  assert.equal(await valueOf((req) => req.accepts('json'), { Accept: ';;;,,q=x' }), false);
});

test('the spec pattern: 406 when req.accepts finds nothing', async () => {
  const app = trestle();
  app.get('/', (req, res) => {
    const type = req.accepts('json', 'html');
    if (type === false) res.status(406).send('Not Acceptable');
    else res.type(type).send(type === 'json' ? '{}' : '<p></p>');
  });
  await request(app).get('/').set('Accept', 'image/png').expect(406, 'Not Acceptable');
  await request(app).get('/').set('Accept', 'application/json').expect('Content-Type', /application\/json/).expect(200, '{}');
});

test('req.accepts without an Accept header: the first type; without types: the accepted list', async () => {
  assert.equal(await valueOf((req) => req.accepts('png', 'json')), 'png');
  assert.deepEqual(await valueOf((req) => req.accepts()), ['*/*']);
  assert.deepEqual(await valueOf((req) => req.accepts(), accept), ['text/html', 'application/json', '*/*']);
  assert.deepEqual(await valueOf((req) => req.accepts([]), accept), ['text/html', 'application/json', '*/*']);
});

test('req.acceptsCharsets: first accepted of several, an array, or the full list', async () => {
  const h = { 'Accept-Charset': 'utf-8, iso-8859-1;q=0.2' };
  assert.deepEqual(await valueOf((req) => req.acceptsCharsets(), h), ['utf-8', 'iso-8859-1']);
  assert.equal(await valueOf((req) => req.acceptsCharsets('iso-8859-1', 'utf-8'), h), 'utf-8');
  assert.equal(await valueOf((req) => req.acceptsCharsets(['ISO-8859-1']), h), 'ISO-8859-1');
  assert.equal(await valueOf((req) => req.acceptsCharsets('latin1'), h), false);
  assert.equal(await valueOf((req) => req.acceptsCharsets('utf-16')), 'utf-16');
});

test('req.acceptsEncodings: identity is acceptable unless refused', async () => {
  const h = { 'Accept-Encoding': 'gzip, br;q=0.8' };
  assert.deepEqual(await valueOf((req) => req.acceptsEncodings(), h), ['gzip', 'br', 'identity']);
  assert.equal(await valueOf((req) => req.acceptsEncodings('br', 'gzip'), h), 'gzip');
  assert.equal(await valueOf((req) => req.acceptsEncodings(['deflate']), h), false);
  assert.equal(await valueOf((req) => req.acceptsEncodings('identity'), h), 'identity');
  assert.deepEqual(await valueOf((req) => req.acceptsEncodings()), ['identity']);
  assert.equal(await valueOf((req) => req.acceptsEncodings('gzip')), false);
  assert.equal(await valueOf((req) => req.acceptsEncodings('identity'), { 'Accept-Encoding': 'gzip, identity;q=0' }), false);
});

test('req.acceptsLanguages: by quality, prefixes match, the full list without arguments', async () => {
  const h = { 'Accept-Language': 'en-US, fr;q=0.5, de;q=0.7' };
  assert.deepEqual(await valueOf((req) => req.acceptsLanguages(), h), ['en-US', 'de', 'fr']);
  assert.equal(await valueOf((req) => req.acceptsLanguages('fr', 'de'), h), 'de');
  assert.equal(await valueOf((req) => req.acceptsLanguages(['es', 'fr']), h), 'fr');
  assert.equal(await valueOf((req) => req.acceptsLanguages('es'), h), false);
  assert.equal(await valueOf((req) => req.acceptsLanguages('EN-us'), h), 'EN-us');
  assert.deepEqual(await valueOf((req) => req.acceptsLanguages()), ['*']);
  assert.equal(await valueOf((req) => req.acceptsLanguages('fr')), 'fr');
});

test('v5 has no singular accepts aliases and no req.param', async () => {
  const names = await valueOf((req) => {
    const r = req as unknown as Record<string, unknown>;
    return ['acceptsCharset', 'acceptsEncoding', 'acceptsLanguage', 'param'].map((name) => typeof r[name]);
  });
  assert.deepEqual(names, ['undefined', 'undefined', 'undefined', 'undefined']);
});

const json = { 'Content-Type': 'application/json; charset=utf-8' };

test('req.is: the matching type as given, by extension, full type or wildcard', async () => {
  const is = (...types: string[]) => valueOf((req) => req.is(types), json, '{"a":1}');
  assert.equal(await is('json'), 'json');
  assert.equal(await is('application/json'), 'application/json');
  assert.equal(await is('application/*'), 'application/json');
  assert.equal(await is('*/json'), 'application/json');
  assert.equal(await is('*/*'), 'application/json');
  assert.equal(await is('html', 'json'), 'json');
  assert.equal(await is('text/*', 'json'), 'json');
  assert.equal(await valueOf((req) => req.is('html', 'json'), json, '{}'), 'json');
  assert.equal(await valueOf((req) => req.is(['html', 'application/*']), json, '{}'), 'application/json');
});

test('req.is: false when the body has another type', async () => {
  const is = (...types: string[]) => valueOf((req) => req.is(types), json, '{}');
  assert.equal(await is('html'), false);
  assert.equal(await is('text/*'), false);
  assert.equal(await is('+json'), false);
  assert.equal(await is('bogus'), false);
});

test('req.is: +json suffixes', async () => {
  const h = { 'Content-Type': 'application/vnd.api+json' };
  assert.equal(await valueOf((req) => req.is('+json'), h, '{}'), 'application/vnd.api+json');
  assert.equal(await valueOf((req) => req.is('application/*+json'), h, '{}'), 'application/vnd.api+json');
  assert.equal(await valueOf((req) => req.is('json'), h, '{}'), false);
});

test('req.is: null without a body, whatever the Content-Type says', async () => {
  assert.equal(await valueOf((req) => req.is('json'), json), null);
  assert.equal(await valueOf((req) => req.is('*/*')), null);
});

test('req.is: a body of length 0 or chunked still counts as a body', async (t) => {
  const app = answering((req) => [req.is('text'), req.is('text/*'), req.is('txt')]);
  const empty = await request(app).post('/').set('Content-Type', 'text/plain').set('Content-Length', '0').expect(200);
  assert.deepEqual(empty.body.value, ['text', 'text/plain', 'txt']);
  // Node's client sends a body of unknown length chunked, without Content-Length.
  const server = http.createServer(app);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  t.after(() => server.close());
  const { port } = server.address() as AddressInfo;
  const chunked = await new Promise<string>((resolve, reject) => {
    const req = http.request({ port, host: '127.0.0.1', method: 'POST', headers: { 'Content-Type': 'text/plain' } }, (res) => {
      let data = '';
      res.setEncoding('utf8');
      res.on('data', (chunk: string) => (data += chunk));
      res.on('end', () => resolve(data));
    });
    req.on('error', reject);
    req.write('hi');
    req.end();
  });
  assert.deepEqual(JSON.parse(chunked).value, ['text', 'text/plain', 'txt']);
});

test('req.is: false when the body has no or a malformed Content-Type', async () => {
  const app = answering((req) => [req.is('text'), req.is('*/*'), req.is()]);
  // A Buffer body goes out without a Content-Type.
  const none = await request(app).post('/').send(Buffer.from('hi')).expect(200);
  assert.deepEqual(none.body.value, [false, false, false]);
  const bad = await request(app).post('/').set('Content-Type', 'bogus').send('hi').expect(200);
  assert.deepEqual(bad.body.value, [false, false, false]);
});

test('req.is() with no type: the body type without parameters', async () => {
  assert.equal(await valueOf((req) => req.is(), json, '{}'), 'application/json');
});

test('req.range: undefined without a Range header', async () => {
  assert.equal(await valueOf((req) => req.range(100)), undefined);
  assert.equal(await valueOf((req) => req.range(100), { Range: '' }), undefined);
});

/** The ranges with their `type`, or the number as given. */
function rangeOf(size: number, options?: { combine?: boolean }) {
  return (req: Req) => {
    const r = req.range(size, options);
    return typeof r === 'object' ? { type: r.type, ranges: [...r] } : r;
  };
}

test('req.range: ranges with their unit in type', async () => {
  assert.deepEqual(await valueOf(rangeOf(100), { Range: 'bytes=0-49' }), { type: 'bytes', ranges: [{ start: 0, end: 49 }] });
  assert.deepEqual(await valueOf(rangeOf(100), { Range: 'bytes=-20' }), { type: 'bytes', ranges: [{ start: 80, end: 99 }] });
  assert.deepEqual(await valueOf(rangeOf(100), { Range: 'bytes=50-500' }), { type: 'bytes', ranges: [{ start: 50, end: 99 }] });
  assert.deepEqual(await valueOf(rangeOf(100), { Range: 'items=0-5' }), { type: 'items', ranges: [{ start: 0, end: 5 }] });
  assert.deepEqual(await valueOf(rangeOf(100), { Range: 'bytes=0-10, 5-20, 90-' }), {
    type: 'bytes',
    ranges: [{ start: 0, end: 10 }, { start: 5, end: 20 }, { start: 90, end: 99 }],
  });
});

test('req.range with combine merges overlapping and adjacent ranges', async () => {
  const h = { Range: 'bytes=0-10, 5-20, 21-30, 90-' };
  assert.deepEqual(await valueOf(rangeOf(100, { combine: true }), h), {
    type: 'bytes',
    ranges: [{ start: 0, end: 30 }, { start: 90, end: 99 }],
  });
  assert.equal(((await valueOf(rangeOf(100, { combine: false }), h)) as { ranges: unknown[] }).ranges.length, 4);
});

test('req.range: -1 when unsatisfiable, -2 when malformed', async () => {
  assert.equal(await valueOf(rangeOf(100), { Range: 'bytes=200-300' }), -1);
  assert.equal(await valueOf(rangeOf(100), { Range: 'bytes=abc' }), -2);
  assert.equal(await valueOf(rangeOf(100), { Range: 'garbage' }), -2);
});

test('a profile can convert the answers of req.accepts and req.is (as legacy will)', async () => {
  const legacyish = createFramework({
    ...v5,
    overrides: {
      ...v5.overrides,
      request: {
        accepts: convertedMethod(negotiationMembers.accepts, (r) => (r === false ? undefined : r)),
        is: convertedMethod(negotiationMembers.is, (r) => r !== false && r !== null),
      },
    },
  }) as unknown as typeof trestle;
  const app = legacyish();
  app.post('/', (req, res) => {
    res.json({ none: req.accepts('png') ?? 'undefined', some: req.accepts('json'), is: req.is('json'), isnt: req.is('html') });
  });
  const res = await request(app).post('/').set('Accept', 'application/json').send({ a: 1 }).expect(200);
  assert.deepEqual(res.body, { none: 'undefined', some: 'json', is: true, isnt: false });
});
