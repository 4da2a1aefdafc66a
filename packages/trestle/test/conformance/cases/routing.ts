// Routing: methods, HEAD via GET, OPTIONS, 404, strict and case-sensitive
// matching, mount paths, next('route') and next('router'), regexp routes,
// arrays of paths, nested routers, sub-apps and errors.
import { METHODS } from 'node:http';
import { type Answer, type Case, type CaseApp, echo, type Handler, onError } from '../harness';

const ok = (body: string): Answer => ({ status: 200, body });

export const routing: Case[] = [
  {
    name: 'a GET route answers GET',
    setup: (app) => app.get('/hello', (_req, res) => res.send('hi')),
    send: [{ path: '/hello' }],
    expect: [ok('hi')],
  },
  {
    name: 'an unknown path is a 404 naming method and path',
    setup: (app) => app.get('/hello', (_req, res) => res.send('hi')),
    send: [{ path: '/nope' }],
    expect: [{ status: 404, body: /Cannot GET \/nope/, headers: { 'content-type': 'text/html; charset=utf-8', 'content-security-policy': "default-src 'none'", 'x-content-type-options': 'nosniff' } }],
    legacy: [{ status: 404, body: 'Cannot GET /nope\n', headers: { 'content-type': 'text/html; charset=utf-8', 'content-security-policy': null, 'x-content-type-options': 'nosniff' } }],
  },
  {
    name: 'a method without a route is a 404 naming the method',
    setup: (app) => app.get('/hello', (_req, res) => res.send('hi')),
    send: [{ method: 'POST', path: '/hello' }, { method: 'DELETE', path: '/hello' }],
    expect: [{ status: 404, body: /Cannot POST \/hello/ }, { status: 404, body: /Cannot DELETE \/hello/ }],
  },
  {
    name: 'the 404 page escapes the path',
    setup: () => undefined,
    send: [{ path: '/%3Cb%3E' }],
    expect: [{ status: 404, body: /Cannot GET \/%3Cb%3E/ }],
  },
  {
    name: 'each method routes to its own handler',
    setup: (app) => {
      app.get('/m', (_req, res) => res.send('get'));
      app.post('/m', (_req, res) => res.send('post'));
      app.put('/m', (_req, res) => res.send('put'));
      app.delete('/m', (_req, res) => res.send('delete'));
    },
    send: [{ path: '/m' }, { method: 'POST', path: '/m' }, { method: 'PUT', path: '/m' }, { method: 'DELETE', path: '/m' }],
    expect: [ok('get'), ok('post'), ok('put'), ok('delete')],
  },
  {
    name: 'HEAD runs the GET route and sends its headers without a body',
    setup: (app) => app.get('/h', (req, res) => res.set('X-Method', req.method).send('hello')),
    send: [{ method: 'HEAD', path: '/h' }],
    expect: [{ status: 200, body: '', headers: { 'x-method': 'HEAD', 'content-length': '5', 'content-type': 'text/html; charset=utf-8' } }],
  },
  {
    name: 'a HEAD route defined before GET answers HEAD',
    setup: (app) => {
      app.head('/h', (_req, res) => res.set('X-Which', 'head').end());
      app.get('/h', (_req, res) => res.set('X-Which', 'get').send('hello'));
    },
    send: [{ method: 'HEAD', path: '/h' }],
    expect: [{ status: 200, body: '', headers: { 'x-which': 'head' } }],
  },
  {
    name: 'app.all answers every method',
    setup: (app) => app.all('/any', (req, res) => res.send(req.method)),
    send: [{ path: '/any' }, { method: 'PUT', path: '/any' }, { method: 'PATCH', path: '/any' }],
    expect: [ok('GET'), ok('PUT'), ok('PATCH')],
  },
  {
    name: 'an unhandled OPTIONS lists the methods of the matching routes',
    setup: (app) => {
      app.get('/o', (_req, res) => res.send('get'));
      app.post('/o', (_req, res) => res.send('post'));
      app.put('/other', (_req, res) => res.send('put'));
    },
    send: [{ method: 'OPTIONS', path: '/o' }],
    expect: [{ status: 200, body: 'GET, HEAD, POST', headers: { allow: 'GET, HEAD, POST' } }],
    v4: [{ status: 200, body: 'GET,HEAD,POST', headers: { allow: 'GET,HEAD,POST', 'content-type': 'text/html; charset=utf-8' } }],
    legacy: [{ status: 200, body: 'GET,HEAD,POST', headers: { allow: 'GET,HEAD,POST', 'content-type': 'text/html; charset=utf-8' } }],
  },
  {
    name: 'an app.options route answers OPTIONS itself',
    setup: (app) => {
      app.get('/o', (_req, res) => res.send('get'));
      app.options('/o', (_req, res) => res.set('Allow', 'X').status(204).end());
    },
    send: [{ method: 'OPTIONS', path: '/o' }],
    expect: [{ status: 204, body: '', headers: { allow: 'X' } }],
  },
  {
    name: 'OPTIONS on a path without routes is a 404',
    setup: (app) => app.get('/o', (_req, res) => res.send('get')),
    send: [{ method: 'OPTIONS', path: '/none' }],
    expect: [{ status: 404, body: /Cannot OPTIONS \/none/ }],
  },
  {
    name: 'app.route chains methods on one path',
    setup: (app) => {
      app.route('/r').get((_req, res) => res.send('get r')).post((_req, res) => res.send('post r'));
    },
    send: [{ path: '/r' }, { method: 'POST', path: '/r' }],
    expect: [ok('get r'), ok('post r')],
  },
  {
    name: 'handlers run in order through next(), arrays flattened',
    setup: (app) => {
      const seen = (tag: string) => (req: { headers: Record<string, unknown> }, _res: unknown, next: () => void) => {
        req.headers['x-seen'] = `${(req.headers['x-seen'] as string | undefined) ?? ''}${tag}`;
        next();
      };
      app.get('/chain', seen('a'), [seen('b'), seen('c')], (req, res) => res.send(String(req.headers['x-seen'])));
    },
    send: [{ path: '/chain' }],
    expect: [ok('abc')],
  },
  {
    name: "next('route') skips to the next matching route",
    setup: (app) => {
      app.get('/n', (_req, _res, next) => next('route'), (_req, res) => res.send('skipped'));
      app.get('/n', (_req, res) => res.send('second route'));
    },
    send: [{ path: '/n' }],
    expect: [ok('second route')],
  },
  {
    name: "next('router') leaves the router",
    setup: (app, fw) => {
      const router = fw.Router();
      router.get('/x', (_req, _res, next) => next('router'));
      router.get('/x', (_req, res) => res.send('inside'));
      app.use(router);
      app.get('/x', (_req, res) => res.send('outside'));
    },
    send: [{ path: '/x' }],
    expect: [ok('outside')],
  },
  {
    name: 'paths ignore case by default',
    setup: (app) => app.get('/Foo', (req, res) => res.send(req.path)),
    send: [{ path: '/foo' }, { path: '/FOO' }],
    expect: [ok('/foo'), ok('/FOO')],
  },
  {
    name: 'case sensitive routing tells /Foo from /foo',
    setup: (app) => {
      app.enable('case sensitive routing');
      app.get('/Foo', (_req, res) => res.send('Foo'));
    },
    send: [{ path: '/Foo' }, { path: '/foo' }],
    expect: [ok('Foo'), { status: 404 }],
  },
  {
    name: 'a trailing slash is ignored by default',
    setup: (app) => {
      app.get('/t', (_req, res) => res.send('t'));
      app.get('/u/', (_req, res) => res.send('u'));
    },
    send: [{ path: '/t/' }, { path: '/u' }, { path: '/t//' }, { path: '/u//' }],
    expect: [ok('t'), ok('u'), { status: 404 }, { status: 404 }],
    legacy: [ok('t'), { status: 404 }, { status: 404 }, ok('u')],
  },
  {
    name: 'strict routing tells /t from /t/',
    setup: (app) => {
      app.enable('strict routing');
      app.get('/t', (_req, res) => res.send('t'));
      app.get('/u/', (_req, res) => res.send('u/'));
    },
    send: [{ path: '/t' }, { path: '/t/' }, { path: '/u/' }, { path: '/u' }, { path: '/u//' }],
    expect: [ok('t'), { status: 404 }, ok('u/'), { status: 404 }, { status: 404 }],
  },
  {
    name: "the route '/' also serves '//'",
    setup: (app) => {
      app.get('/', (req, res) => res.send(`${req.path} ${req.url}`));
    },
    send: [{ path: '/' }, { path: '//' }, { path: '//?x=1' }, { path: '///' }],
    expect: [ok('/ /'), ok('// //'), ok('// //?x=1'), { status: 404 }],
    v4: [ok('/ /'), { status: 404 }, { status: 404 }, { status: 404 }],
  },
  {
    name: "'//' among enough routes for the layer index, and after a mount path",
    setup: (app, fw) => {
      for (let i = 0; i < 9; i++) app.get(`/p${i}`, (_req, res) => res.send(`p${i}`));
      app.get('/', (req, res) => res.send(`root ${req.url}`));
      const sub = fw();
      sub.get('/', (req, res) => res.send(`sub ${req.url} ${req.originalUrl}`));
      sub.get('/x', (req, res) => res.send(`x ${req.url} ${req.originalUrl}`));
      app.use('/m', sub);
    },
    send: [{ path: '//' }, { path: '/m//' }, { path: '/m//x' }, { path: '/m/x' }],
    expect: [ok('root //'), ok('sub // /m//'), { status: 404 }, ok('x /x /m/x')],
    v4: [{ status: 404 }, ok('sub / /m//'), ok('x /x /m//x'), ok('x /x /m/x')],
  },
  {
    name: "an array of paths holding '/' also serves '//'",
    setup: (app) => app.get(['/x', '/'], (req, res) => res.send(req.url)),
    send: [{ path: '//' }, { path: '/x/' }],
    expect: [ok('//'), ok('/x/')],
    v4: [{ status: 404 }, ok('/x/')],
  },
  {
    name: 'the query string takes no part in matching',
    setup: (app) => app.get('/q', (req, res) => res.send(req.url)),
    send: [{ path: '/q?a=1&b=/x' }],
    expect: [ok('/q?a=1&b=/x')],
  },
  {
    name: 'a dot in a path is literal',
    setup: (app) => app.get('/file.json', (_req, res) => res.send('file')),
    send: [{ path: '/file.json' }, { path: '/filexjson' }],
    expect: [ok('file'), { status: 404 }],
  },
  {
    name: 'middleware without a path sees every request, url untouched',
    setup: (app) => app.use((req, res) => res.send(echo(req))),
    send: [{ path: '/a/b?c=d' }],
    expect: [ok('{"baseUrl":"","url":"/a/b?c=d","params":{}}')],
  },
  {
    name: 'a mount path is stripped from req.url for its middleware',
    setup: (app) => app.use('/api', (req, res) => res.send(echo(req) + req.originalUrl)),
    send: [{ path: '/api/users?x=1' }, { path: '/api' }, { path: '/API/Users' }],
    expect: [
      ok('{"baseUrl":"/api","url":"/users?x=1","params":{}}/api/users?x=1'),
      ok('{"baseUrl":"/api","url":"/","params":{}}/api'),
      ok('{"baseUrl":"/API","url":"/Users","params":{}}/API/Users'),
    ],
  },
  {
    name: 'a mount path matches whole segments only',
    setup: (app) => {
      app.use('/api', (_req, res) => res.send('api'));
      app.use((_req, res) => res.send('fallback'));
    },
    send: [{ path: '/apix' }, { path: '/api/' }],
    expect: [ok('fallback'), ok('api')],
  },
  {
    name: 'a mount path followed by a dot',
    setup: (app) => {
      app.use('/apple', (req, res) => res.send(`apple ${req.url}`));
      app.use((_req, res) => res.send('fallback'));
    },
    send: [{ path: '/apple.html' }],
    expect: [ok('fallback')],
    legacy: [ok('apple /.html')],
  },
  {
    name: 'a mount path with a trailing slash',
    setup: (app) => app.use('/api/', (req, res) => res.send(echo(req))),
    send: [{ path: '/api/x' }, { path: '/api' }],
    expect: [ok('{"baseUrl":"/api","url":"/x","params":{}}'), ok('{"baseUrl":"/api","url":"/","params":{}}')],
  },
  {
    name: 'a mount path with a parameter',
    setup: (app) => app.use('/users/:id', (req, res) => res.send(echo(req))),
    send: [{ path: '/users/7/posts' }],
    expect: [ok('{"baseUrl":"/users/7","url":"/posts","params":{"id":"7"}}')],
  },
  {
    name: 'an array of mount paths',
    setup: (app) => app.use(['/a', '/b'], (req, res) => res.send(echo(req))),
    send: [{ path: '/b/c' }],
    expect: [ok('{"baseUrl":"/b","url":"/c","params":{}}')],
  },
  {
    name: 'an array of route paths',
    setup: (app) => app.get(['/one', '/two'], (req, res) => res.send(req.path)),
    send: [{ path: '/one' }, { path: '/two' }, { path: '/three' }],
    expect: [ok('/one'), ok('/two'), { status: 404 }],
  },
  {
    name: 'a regexp route captures by index',
    setup: (app) => app.get(/^\/re(\d+)$/, (req, res) => res.send(JSON.stringify(req.params))),
    send: [{ path: '/re42' }, { path: '/rex' }],
    expect: [ok('{"0":"42"}'), { status: 404 }],
  },
  {
    name: 'a regexp route names its named groups',
    setup: (app) => app.get(/^\/n\/(?<id>\d+)$/, (req, res) => res.send(JSON.stringify(req.params))),
    send: [{ path: '/n/9' }],
    expect: [ok('{"id":"9"}')],
  },
  {
    name: 'a regexp mount path',
    setup: (app) => app.use(/^\/v\d+/, (req, res) => res.send(echo(req))),
    send: [{ path: '/v2/items' }],
    expect: [ok('{"baseUrl":"/v2","url":"/items","params":{}}')],
  },
  {
    name: 'a regexp mount path matches only at the start of the path',
    setup: (app) => {
      app.use(/\/api.*/, (req, res, next) => {
        res.set('X-Mounted', `${req.baseUrl} ${req.url}`);
        next();
      });
      app.use((req, res) => res.send(echo(req)));
    },
    send: [{ path: '/test/api/1234' }, { path: '/api/1234' }],
    expect: [
      { status: 200, body: '{"baseUrl":"","url":"/test/api/1234","params":{}}', headers: { 'x-mounted': null } },
      { status: 200, body: '{"baseUrl":"","url":"/api/1234","params":{}}', headers: { 'x-mounted': '/api/1234 /' } },
    ],
  },
  {
    name: 'a regexp mount path must end where a segment ends',
    setup: (app) => {
      app.use(/\/ap/, (req, res) => res.send(echo(req)));
      app.use((_req, res) => res.send('passed'));
    },
    send: [{ path: '/ap/x' }, { path: '/apix' }, { path: '/ap.x' }],
    expect: [ok('{"baseUrl":"/ap","url":"/x","params":{}}'), ok('passed'), ok('passed')],
    v4: [ok('{"baseUrl":"/ap","url":"/x","params":{}}'), ok('passed'), ok('{"baseUrl":"/ap","url":"/.x","params":{}}')],
    legacy: [ok('{"baseUrl":"/ap","url":"/x","params":{}}'), ok('passed'), ok('{"baseUrl":"/ap","url":"/.x","params":{}}')],
  },
  {
    name: 'a regexp mount path among enough routes for the layer index',
    setup: (app) => {
      // Ten routes with literal prefixes: trestle's router then picks candidates through its index.
      for (let i = 0; i < 10; i++) app.get(`/p${i}`, (_req, res) => res.send(`p${i}`));
      app.use(/\/api.*/, (req, res) => res.send(echo(req)));
      app.use(/^\/v\d+/, (req, res) => res.send(echo(req)));
      app.use((_req, res) => res.send('passed'));
    },
    send: [{ path: '/test/api/1' }, { path: '/api/1' }, { path: '/p3' }, { path: '/x/v2' }, { path: '/v2/y' }],
    expect: [
      ok('passed'),
      ok('{"baseUrl":"/api/1","url":"/","params":{}}'),
      ok('p3'),
      ok('passed'),
      ok('{"baseUrl":"/v2","url":"/y","params":{}}'),
    ],
  },
  {
    name: 'router.use with a regexp matches only at the start of the rest of the path',
    setup: (app, fw) => {
      const router = fw.Router();
      router.use(/\/v(\d+)/, (req, res) => res.send(echo(req)));
      app.use('/r', router);
      app.use((_req, res) => res.send('passed'));
    },
    send: [{ path: '/r/v2/items' }, { path: '/r/x/v2/items' }, { path: '/v2/r/x' }],
    expect: [ok('{"baseUrl":"/r/v2","url":"/items","params":{"0":"2"}}'), ok('passed'), ok('passed')],
  },
  {
    name: 'nested routers build req.baseUrl',
    setup: (app, fw) => {
      const inner = fw.Router();
      inner.get('/leaf', (req, res) => res.send(`${req.baseUrl} ${req.url} ${req.originalUrl}`));
      const outer = fw.Router();
      outer.use('/inner', inner);
      app.use('/outer', outer);
    },
    send: [{ path: '/outer/inner/leaf?z=1' }],
    expect: [ok('/outer/inner /leaf?z=1 /outer/inner/leaf?z=1')],
  },
  {
    name: 'req.route is the matched route',
    setup: (app) => app.get('/users/:id', (req, res) => res.send(`${String((req.route as { path: unknown }).path)}`)),
    send: [{ path: '/users/3' }],
    expect: [ok('/users/:id')],
  },
  {
    name: 'a sub-app mounted on a path sees the rest of the path',
    setup: (app, fw) => {
      const sub = fw();
      sub.get('/page', (req, res) => res.send(`${req.baseUrl} ${req.url} ${String(sub.mountpath)}`));
      app.use('/blog', sub);
    },
    send: [{ path: '/blog/page' }],
    expect: [ok('/blog /page /blog')],
  },
  {
    name: 'router middleware runs only for paths under its mount',
    setup: (app, fw) => {
      const router = fw.Router();
      router.use((req, _res, next) => {
        req.headers['x-router'] = 'yes';
        next();
      });
      router.get('/in', (req, res) => res.send(String(req.headers['x-router'])));
      app.use('/r', router);
      app.get('/out', (req, res) => res.send(String(req.headers['x-router'])));
    },
    send: [{ path: '/r/in' }, { path: '/out' }],
    expect: [ok('yes'), ok('undefined')],
  },
  {
    name: 'a thrown error becomes a 500',
    setup: (app) =>
      app.get('/boom', () => {
        throw new Error('boom');
      }),
    send: [{ path: '/boom' }],
    expect: [{ status: 500, body: /Internal Server Error/ }],
  },
  {
    name: 'an error status and its message in production',
    setup: (app) =>
      app.get('/forbidden', (_req, _res, next) => next(Object.assign(new Error('no way'), { status: 403 }))),
    send: [{ path: '/forbidden' }],
    expect: [{ status: 403, body: /Forbidden/ }],
  },
  {
    name: 'next(err) skips to the error handler',
    setup: (app) => {
      app.get('/e', (_req, _res, next) => next(new Error('bad')));
      app.use((_req, res) => res.send('not me'));
      app.use(onError((err, _req, res, _next) => res.status(418).send(`caught ${(err as Error).message}`)));
    },
    send: [{ path: '/e' }],
    expect: [{ status: 418, body: 'caught bad' }],
  },
  {
    name: 'an error handler may pass the error on',
    setup: (app) => {
      app.get('/e', (_req, _res, next) => next(new Error('bad')));
      app.use(onError((err, _req, _res, next) => next(err)));
      app.use(onError((err, _req, res, _next) => res.status(500).send(`second ${(err as Error).message}`)));
    },
    send: [{ path: '/e' }],
    expect: [{ status: 500, body: 'second bad' }],
  },
  {
    name: 'an error handler that calls next() resumes normal handlers',
    setup: (app) => {
      app.get('/e', (_req, _res, next) => next(new Error('bad')));
      app.use(onError((_err, _req, _res, next) => next()));
      app.use((_req, res) => res.send('recovered'));
    },
    send: [{ path: '/e' }],
    expect: [ok('recovered')],
  },
  // QUERY is in http.METHODS from node 20.19.3 (and 22.2.0): every node CI runs has it. Where it is
  // absent, node's parser refuses the method before the app (app.test.ts, 'routing methods').
  ...(METHODS.includes('QUERY') ? [queryCase()] : []),
];

function queryCase(): Case {
  return {
    name: 'QUERY routes like any method: app.query, app.all, OPTIONS lists it, an unrouted QUERY is a 404',
    setup: (app) => {
      (app as CaseApp & { query(path: string, handler: Handler): unknown }).query('/search', (req, res) => res.send(`query ${req.method} ${req.get('content-length')}`));
      app.all('/any', (req, res) => res.send(`all ${req.method}`));
    },
    send: [
      { method: 'QUERY', path: '/search', headers: { 'content-type': 'text/plain' }, body: 'q=1' },
      { method: 'QUERY', path: '/any' },
      { method: 'QUERY', path: '/nope' },
      { method: 'OPTIONS', path: '/search' },
      { path: '/search' },
    ],
    expect: [
      ok('query QUERY 3'),
      ok('all QUERY'),
      { status: 404, body: /Cannot QUERY \/nope/ },
      { status: 200, body: 'QUERY', headers: { allow: 'QUERY' } },
      { status: 404, body: /Cannot GET \/search/ },
    ],
  };
}
