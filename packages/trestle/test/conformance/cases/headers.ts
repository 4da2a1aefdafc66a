// Response headers: set/append/get, Content-Type shorthands, Vary,
// Content-Disposition, Link, Location, cookies and X-Powered-By.
import type { Case } from '../harness';

export const headerCases: Case[] = [
  {
    name: 'set(field, value) and get(field) ignore the case of the name',
    setup: (app) => app.get('/', (_req, res) => res.set('X-Thing', 'one').send(String(res.get('x-thing')))),
    send: [{ path: '/' }],
    expect: [{ status: 200, body: 'one', headers: { 'x-thing': 'one' } }],
  },
  {
    name: 'set(object) sets each field; numbers become strings',
    setup: (app) => app.get('/', (_req, res) => res.set({ 'X-A': 'a', 'X-N': 5 } as unknown as Record<string, string>).send(typeof res.get('X-N'))),
    send: [{ path: '/' }],
    expect: [{ status: 200, body: 'string', headers: { 'x-a': 'a', 'x-n': '5' } }],
  },
  {
    name: 'set(field, array) sends the field once per value',
    setup: (app) => app.get('/', (_req, res) => res.set('X-List', ['a', 'b']).send(JSON.stringify(res.get('X-List')))),
    send: [{ path: '/' }],
    expect: [{ status: 200, body: '["a","b"]', headers: { 'x-list': 'a, b' } }],
  },
  {
    name: 'header() is set()',
    setup: (app) => app.get('/', (_req, res) => res.header('X-H', 'h').send('ok')),
    send: [{ path: '/' }],
    expect: [{ status: 200, headers: { 'x-h': 'h' } }],
  },
  {
    name: 'set Content-Type gains a charset',
    setup: (app) => {
      app.get('/text', (_req, res) => res.set('Content-Type', 'text/plain').end('x'));
      app.get('/bin', (_req, res) => res.set('Content-Type', 'image/png').end('x'));
    },
    send: [{ path: '/text' }, { path: '/bin' }],
    expect: [
      { status: 200, headers: { 'content-type': 'text/plain; charset=utf-8' } },
      { status: 200, headers: { 'content-type': 'image/png' } },
    ],
    legacy: [
      { status: 200, headers: { 'content-type': 'text/plain' } },
      { status: 200, headers: { 'content-type': 'image/png' } },
    ],
  },
  {
    name: 'set Content-Type with an array is an error',
    setup: (app) => app.get('/', (_req, res) => res.set('Content-Type', ['a/b', 'c/d']).end('x')),
    send: [{ path: '/' }],
    expect: [{ status: 500, body: /Internal Server Error/ }],
    legacy: [{ status: 200, body: 'x', headers: { 'content-type': 'a/b' } }],
  },
  {
    name: 'append adds values; set replaces them',
    setup: (app) =>
      app.get('/', (_req, res) => {
        res.append('X-Multi', 'a');
        res.append('X-Multi', ['b', 'c']);
        res.append('X-Once', '1');
        res.set('X-Once', '2');
        res.send(JSON.stringify(res.get('X-Multi')));
      }),
    send: [{ path: '/' }],
    expect: [{ status: 200, body: '["a","b","c"]', headers: { 'x-multi': 'a, b, c', 'x-once': '2' } }],
  },
  {
    name: 'type() maps an extension or a name to a MIME type',
    setup: (app) => {
      app.get('/json', (_req, res) => res.type('json').end());
      app.get('/dot', (_req, res) => res.type('.html').end());
      app.get('/full', (_req, res) => res.type('application/x-thing').end());
      app.get('/file', (_req, res) => res.type('photo.png').end());
      app.get('/unknown', (_req, res) => res.type('nope').end());
    },
    send: [{ path: '/json' }, { path: '/dot' }, { path: '/full' }, { path: '/file' }, { path: '/unknown' }],
    expect: [
      { status: 200, headers: { 'content-type': 'application/json; charset=utf-8' } },
      { status: 200, headers: { 'content-type': 'text/html; charset=utf-8' } },
      { status: 200, headers: { 'content-type': 'application/x-thing' } },
      { status: 200, headers: { 'content-type': 'image/png' } },
      { status: 200, headers: { 'content-type': 'application/octet-stream' } },
    ],
    legacy: [
      { status: 200, headers: { 'content-type': 'application/json' } },
      { status: 200, headers: { 'content-type': 'text/html' } },
      { status: 200, headers: { 'content-type': 'application/x-thing' } },
      { status: 200, headers: { 'content-type': 'image/png' } },
      { status: 200, headers: { 'content-type': 'application/octet-stream' } },
    ],
  },
  {
    name: 'contentType() is type()',
    setup: (app) => app.get('/', (_req, res) => res.contentType('txt').end()),
    send: [{ path: '/' }],
    expect: [{ status: 200, headers: { 'content-type': 'text/plain; charset=utf-8' } }],
    legacy: [{ status: 200, headers: { 'content-type': 'text/plain' } }],
  },
  {
    name: 'vary adds each field once',
    setup: (app) =>
      app.get('/', (_req, res) => {
        res.vary('Accept');
        res.vary('accept');
        res.vary('Origin');
        res.end();
      }),
    send: [{ path: '/' }],
    expect: [{ status: 200, headers: { vary: 'Accept, Origin' } }],
  },
  {
    name: 'attachment with a file name sets the disposition and the type',
    setup: (app) => {
      app.get('/named', (_req, res) => res.attachment('reports/q1 résumé.pdf').end());
      app.get('/bare', (_req, res) => res.attachment().end());
    },
    send: [{ path: '/named' }, { path: '/bare' }],
    expect: [
      { status: 200, headers: { 'content-disposition': 'attachment; filename="q1 r?sum?.pdf"; filename*=UTF-8\'\'q1%20r%C3%A9sum%C3%A9.pdf', 'content-type': 'application/pdf' } },
      { status: 200, headers: { 'content-disposition': 'attachment', 'content-type': null } },
    ],
    // content-disposition 0.5 (Express 4) keeps ISO-8859-1 names as they are.
    v4: [
      { status: 200, headers: { 'content-disposition': 'attachment; filename="q1 r\u00e9sum\u00e9.pdf"', 'content-type': 'application/pdf' } },
      { status: 200, headers: { 'content-disposition': 'attachment', 'content-type': null } },
    ],
    legacy: [
      { status: 200, headers: { 'content-disposition': 'attachment; filename="q1 r\u00e9sum\u00e9.pdf"', 'content-type': 'application/pdf' } },
      { status: 200, headers: { 'content-disposition': 'attachment', 'content-type': null } },
    ],
  },
  {
    name: 'links builds a Link header and appends to it',
    setup: (app) =>
      app.get('/', (_req, res) => {
        res.links({ next: '/p/2', last: '/p/9' });
        res.links({ prev: '/p/0' });
        res.end();
      }),
    send: [{ path: '/' }],
    expect: [{ status: 200, headers: { link: '</p/2>; rel="next", </p/9>; rel="last", </p/0>; rel="prev"' } }],
  },
  {
    name: 'location encodes the URL',
    setup: (app) => app.get('/', (_req, res) => res.location('/a b/ü?x=<y>').end()),
    send: [{ path: '/' }],
    expect: [{ status: 200, headers: { location: '/a%20b/%C3%BC?x=%3Cy%3E' } }],
    legacy: [{ status: 200, headers: { location: '/a b/ü?x=<y>' } }],
  },
  {
    name: "location('back') uses the Referrer",
    setup: (app) => app.get('/', (_req, res) => res.location('back').end()),
    send: [{ path: '/', headers: { referer: '/from' } }, { path: '/' }],
    expect: [
      { status: 200, headers: { location: 'back' } },
      { status: 200, headers: { location: 'back' } },
    ],
    v4: [
      { status: 200, headers: { location: '/from' } },
      { status: 200, headers: { location: '/' } },
    ],
    legacy: [
      { status: 200, headers: { location: '/from' } },
      { status: 200, headers: { location: '/' } },
    ],
  },
  {
    name: 'cookie and clearCookie',
    setup: (app) =>
      app.get('/', (_req, res) => {
        res.cookie('a', 'b c');
        res.cookie('o', { x: 1 }, { httpOnly: true, path: '/p' });
        res.clearCookie('gone');
        res.end();
      }),
    send: [{ path: '/' }],
    expect: [{ status: 200, headers: { 'set-cookie': /^a=b%20c; Path=\/,o=j%3A%7B%22x%22%3A1%7D; Path=\/p; HttpOnly,gone=; Path=\/; Expires=Thu, 01 Jan 1970 00:00:00 GMT$/ } }],
  },
  {
    name: 'X-Powered-By names the framework unless disabled',
    setup: (app) => {
      app.get('/', (_req, res) => res.send('x'));
    },
    send: [{ path: '/' }],
    expect: [{ status: 200, headers: { 'x-powered-by': 'Trestle' } }],
  },
  {
    name: 'x-powered-by disabled',
    setup: (app) => {
      app.disable('x-powered-by');
      app.get('/', (_req, res) => res.send('x'));
    },
    send: [{ path: '/' }],
    expect: [{ status: 200, headers: { 'x-powered-by': null } }],
  },
  {
    name: 'get() of a header never set',
    setup: (app) => app.get('/', (_req, res) => res.send(String(res.get('X-None')))),
    send: [{ path: '/' }],
    expect: [{ status: 200, body: 'undefined' }],
  },
];
