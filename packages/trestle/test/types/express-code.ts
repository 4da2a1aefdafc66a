// Statements typed Express apps are made of (written against @types/express),
// on trestle's types. Compiled, never run.
import trestle, {
  type Application,
  type CookieOptions,
  type Errback,
  type Express,
  type IRoute,
  type IRouter,
  type IRouterMatcher,
  type Locals,
  type MediaType,
  type NextFunction,
  type Query,
  type Request,
  type RequestHandler,
  type RequestParamHandler,
  type RequestRanges,
  type Response,
  type Send,
} from 'trestle';
import trestleV4 from 'trestle/v4';
import { expectType } from './expect';

interface Params {
  id: string;
}
interface Item {
  id: string;
  ok: boolean;
}
interface NewItem {
  name: string;
}
interface Search {
  q?: string;
}

const app = trestle();
const router = trestle.Router();

// Type arguments on every route method, chained ones included.
app.get<Params, Item, NewItem, Search>('/items/:id', (req, res) => {
  expectType<NewItem>()(req.body);
  res.json({ id: req.params.id, ok: true });
});
app
  .route('/items/:id')
  .get<Params, Item, unknown, Search>((req, res) => {
    expectType<string | undefined>()(req.query.q);
    res.json({ id: req.params.id, ok: true });
  })
  .put<Params, Item, NewItem>((req, res) => {
    expectType<string>()(req.body.name);
    // @ts-expect-error -- the response body is an Item
    res.json({ id: 1 });
  });
router.route('/things').post<Record<string, never>, Item, NewItem>((req, res) => {
  res.status(201).json({ id: req.body.name, ok: true });
});

// Response<ResBody, Locals, StatusCode>: the third argument types res.status().
function reply(res: Response<Item, { user: string }, 200 | 404>): void {
  res.status(404);
  // @ts-expect-error -- 500 is not among the status codes this response may send
  res.status(500);
  expectType<string>()(res.locals.user);
  // @ts-expect-error -- typed locals are exact: no `other` among them
  void res.locals.other;
  // @ts-expect-error -- res.send() takes the response body type, as res.json() does
  res.send('text');
  res.send({ id: 'a', ok: true });
}
void reply;

// The type names Express's core types export.
const ranges = (req: Request): RequestRanges | undefined => {
  const r = req.range(1000);
  return typeof r === 'number' ? undefined : r;
};
void ranges;
const send: Send<string, Response> = (body) => app.response.send(body);
void send;
const query: Query = { a: 'b', list: ['1', '2'], nested: { c: 'd' } };
void query;
const locals: Locals = {};
void locals;
const done: Errback = (err) => void err;
void done;
const express: Express = trestle();
const application: Application = express;
void application;
const iRouter: IRouter = trestle.Router();
void iRouter;
const matcher: IRouterMatcher<IRouter> = iRouter.get;
void matcher;
const iRoute: IRoute = iRouter.route('/r');
void iRoute;
const cookie: CookieOptions = { httpOnly: true };
void cookie;
const media: MediaType = { value: 'text/html', quality: 1, type: 'text', subtype: 'html' };
void media;
const onParam: RequestParamHandler = (_req, _res, next, value: string) => next(value === '' ? new Error('empty') : undefined);
app.param('id', onParam);

// res.get() is a string or undefined, as @types/express has it.
app.get('/ct', (_req, res) => {
  const ct: string | undefined = res.get('content-type');
  // @ts-expect-error -- a string or undefined, never a number or an array
  const n: number | string[] = res.get('content-length');
  void n;
  res.send(ct ?? 'none');
});

// `mount` hands the parent application to the listener.
const sub = trestle();
sub.on('mount', (parent) => {
  expectType<Application>()(parent);
  parent.get('env');
  // @ts-expect-error -- the parent is an application, not anything
  parent.notAMember();
});
sub.once('mount', (parent) => expectType<Application>()(parent));
app.use('/sub', sub);

// Typed app locals are exact too.
const typed = trestle<{ title: string }>();
expectType<string>()(typed.locals.title);
// @ts-expect-error -- not among the app's locals
void typed.locals.subtitle;
const declared: Application<{ a: string }> = trestle<{ a: string }>();
expectType<string>()(declared.locals.a);
// @ts-expect-error -- not among the app's locals
void declared.locals.b;

// Handlers typed with the generic names keep their parameter types.
const handler: RequestHandler<Params> = (req: Request<Params>, res: Response, next: NextFunction) => {
  if (req.params.id === '') return next();
  res.end();
};
app.delete('/items/:id', handler);

// A path without handlers: Express 4 adds a route that never answers; Express 5 refuses it.
const v4 = trestleV4();
v4.post('/later');
v4.route('/later').get();
trestleV4.Router().put('/later');
// @ts-expect-error -- Express 5 requires a handler
app.post('/later');
// @ts-expect-error -- Express 5 requires a handler
app.route('/later').get();

// trestle/v4's factory still bundles query() and static.mime.
v4.use(trestleV4.query({ depth: 2 }), trestleV4.static('public'));
expectType<string>()(trestleV4.static.mime.lookup('a.html'));
trestleV4.static.mime.define({ 'text/x-note': ['note'] });
// @ts-expect-error -- Express 5 dropped express.query()
trestle.query();
