// Route parameters: names, decoding (and its 400), the path syntax of each
// generation, param triggers and mergeParams.
import { type Answer, type Case, onError } from '../harness';

const ok = (body: string): Answer => ({ status: 200, body });
const params = (req: { params: object }) => JSON.stringify({ ...req.params });

export const paramCases: Case[] = [
  {
    name: 'named parameters',
    setup: (app) => app.get('/users/:user/posts/:post', (req, res) => res.send(params(req))),
    send: [{ path: '/users/ann/posts/12' }, { path: '/users/ann/posts' }],
    expect: [ok('{"user":"ann","post":"12"}'), { status: 404 }],
  },
  {
    name: 'parameters are percent-decoded',
    setup: (app) => app.get('/p/:name', (req, res) => res.send(params(req))),
    send: [{ path: '/p/caf%C3%A9' }, { path: '/p/a%2Fb' }, { path: '/p/a+b' }],
    expect: [ok('{"name":"café"}'), ok('{"name":"a/b"}'), ok('{"name":"a+b"}')],
  },
  {
    name: 'malformed percent-encoding in a parameter is a 400',
    setup: (app) => app.get('/p/:name', (req, res) => res.send(params(req))),
    send: [{ path: '/p/%E0%A4%A' }],
    expect: [{ status: 400, body: /Bad Request/ }],
  },
  {
    name: 'the 400 of a malformed parameter reaches error handlers',
    setup: (app) => {
      app.get('/p/:name', (req, res) => res.send(params(req)));
      app.use(onError((err, _req, res, _next) => {
        const e = err as { status: number; message: string };
        res.status(e.status).send(e.message);
      }));
    },
    send: [{ path: '/p/%zz' }],
    expect: [{ status: 400, body: "Failed to decode param '%zz'" }],
  },
  {
    name: 'a parameter does not cross a slash',
    setup: (app) => app.get('/p/:name', (req, res) => res.send(params(req))),
    send: [{ path: '/p/a/b' }],
    expect: [{ status: 404 }],
  },
  {
    name: 'parameters separated by a dot or a dash',
    setup: (app) => {
      app.get('/f/:name.:ext', (req, res) => res.send(params(req)));
      app.get('/range/:from-:to', (req, res) => res.send(params(req)));
    },
    send: [{ path: '/f/report.pdf' }, { path: '/range/3-9' }],
    expect: [ok('{"name":"report","ext":"pdf"}'), ok('{"from":"3","to":"9"}')],
  },
  {
    name: 'an optional parameter written :name?',
    setup: (app) => app.get('/opt/:id?', (req, res) => res.send(params(req))),
    send: [{ path: '/opt/5' }, { path: '/opt' }],
    expect: { throws: /Unexpected \? at index 8/ },
    v4: [ok('{"id":"5"}'), ok('{}')],
    legacy: [ok('{"id":"5"}'), ok('{}')],
  },
  {
    name: 'an optional parameter written {/:name}',
    setup: (app) => app.get('/opt{/:id}', (req, res) => res.send(params(req))),
    send: [{ path: '/opt/5' }, { path: '/opt' }],
    expect: [ok('{"id":"5"}'), ok('{}')],
    v4: [{ status: 404 }, { status: 404 }],
    legacy: [{ status: 404 }, { status: 404 }],
  },
  {
    name: 'a parameter with its own pattern :id(\\d+)',
    setup: (app) => app.get('/n/:id(\\d+)', (req, res) => res.send(params(req))),
    send: [{ path: '/n/42' }, { path: '/n/x' }],
    expect: { throws: /Unexpected \( at index 6/ },
    v4: [ok('{"id":"42"}'), { status: 404 }],
    legacy: [ok('{"id":"42"}'), { status: 404 }],
  },
  {
    name: 'an unnamed wildcard *',
    setup: (app) => app.get('/files/*', (req, res) => res.send(params(req))),
    send: [{ path: '/files/a/b.txt' }],
    expect: { throws: /Missing parameter name at index 8/ },
    v4: [ok('{"0":"a/b.txt"}')],
    legacy: [ok('{"0":"a/b.txt"}')],
  },
  {
    name: 'a named wildcard *name',
    setup: (app) => app.get('/files/*path', (req, res) => res.send(params(req))),
    send: [{ path: '/files/a/b%20c.txt' }, { path: '/files' }],
    expect: [ok('{"path":["a","b c.txt"]}'), { status: 404 }],
    v4: [{ status: 404 }, { status: 404 }],
    legacy: [{ status: 404 }, { status: 404 }],
  },
  {
    name: 'an optional wildcard {*name}',
    setup: (app) => app.get('/all{/*rest}', (req, res) => res.send(params(req))),
    send: [{ path: '/all/x/y' }, { path: '/all' }],
    expect: [ok('{"rest":["x","y"]}'), ok('{}')],
    v4: [{ status: 404 }, { status: 404 }],
    legacy: [{ status: 404 }, { status: 404 }],
  },
  {
    name: 'app.param runs once per request for its parameter',
    setup: (app) => {
      let calls = 0;
      app.param('id', (req, _res, next, value, name) => {
        calls++;
        req.headers['x-param'] = `${name}=${value}#${calls}`;
        next();
      });
      app.get('/item/:id', (_req, _res, next) => next());
      app.get('/item/:id', (req, res) => res.send(String(req.headers['x-param'])));
    },
    send: [{ path: '/item/4' }, { path: '/item/5' }],
    expect: [ok('id=4#1'), ok('id=5#2')],
  },
  {
    name: 'app.param may fail the request with next(err)',
    setup: (app) => {
      app.param('id', (_req, _res, next, value) => next(value === 'bad' ? Object.assign(new Error('no'), { status: 404 }) : undefined));
      app.get('/item/:id', (req, res) => res.send(params(req)));
    },
    send: [{ path: '/item/bad' }, { path: '/item/good' }],
    expect: [{ status: 404, body: /Not Found/ }, ok('{"id":"good"}')],
  },
  {
    name: 'app.param may change req.params',
    setup: (app) => {
      app.param('id', (req, _res, next, value) => {
        (req.params as Record<string, unknown>)['id'] = `#${value}`;
        next();
      });
      app.get('/item/:id', (req, res) => res.send(params(req)));
    },
    send: [{ path: '/item/1' }],
    expect: [ok('{"id":"#1"}')],
  },
  {
    name: 'param triggers are local to their router',
    setup: (app, fw) => {
      const router = fw.Router();
      app.param('id', (req, _res, next) => {
        req.headers['x-app-param'] = 'ran';
        next();
      });
      router.get('/:id', (req, res) => res.send(String(req.headers['x-app-param'])));
      app.use('/r', router);
    },
    send: [{ path: '/r/3' }],
    expect: [ok('undefined')],
  },
  {
    name: 'a router keeps its own params by default',
    setup: (app, fw) => {
      const router = fw.Router();
      router.get('/:child', (req, res) => res.send(params(req)));
      app.use('/p/:parent', router);
    },
    send: [{ path: '/p/1/2' }],
    expect: [ok('{"child":"2"}')],
  },
  {
    name: 'mergeParams keeps the parent params, the child winning a shared name',
    setup: (app, fw) => {
      const router = fw.Router({ mergeParams: true });
      router.get('/:child/:id', (req, res) => res.send(params(req)));
      app.use('/p/:parent/:id', router);
    },
    send: [{ path: '/p/1/outer/2/inner' }],
    expect: [ok('{"parent":"1","id":"inner","child":"2"}')],
  },
  {
    name: 'mergeParams with a regexp mount path',
    setup: (app, fw) => {
      const router = fw.Router({ mergeParams: true });
      router.get('/:child', (req, res) => res.send(params(req)));
      app.use(/^\/r(\d)/, router);
    },
    send: [{ path: '/r7/x' }],
    expect: [ok('{"0":"7","child":"x"}')],
  },
  {
    name: 'req.params is empty in middleware without parameters',
    setup: (app) => app.use('/m', (req, res) => res.send(params(req))),
    send: [{ path: '/m/x' }],
    expect: [ok('{}')],
  },
];
