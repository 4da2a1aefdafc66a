// `trestle.Router` and `trestle.Route` as values: called, constructed, and
// reached below the API (their prototypes, where tools patch the methods
// every router and route inherits). Compiled, never run;
// test/types-conformance.test.ts checks the objects have these members.
import trestle, { Router } from 'trestle';
import trestleLegacy from 'trestle/legacy';
import trestleV4 from 'trestle/v4';
import { expectType } from './expect';

// v5 (router 2): called or constructed, routers inherit `Router.prototype`.
const built = new trestle.Router();
built.get('/items/:id', (req, res) => {
  expectType<string>()(req.params.id);
  res.end();
});
expectType<trestle.Router>()(built);
expectType<trestle.Router>()(trestle.Router({ mergeParams: true }));
expectType<trestle.Router>()(new Router({ strict: true, caseSensitive: true }));
const originalGet = trestle.Router.prototype.get;
trestle.Router.prototype.get = function patchedGet(this: trestle.Router, ...args: Parameters<typeof originalGet>) {
  return originalGet.apply(this, args);
} as typeof originalGet;
expectType<trestle.Router['handle']>()(trestle.Router.prototype.handle);
expectType<typeof trestle.Route>()(trestle.Router.Route);
// @ts-expect-error -- the v5 `Router` holds no methods of its own: they are on its prototype
trestle.Router.use(() => undefined);
// @ts-expect-error -- the options are an object
trestle.Router('strict');

// Routes: constructed on a path; their methods live on `Route.prototype`.
const route = new trestle.Route('/r');
expectType<trestle.Route>()(route.get((_req, res) => res.end()));
const originalPost = trestle.Route.prototype.post;
trestle.Route.prototype.post = function patchedPost(this: trestle.Route, ...args: Parameters<typeof originalPost>) {
  return originalPost.apply(this, args);
} as typeof originalPost;
// @ts-expect-error -- `path` is each route's own, not the prototype's
void trestle.Route.prototype.path;

// v4 (Express 4): `Router` is itself the prototype of every router.
const v4Router = new trestleV4.Router();
v4Router.get('/u/:id?', (req, res) => {
  expectType<string | undefined>()(req.params.id);
  res.end();
});
expectType<trestleV4.Router>()(trestleV4.Router({ mergeParams: true }));
const originalUse = trestleV4.Router.use;
trestleV4.Router.use = function patchedUse(this: trestleV4.Router, ...args: Parameters<typeof originalUse>) {
  return originalUse.apply(this, args);
} as typeof originalUse;
trestleV4.Router.handle = trestleV4.Router.handle.bind(trestleV4.Router);
expectType<trestleV4.Route>()(new trestleV4.Route('/x').all((_req, _res, next) => next()));
// @ts-expect-error -- Express 4's `Router.prototype` is an ordinary function's: the methods are on `Router`
void trestleV4.Router.prototype.get;
// @ts-expect-error -- only the v5 router class has `Route` on it
void trestleV4.Router.Route;

// legacy: the same shape as v4.
const legacyRouter = new trestleLegacy.Router();
expectType<trestleLegacy.Router>()(legacyRouter);
expectType<trestleLegacy.Router>()(trestleLegacy.Router());
expectType<trestleLegacy.Router['route']>()(trestleLegacy.Router.route);
expectType<trestleLegacy.Route>()(new trestleLegacy.Route('/x'));
