// Handlers, bodies, locals and the names Express users import. Compiled, never run.
import trestle, { type ErrorRequestHandler, type NextFunction, type Request, type RequestHandler, type Response } from 'trestle';
import { expectType } from './expect';

interface CreateUser {
  name: string;
}
interface UserOut {
  id: number;
  name: string;
}

const app = trestle();

// Generic parameters in @types/express's order: params, response body, request body, query, locals.
const create: RequestHandler<{ org: string }, UserOut, CreateUser, { dryRun?: string }> = (req, res) => {
  expectType<string>()(req.params.org);
  expectType<CreateUser>()(req.body);
  expectType<string | undefined>()(req.query.dryRun);
  res.status(201).json({ id: 1, name: req.body.name });
  // @ts-expect-error -- the response body type is UserOut
  res.json({ id: 'one' });
};
app.post('/orgs/:org/users', create);

// async handlers, and ones that return what send() returns, are fine.
app.get('/async', async (_req, res) => {
  await Promise.resolve();
  res.send('done');
});
app.get('/returns', (_req, res) => res.send('ok'));

// Error handlers are told apart by their four parameters, with err typed as the user likes.
app.use((err: Error, req: Request, res: Response, _next: NextFunction) => {
  res.status(500).send(`${err.message} at ${req.path}`);
});
const onError: ErrorRequestHandler = (err, _req, res, next) => {
  // `any`, as @types/express has it (`unknown` under `Trestle.TypeOptions { strict: true }`).
  expectType<any>()(err);
  if (res.headersSent) return next(err);
  res.sendStatus(500);
};
app.use(onError);

// Request and response members.
app.get('/members', (req, res) => {
  expectType<string>()(req.path);
  expectType<string>()(req.originalUrl);
  expectType<string | undefined>()(req.get('user-agent'));
  expectType<string | false>()(req.accepts(['json', 'html']));
  expectType<string | false | null>()(req.is('json'));
  expectType<boolean>()(req.fresh);
  expectType<Response>()(res.status(200).set('X-A', '1').type('json'));
  // @ts-expect-error -- status takes a number
  res.status('200');
  res.cookie('sid', 'x', { httpOnly: true, sameSite: 'strict', maxAge: 1000 });
  res.locals.user = 'ann';
});

// App locals typed by the app's declaration; settings typed by name.
const typed = trestle<{ title: string }>();
expectType<string>()(typed.locals.title);
typed.locals({ title: 'x' });
expectType<string>()(app.get('env'));
expectType<number | string | undefined>()(app.get('json spaces'));
app.set('trust proxy', 1);
app.set('etag', 'strong');
// @ts-expect-error -- `x-powered-by` is a boolean
app.set('x-powered-by', 'yes');
// A query parser is given null when the URL has no query string; one written
// for Express's types, taking a string, still type-checks.
app.set('query parser', (str: string | null) => ({ raw: str ?? '' }));
app.set('query parser', (str: string) => ({ raw: str }));
// @ts-expect-error -- a parser answers an object
app.set('query parser', (str: string) => str.length);

// Middleware that augments the request the way the ecosystem does: globally.
declare global {
  // eslint-disable-next-line @typescript-eslint/no-namespace
  namespace Express {
    interface Request {
      requestId?: string;
    }
  }
}
app.use((req, _res, next) => {
  req.requestId = 'abc';
  next();
});
app.get('/id', (req, res) => res.send(req.requestId ?? '-'));

// req.query can be replaced, as validation middleware does.
app.use((req, _res, next) => {
  req.query = { page: '1' };
  next();
});

// Routers and sub-apps mount where middleware does.
const sub = trestle();
app.use('/sub', sub);
app.use(trestle.Router({ mergeParams: true }));
app.use(trestle.json({ limit: '1mb' }), trestle.urlencoded({ extended: false }), trestle.static('public', { maxAge: '1d' }));

// `Handler` is a request handler, as @types/express names it: inline parameters are typed.
const named: trestle.Handler = (req, res) => {
  expectType<string>()(req.path);
  res.send('ok');
};
app.get('/named', named);
