// Route parameters read from the path string, per generation, through every
// way a route can be defined. Compiled, never run.
import trestle from 'trestle';
import trestleLegacy from 'trestle/legacy';
import trestleV4 from 'trestle/v4';
import { expectType } from './expect';

const app = trestle();
const router = trestle.Router();

// v5: `:name` is a string, `{...}` optional, `*name` an array of segments.
app.get('/users/:id', (req) => expectType<{ id: string }>()(req.params));
app.post('/users/:userId/books/:bookId', (req) => expectType<string>()(req.params.bookId));
app.get('/items{/:page}', (req) => expectType<{ page?: string }>()(req.params));
app.get('/files/*path', (req) => expectType<string[]>()(req.params.path));
app.get('/docs{/*rest}', (req) => expectType<{ rest?: string[] }>()(req.params));
router.put('/things/:thing', (req) => expectType<string>()(req.params.thing));
router.route('/a/:b').get((req) => expectType<{ b: string }>()(req.params));
app.route('/x/:y').post((req) => expectType<string>()(req.params.y));
app.use('/shop/:shopId', (req, _res, next) => {
  expectType<string>()(req.params.shopId);
  next();
});
// A regular expression or a computed string: a dictionary of strings.
app.get(/^\/re\/(\d+)$/, (req) => expectType<string>()(req.params[0]));
const computed: string = '/anything';
app.get(computed, (req) => expectType<string>()(req.params.whatever));
// @ts-expect-error -- `id` is not a parameter of this path
app.get('/users/:userId', (req) => req.params.id.length);

// v4 and legacy syntax: `:name?` optional, `*` numbered.
const v4 = trestleV4();
v4.get('/u/:id?', (req) => expectType<{ id?: string }>()(req.params));
v4.get('/n/:id(\\d+)', (req) => expectType<{ id: string }>()(req.params));
v4.get('/files/*', (req) => expectType<{ 0: string }>()(req.params));
trestleV4.Router().get('/f/:name.:ext', (req) => expectType<{ name: string; ext: string }>()(req.params));
trestleLegacy().get('/r/*/x/:a', (req) => expectType<{ 0: string; a: string }>()(req.params));
// @ts-expect-error -- optional in v4 syntax, so possibly undefined
v4.get('/u/:id?', (req) => req.params.id.length);

// Param triggers get the value as a string (or declare an array for a v5 wildcard).
app.param('id', (_req, _res, next, value, name) => {
  expectType<string>()(value);
  expectType<string>()(name);
  next();
});
router.param('path', (_req, _res, next, value: string[]) => next(value.length === 0 ? new Error('empty') : undefined));
// @ts-expect-error -- v5 needs a name
router.param(() => undefined);
