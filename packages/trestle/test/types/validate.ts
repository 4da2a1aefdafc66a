// trestle.validate(): the handlers after it see the schemas' output types,
// with no cast, in every generation, for zod, valibot and arktype. Compiled, never run.
import trestle from 'trestle';
import trestleLegacy from 'trestle/legacy';
import trestleV4 from 'trestle/v4';
import * as v from 'valibot';
import * as z from 'zod';
import { expectType } from './expect';
// arktype is an ES module only: its types are read as an import's.
import type { type as arkType } from 'arktype' with { 'resolution-mode': 'import' };

declare const type: typeof arkType;

const app = trestle();
app.use(trestle.json());

// The brief's example: body from the schema, params still from the path.
app.post('/u/:id', trestle.validate({ body: z.object({ name: z.string() }) }), (req, res) => {
  expectType<string>()(req.body.name);
  expectType<string>()(req.params.id);
  res.json({ name: req.body.name });
});

// Coerced query and params: the output types, not strings.
app.get(
  '/items/:page',
  trestle.validate({ params: z.object({ page: z.coerce.number() }), query: z.object({ q: z.string().optional(), limit: z.coerce.number().default(10) }) }),
  (req) => {
    expectType<number>()(req.params.page);
    expectType<number>()(req.query.limit);
    expectType<string | undefined>()(req.query.q);
    expectType<{ page: number }>()(req.validated.params);
  },
);

// Headers: in req.validated.headers; req.headers stays node's.
app.get('/h', trestle.validate({ headers: z.object({ 'x-api-key': z.string() }) }), (req) => {
  expectType<string>()(req.validated.headers['x-api-key']);
  expectType<string | string[] | undefined>()(req.headers['x-api-key']);
});

// valibot and arktype.
app.put('/v/:id', trestle.validate({ body: v.object({ n: v.number() }) }), (req) => expectType<number>()(req.body.n));
app.patch('/a', trestle.validate({ body: type({ flag: 'boolean' }) }), (req) => expectType<boolean>()(req.body.flag));

// Several handlers after it, and app.route().
app.post('/two', trestle.validate({ body: z.object({ a: z.number() }) }), (req, _res, next) => {
  expectType<number>()(req.body.a);
  next();
}, (req) => expectType<number>()(req.body.a));
app.route('/r/:id').post(trestle.validate({ body: z.object({ b: z.boolean() }) }), (req) => {
  expectType<boolean>()(req.body.b);
  expectType<string>()(req.params.id);
});
trestle.Router().delete('/x/:id', trestle.validate({ params: z.object({ id: z.uuid() }) }), (req) => expectType<string>()(req.params.id));

// trestle/v4 and trestle/legacy.
trestleV4().post('/u/:id?', trestleV4.validate({ body: z.object({ name: z.string() }) }), (req) => {
  expectType<string>()(req.body.name);
  expectType<{ id?: string }>()(req.params);
});
trestleLegacy().post('/u', trestleLegacy.validate({ query: z.object({ n: z.coerce.number() }) }), (req) => expectType<number>()(req.query.n));

// A field the schema does not have is an error.
// @ts-expect-error -- `nope` is not in the body schema
app.post('/bad', trestle.validate({ body: z.object({ name: z.string() }) }), (req) => req.body.nope);

// The middleware holds its schemas; describe() its description; routes() and openapi() are typed.
const check = trestle.validate({ body: z.object({ a: z.string() }) });
expectType<{ body: z.ZodObject<{ a: z.ZodString }> }>()(check.schemas);
app.get('/d', trestle.describe({ summary: 'Read', tags: ['t'], responses: { 200: { description: 'OK' } } }), (_req, res) => res.end());
const listed: trestle.RouteInfo[] = trestle.routes(app);
expectType<string>()(listed[0]!.path);
expectType<'3.1.0'>()(trestle.openapi(app, { info: { title: 'T', version: '1' } }).openapi);

// Not right after the path: the route method's type arguments give the output type (docs/routes.md).
const NewUser = z.object({ name: z.string() });
app.post<'/users', trestle.ParamsDictionary, unknown, z.infer<typeof NewUser>>('/users', trestle.json(), trestle.validate({ body: NewUser }), (req) => {
  expectType<string>()(req.body.name);
});
