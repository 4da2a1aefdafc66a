// res.send, res.json, res.jsonp, res.sendStatus: types, lengths, weak ETags,
// conditional GET (304), HEAD, and the statuses that carry no body.
import type { Answer, Case, Expected } from '../harness';

const HTML = 'text/html; charset=utf-8';
const JSON_TYPE = 'application/json; charset=utf-8';
// Weak ETags as the etag package computes them (size, then SHA-1 in base64).
const HELLO_ETAG = 'W/"5-qvTGHdzF6KLavt4PO0gs2a6pQ00"';
const A1_ETAG = 'W/"7-n4nHQM60bXQYySSnisV5QdXpZSA"';
const EMPTY_ETAG = 'W/"0-2jmj7l5rSw0yVb/vlWAYkK/YBwk"';
// The same tags as Express 3 computed them (etag 1.7: MD5 in base64, unpadded).
const MD5: Record<string, string> = {
  [HELLO_ETAG]: 'W/"5-XUFAKrxLKna5cZ2REBfFkg"',
  [A1_ETAG]: 'W/"7-u2y1xo30ZSlByvZSo2by2A"',
  [EMPTY_ETAG]: 'W/"0-1B2M2Y8AsgTpgAmY7PhCfg"',
  '"5-qvTGHdzF6KLavt4PO0gs2a6pQ00"': '"5-XUFAKrxLKna5cZ2REBfFkg"',
};
// A client revalidating with either tag: each generation's own one matches.
const HELLO_EITHER = `${HELLO_ETAG}, ${MD5[HELLO_ETAG]}`;

/** Express 3's answers: the same, with its MD5 tags. */
function md5Tags(answers: Expected): Expected {
  if (!Array.isArray(answers)) return answers;
  return answers.map((a) => {
    const etag = a.headers?.etag;
    return typeof etag === 'string' && MD5[etag] !== undefined ? { ...a, headers: { ...a.headers, etag: MD5[etag] } } : a;
  });
}

const hello: Answer = { status: 200, body: 'hello', headers: { 'content-type': HTML, 'content-length': '5', etag: HELLO_ETAG } };
const notModified: Answer = { status: 304, body: '', headers: { 'content-type': null, 'content-length': null, 'transfer-encoding': null } };

export const sendCases: Case[] = [
  {
    name: 'send(string): HTML in UTF-8 with its byte length and a weak ETag',
    setup: (app) => app.get('/', (_req, res) => res.send('hello')),
    send: [{ path: '/' }],
    expect: [hello],
  },
  {
    name: 'send(string) counts bytes, not characters',
    setup: (app) => app.get('/', (_req, res) => res.send('héllo ☃')),
    send: [{ path: '/' }],
    expect: [{ status: 200, body: 'héllo ☃', headers: { 'content-length': '10' } }],
  },
  {
    name: 'send(string) keeps a type already set, adding the charset',
    setup: (app) => app.get('/', (_req, res) => res.type('text/plain').send('hello')),
    send: [{ path: '/' }],
    expect: [{ status: 200, body: 'hello', headers: { 'content-type': 'text/plain; charset=utf-8' } }],
  },
  {
    name: 'send(Buffer): octet-stream unless a type is set',
    setup: (app) => {
      app.get('/raw', (_req, res) => res.send(Buffer.from('hello')));
      app.get('/typed', (_req, res) => res.type('txt').send(Buffer.from('hello')));
    },
    send: [{ path: '/raw' }, { path: '/typed' }],
    expect: [
      { status: 200, body: 'hello', headers: { 'content-type': 'application/octet-stream', 'content-length': '5', etag: HELLO_ETAG } },
      { status: 200, body: 'hello', headers: { 'content-type': 'text/plain; charset=utf-8' } },
    ],
    legacy: md5Tags([
      { status: 200, body: 'hello', headers: { 'content-type': 'application/octet-stream', 'content-length': '5', etag: HELLO_ETAG } },
      { status: 200, body: 'hello', headers: { 'content-type': 'text/plain' } },
    ]),
  },
  {
    name: 'send(object) and send(array) are JSON',
    setup: (app) => {
      app.get('/o', (_req, res) => res.send({ a: 1 }));
      app.get('/a', (_req, res) => res.send([1, 'x']));
    },
    send: [{ path: '/o' }, { path: '/a' }],
    expect: [
      { status: 200, body: '{"a":1}', headers: { 'content-type': JSON_TYPE, 'content-length': '7', etag: A1_ETAG } },
      { status: 200, body: '[1,"x"]', headers: { 'content-type': JSON_TYPE } },
    ],
  },
  {
    name: 'send(null) and send() are empty bodies',
    setup: (app) => {
      app.get('/null', (_req, res) => res.send(null));
      app.get('/none', (_req, res) => res.send());
    },
    send: [{ path: '/null' }, { path: '/none' }],
    expect: [
      { status: 200, body: '', headers: { 'content-length': '0', 'content-type': null } },
      { status: 200, body: '', headers: { 'content-length': '0', 'content-type': null } },
    ],
  },
  {
    name: 'send of an empty string',
    setup: (app) => app.get('/', (_req, res) => res.send('')),
    send: [{ path: '/' }],
    expect: [{ status: 200, body: '', headers: { 'content-length': '0', 'content-type': HTML, etag: EMPTY_ETAG } }],
  },
  {
    name: 'send(boolean) is JSON',
    setup: (app) => app.get('/', (_req, res) => res.send(true)),
    send: [{ path: '/' }],
    expect: [{ status: 200, body: 'true', headers: { 'content-type': JSON_TYPE } }],
  },
  {
    name: 'send(number)',
    setup: (app) => app.get('/', (_req, res) => (res.send as (body: unknown) => unknown)(201)),
    send: [{ path: '/' }],
    expect: [{ status: 200, body: '201', headers: { 'content-type': JSON_TYPE } }],
    v4: [{ status: 201, body: 'Created', headers: { 'content-type': 'text/plain; charset=utf-8' } }],
    legacy: [{ status: 201, body: 'Created', headers: { 'content-type': 'text/plain; charset=utf-8' } }],
  },
  {
    name: 'send(status, body), the two-argument form',
    setup: (app) => app.get('/', (_req, res) => (res.send as (a: unknown, b: unknown) => unknown)(202, 'queued')),
    send: [{ path: '/' }],
    expect: [{ status: 200, body: '202', headers: { 'content-type': JSON_TYPE } }],
    v4: [{ status: 202, body: 'queued' }],
    legacy: [{ status: 202, body: 'queued' }],
  },
  {
    name: 'status() then send()',
    setup: (app) => app.get('/', (_req, res) => res.status(201).send('made')),
    send: [{ path: '/' }],
    expect: [{ status: 201, body: 'made' }],
  },
  {
    name: 'json(object), json(null), json(string)',
    setup: (app) => {
      app.get('/o', (_req, res) => res.json({ a: 1 }));
      app.get('/null', (_req, res) => res.json(null));
      app.get('/s', (_req, res) => res.json('str'));
    },
    send: [{ path: '/o' }, { path: '/null' }, { path: '/s' }],
    expect: [
      { status: 200, body: '{"a":1}', headers: { 'content-type': JSON_TYPE, etag: A1_ETAG } },
      { status: 200, body: 'null', headers: { 'content-type': JSON_TYPE } },
      { status: 200, body: '"str"', headers: { 'content-type': JSON_TYPE } },
    ],
  },
  {
    name: 'json keeps a type already set',
    setup: (app) => app.get('/', (_req, res) => res.type('application/vnd.api+json').json({ a: 1 })),
    send: [{ path: '/' }],
    expect: [{ status: 200, body: '{"a":1}', headers: { 'content-type': 'application/vnd.api+json; charset=utf-8' } }],
  },
  {
    name: 'json(status, object), the two-argument form',
    setup: (app) => app.get('/', (_req, res) => (res.json as (a: unknown, b: unknown) => unknown)(201, { a: 1 })),
    send: [{ path: '/' }],
    expect: [{ status: 200, body: '201' }],
    v4: [{ status: 201, body: '{"a":1}' }],
    legacy: [{ status: 201, body: '{"a":1}' }],
  },
  {
    name: 'json(number, number) and jsonp(number, number)',
    setup: (app) => {
      app.get('/j', (_req, res) => (res.json as (a: unknown, b: unknown) => unknown)(200, 201));
      app.get('/p', (_req, res) => (res.jsonp as (a: unknown, b: unknown) => unknown)(200, 201));
    },
    send: [{ path: '/j' }, { path: '/p?callback=f' }],
    expect: [{ status: 200, body: '200' }, { status: 200, body: /f\(200\);$/ }],
    v4: [{ status: 201, body: '200' }, { status: 201, body: /f\(200\);$/ }],
    legacy: [{ status: 201, body: '200' }, { status: 201, body: /f\(200\);$/ }],
  },
  {
    name: 'json spaces and json replacer settings',
    setup: (app) => {
      app.set('json spaces', 2);
      app.set('json replacer', (key: string, value: unknown) => (key === 'secret' ? undefined : value));
      app.get('/', (_req, res) => res.json({ a: 1, secret: 'x' }));
    },
    send: [{ path: '/' }],
    expect: [{ status: 200, body: '{\n  "a": 1\n}' }],
  },
  {
    name: 'json escape setting escapes HTML characters',
    setup: (app) => {
      app.enable('json escape');
      app.get('/', (_req, res) => res.json({ h: '<b>&' }));
    },
    send: [{ path: '/' }],
    expect: [{ status: 200, body: '{"h":"\\u003cb\\u003e\\u0026"}' }],
  },
  {
    name: 'jsonp wraps the body in the callback',
    setup: (app) => app.get('/', (_req, res) => res.jsonp({ a: 1 })),
    send: [{ path: '/?callback=cb' }],
    expect: [{ status: 200, body: '/**/ typeof cb === \'function\' && cb({"a":1});', headers: { 'content-type': 'text/javascript; charset=utf-8', 'x-content-type-options': 'nosniff' } }],
  },
  {
    name: 'jsonp without a callback is JSON',
    setup: (app) => app.get('/', (_req, res) => res.jsonp({ a: 1 })),
    send: [{ path: '/' }],
    expect: [{ status: 200, body: '{"a":1}', headers: { 'content-type': JSON_TYPE } }],
  },
  {
    name: 'jsonp callback name setting, and unsafe characters stripped',
    setup: (app) => {
      app.set('jsonp callback name', 'cb');
      app.get('/', (_req, res) => res.jsonp({ a: 1 }));
    },
    send: [{ path: '/?cb=my.fn%3Calert%3E' }],
    expect: [{ status: 200, body: '/**/ typeof my.fnalert === \'function\' && my.fnalert({"a":1});' }],
  },
  {
    name: 'jsonp escapes line separators',
    setup: (app) => app.get('/', (_req, res) => res.jsonp({ s: '\u2028\u2029' })),
    send: [{ path: '/?callback=f' }],
    expect: [{ status: 200, body: '/**/ typeof f === \'function\' && f({"s":"\\u2028\\u2029"});' }],
  },
  {
    name: 'sendStatus sends the status text',
    setup: (app) => {
      app.get('/nf', (_req, res) => res.sendStatus(404));
      app.get('/odd', (_req, res) => res.sendStatus(299));
    },
    send: [{ path: '/nf' }, { path: '/odd' }],
    expect: [
      { status: 404, body: 'Not Found', headers: { 'content-type': 'text/plain; charset=utf-8', 'content-length': '9' } },
      { status: 299, body: '299' },
    ],
  },
  {
    name: 'If-None-Match with the ETag is a 304 without body or entity headers',
    setup: (app) => app.get('/', (_req, res) => res.send('hello')),
    send: [{ path: '/', headers: { 'if-none-match': HELLO_EITHER } }, { path: '/', headers: { 'if-none-match': `"x", ${HELLO_EITHER}` } }],
    expect: [{ ...notModified, headers: { ...notModified.headers, etag: HELLO_ETAG } }, notModified],
  },
  {
    name: 'If-None-Match with another ETag is a 200',
    setup: (app) => app.get('/', (_req, res) => res.send('hello')),
    send: [{ path: '/', headers: { 'if-none-match': 'W/"5-other"' } }],
    expect: [hello],
  },
  {
    name: 'If-None-Match: * is a 304',
    setup: (app) => app.get('/', (_req, res) => res.send('hello')),
    send: [{ path: '/', headers: { 'if-none-match': '*' } }],
    expect: [notModified],
  },
  {
    name: 'If-Modified-Since at or after Last-Modified is a 304',
    setup: (app) => app.get('/', (_req, res) => res.set('Last-Modified', 'Tue, 01 Jan 2030 00:00:00 GMT').send('hello')),
    send: [
      { path: '/', headers: { 'if-modified-since': 'Tue, 01 Jan 2030 00:00:00 GMT' } },
      { path: '/', headers: { 'if-modified-since': 'Mon, 31 Dec 2029 00:00:00 GMT' } },
    ],
    expect: [notModified, { status: 200, body: 'hello' }],
  },
  {
    name: 'Cache-Control: no-cache makes a request stale',
    setup: (app) => app.get('/', (_req, res) => res.send('hello')),
    send: [{ path: '/', headers: { 'if-none-match': HELLO_EITHER, 'cache-control': 'no-cache' } }],
    expect: [hello],
  },
  {
    name: 'a matching ETag on a POST is still a 200',
    setup: (app) => app.post('/', (_req, res) => res.send('hello')),
    send: [{ method: 'POST', path: '/', headers: { 'if-none-match': HELLO_ETAG } }],
    expect: [{ status: 200, body: 'hello' }],
  },
  {
    name: 'a matching ETag on an error status is not a 304',
    setup: (app) => app.get('/', (_req, res) => res.status(404).send('hello')),
    send: [{ path: '/', headers: { 'if-none-match': HELLO_ETAG } }],
    expect: [{ status: 404, body: 'hello' }],
  },
  {
    name: 'an ETag set by the handler is kept',
    setup: (app) => app.get('/', (_req, res) => res.set('ETag', '"mine"').send('hello')),
    send: [{ path: '/' }, { path: '/', headers: { 'if-none-match': '"mine"' } }],
    expect: [{ status: 200, body: 'hello', headers: { etag: '"mine"' } }, { status: 304, body: '' }],
  },
  {
    name: 'etag disabled sends none',
    setup: (app) => {
      app.disable('etag');
      app.get('/', (_req, res) => res.send('hello'));
    },
    send: [{ path: '/' }],
    expect: [{ status: 200, body: 'hello', headers: { etag: null } }],
  },
  {
    name: 'etag strong',
    setup: (app) => {
      app.set('etag', 'strong');
      app.get('/', (_req, res) => res.send('hello'));
    },
    send: [{ path: '/' }],
    expect: [{ status: 200, body: 'hello', headers: { etag: '"5-qvTGHdzF6KLavt4PO0gs2a6pQ00"' } }],
  },
  {
    name: 'etag as a function of the body',
    setup: (app) => {
      app.set('etag', (body: Buffer | string) => `"len-${body.length}"`);
      app.get('/', (_req, res) => res.send('hello'));
    },
    send: [{ path: '/' }],
    expect: [{ status: 200, body: 'hello', headers: { etag: '"len-5"' } }],
  },
  {
    name: 'HEAD sends the headers of send() and no body',
    setup: (app) => app.get('/', (_req, res) => res.send('hello')),
    send: [{ method: 'HEAD', path: '/' }],
    expect: [{ ...hello, body: '' }],
  },
  {
    name: 'HEAD of json()',
    setup: (app) => app.get('/', (_req, res) => res.json({ a: 1 })),
    send: [{ method: 'HEAD', path: '/' }],
    expect: [{ status: 200, body: '', headers: { 'content-type': JSON_TYPE, 'content-length': '7', etag: A1_ETAG } }],
  },
  {
    name: 'HEAD with a matching ETag is a 304',
    setup: (app) => app.get('/', (_req, res) => res.send('hello')),
    send: [{ method: 'HEAD', path: '/', headers: { 'if-none-match': HELLO_EITHER } }],
    expect: [notModified],
  },
  {
    name: 'status 204 strips the body and its headers',
    setup: (app) => app.get('/', (_req, res) => res.status(204).set('X-Kept', 'yes').send('hello')),
    send: [{ path: '/' }],
    expect: [{ status: 204, body: '', headers: { 'content-type': null, 'content-length': null, 'transfer-encoding': null, 'x-kept': 'yes' } }],
  },
  {
    name: 'status 304 strips the body and its headers',
    setup: (app) => app.get('/', (_req, res) => res.status(304).send('hello')),
    send: [{ path: '/' }],
    expect: [{ status: 304, body: '', headers: { 'content-type': null, 'content-length': null } }],
  },
  {
    name: 'status() with an invalid code fails the request',
    setup: (app) => app.get('/', (_req, res) => res.status(1000).send('x')),
    send: [{ path: '/' }],
    expect: [{ status: 500, body: /Internal Server Error/ }],
  },
  {
    name: 'res.format answers by Accept, 406 when nothing fits',
    setup: (app) =>
      app.get('/', (_req, res) =>
        res.format({
          'text/plain': () => res.send('text'),
          'application/json': () => res.json({ t: 'json' }),
        }),
      ),
    send: [
      { path: '/', headers: { accept: 'application/json' } },
      { path: '/', headers: { accept: 'text/*' } },
      { path: '/', headers: { accept: 'image/png' } },
    ],
    expect: [
      { status: 200, body: '{"t":"json"}', headers: { vary: 'Accept' } },
      { status: 200, body: 'text', headers: { 'content-type': 'text/plain; charset=utf-8' } },
      { status: 406, body: /Not Acceptable/ },
    ],
  },
  {
    name: 'res.format falls back to default',
    setup: (app) => app.get('/', (_req, res) => res.format({ 'text/html': () => res.send('<p>'), default: () => res.status(200).send('other') })),
    send: [{ path: '/', headers: { accept: 'image/png' } }],
    expect: [{ status: 200, body: 'other' }],
  },
  {
    name: 'res.end leaves headers as they are',
    setup: (app) => app.get('/', (_req, res) => res.status(201).end('raw')),
    send: [{ path: '/' }],
    expect: [{ status: 201, body: 'raw', headers: { 'content-type': null, etag: null } }],
  },
];

/** Cases whose answers carry a built-in ETag: on legacy, Express 3's MD5 one. */
const TAGGED = [
  'send(string): HTML in UTF-8 with its byte length and a weak ETag',
  'send(object) and send(array) are JSON',
  'send of an empty string',
  'json(object), json(null), json(string)',
  'If-None-Match with the ETag is a 304 without body or entity headers',
  'If-None-Match with another ETag is a 200',
  'Cache-Control: no-cache makes a request stale',
  'etag strong',
  'HEAD sends the headers of send() and no body',
  'HEAD of json()',
  'HEAD with a matching ETag is a 304',
];
for (const c of sendCases) if (TAGGED.includes(c.name)) c.legacy = md5Tags(c.expect);
