// Where no type argument says more, the types are those of @types/express
// (`req.body` is `any`, `res.locals` a `Record<string, any>`), so an app
// typed against it compiles unchanged; paths still type `req.params`. The
// strict opt-in (`Trestle.TypeOptions { strict: true }`) is global, so it is
// compiled in a program of its own: test/journeys/typescript.test.ts.
// Compiled, never run.
import trestle, { type ErrorRequestHandler, type NextFunction, type ParsedQs, type Request, type RequestHandler, type Response } from 'trestle';
import trestleV4 from 'trestle/v4';
import { expectType } from './expect';

const app = trestle();

app.post('/users/:id', (req, res) => {
  expectType<string>()(req.params.id);
  expectType<any>()(req.body);
  expectType<ParsedQs>()(req.query);
  expectType<any>()(req.cookies);
  expectType<any>()(req.signedCookies);
  expectType<any>()(res.locals.user);
  // A body read as real apps read it, with no cast.
  const name: string = req.body.name;
  res.json({ name, ok: true });
});

app.use((req, res, next) => {
  expectType<any>()(req.body);
  res.locals.startedAt = Date.now();
  next();
});

// An error handler reads `err` as Express apps do (annotated: as with
// @types/express, four untyped parameters get no types from `app.use`).
app.use((err: any, _req: Request, res: Response, _next: NextFunction) => {
  res.status(err.status ?? 500).send(err.message);
});
const onError: ErrorRequestHandler = (err, _req, res, _next) => {
  res.status(err.status ?? 500).send(err.message);
};
app.use(onError);

// Locals typed by an interface, as with @types/express.
interface UserLocals {
  user: { id: string };
}
const withUser = (_req: Request, res: Response<any, UserLocals>) => {
  expectType<string>()(res.locals.user.id);
};
app.get('/me', withUser);

// The annotations of @types/express, with its defaults.
const handler: RequestHandler = (req, res) => {
  expectType<any>()(req.body);
  res.send(req.body.text);
};
app.get('/h', handler);
function read(req: Request, res: Response): void {
  expectType<any>()(req.body);
  expectType<any>()(res.locals.title);
}
app.get('/r', read);
expectType<any>()(app.locals.title);

// Type arguments still narrow.
app.post<{ id: string }, { ok: boolean }, { name: string }>('/items/:id', (req, res) => {
  expectType<string>()(req.body.name);
  // @ts-expect-error -- the response body is `{ ok: boolean }`
  res.json({ ok: 'yes' });
});

// The same defaults on trestle/v4.
trestleV4().post('/notes/:id?', (req, res) => {
  expectType<string | undefined>()(req.params.id);
  expectType<any>()(req.body);
  res.send(req.body.text);
});
