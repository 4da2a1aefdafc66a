// The public types against the objects that implement them, per entry. Each
// list below is checked at compile time (`npm run typecheck`) to name every
// member the type declares beyond node's own, and nothing else; each test
// checks at run time that the object has exactly the members of its list.
// So a member added to an object but not to its type (or the reverse) fails
// one of the two.
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { EventEmitter } from 'node:events';
import * as http from 'node:http';
import { join } from 'node:path';
import { describe, test } from 'node:test';
import cookieParser from 'cookie-parser';
import trestle from 'trestle';
import trestleLegacy from 'trestle/legacy';
import trestleV4 from 'trestle/v4';
import { rawRequest, serve } from './helpers';

/** The members `T` declares beyond those of `Base` (node's class) and of the global `Express` interface (the ecosystem's). */
type Members<T, Base, Global = object> = Exclude<keyof T, keyof Base | keyof Global> & string;

/** `keys`, checked at compile time to list every member of `K` and no other name. */
function keysOf<K extends string>() {
  return <const A extends readonly K[]>(...keys: A & ([Exclude<K, A[number]>] extends [never] ? unknown : [{ missing: Exclude<K, A[number]> }])): string[] => [...keys];
}

type V5Request = Members<trestle.Request, http.IncomingMessage, Express.Request>;
type V4Request = Members<trestleV4.Request, http.IncomingMessage, Express.Request>;
type LegacyRequest = Members<trestleLegacy.Request, http.IncomingMessage, Express.Request>;
type V5Response = Members<trestle.Response, http.ServerResponse, Express.Response>;
type V4Response = Members<trestleV4.Response, http.ServerResponse, Express.Response>;
type LegacyResponse = Members<trestleLegacy.Response, http.ServerResponse, Express.Response>;
type V5Application = Members<trestle.Application, EventEmitter, Express.Application>;
type V4Application = Members<trestleV4.Application, EventEmitter, Express.Application>;
type LegacyApplication = Members<trestleLegacy.Application, EventEmitter, Express.Application>;

const request = [
  'app', 'res', 'next', 'baseUrl', 'originalUrl', 'params', 'query', 'body', 'route', 'path', 'protocol', 'secure', 'ip', 'ips',
  'subdomains', 'hostname', 'host', 'fresh', 'stale', 'xhr', 'cookies', 'signedCookies', 'secret', 'get', 'header',
  'acceptsCharsets', 'acceptsEncodings', 'acceptsLanguages', 'range', 'accepts', 'is', 'signal',
] as const;
const response = [
  'app', 'locals', 'status', 'sendStatus', 'set', 'header', 'get', 'append', 'type', 'contentType', 'send', 'json', 'jsonp', 'vary',
  'location', 'redirect', 'links', 'attachment', 'cookie', 'clearCookie', 'format', 'sendFile', 'download', 'render',
] as const;
const methods = [
  'acl', 'bind', 'checkout', 'connect', 'copy', 'delete', 'get', 'head', 'link', 'lock', 'm-search', 'merge', 'mkactivity', 'mkcalendar',
  'mkcol', 'move', 'notify', 'options', 'patch', 'post', 'propfind', 'proppatch', 'purge', 'put', 'query', 'rebind', 'report', 'search',
  'source', 'subscribe', 'trace', 'unbind', 'unlink', 'unlock', 'unsubscribe',
] as const;
const routing = [...methods, 'use', 'all', 'route', 'param', 'ws'] as const;
const application = [
  ...routing, 'set', 'enable', 'disable', 'enabled', 'disabled', 'engine', 'render', 'listen', 'path', 'handle', 'locals', 'settings',
  'engines', 'mountpath', 'parent', 'request', 'response', 'cache', 'init', 'fetch', 'shuttingDown', 'onShutdown', 'shutdown',
] as const;
const routerPrototype = [...routing, 'handle'] as const;
const router = [...routerPrototype, 'stack', 'params', 'caseSensitive', 'mergeParams', 'strict'] as const;
const routePrototype = [...methods, 'all'] as const;
const factory = ['application', 'request', 'response', 'Router', 'Route', 'json', 'urlencoded', 'raw', 'text', 'static', 'shutdown', 'shutdownOnSignals', 'deadline', 'applyServerLimits', 'routes', 'validate', 'describe', 'openapi', 'attachWebSockets', 'checkOrigin', 'bunWebSocket'] as const;
const unbundled = [
  'bodyParser', 'compress', 'cookieSession', 'session', 'logger', 'cookieParser', 'favicon', 'responseTime', 'errorHandler', 'timeout',
  'methodOverride', 'vhost', 'csrf', 'directory', 'limit', 'multipart', 'staticCache',
] as const;
const bundled = [
  'basicAuth', 'compress', 'cookieParser', 'cookieSession', 'csrf', 'directory', 'errorHandler', 'favicon', 'methodOverride',
  'responseTime', 'session', 'timeout', 'vhost',
] as const;
const aliases = ['param', 'acceptsCharset', 'acceptsEncoding', 'acceptsLanguage'] as const;

const expected = {
  v5: {
    request: keysOf<V5Request>()(...request),
    response: keysOf<V5Response>()(...response),
    application: keysOf<V5Application>()(...application, 'router'),
    router: keysOf<Members<trestle.Router, object>>()(...router),
    factory: keysOf<Members<typeof trestle, object>>()(...factory),
    routerFactory: keysOf<Members<typeof trestle.Router, { prototype: unknown }>>()('Route'),
    routerPrototype: keysOf<Members<typeof trestle.Router.prototype, object>>()(...routerPrototype),
    routePrototype: keysOf<Members<typeof trestle.Route.prototype, object>>()(...routePrototype),
  },
  v4: {
    request: keysOf<V4Request>()(...request, ...aliases),
    response: keysOf<V4Response>()(...response, 'sendfile'),
    application: keysOf<V4Application>()(...application, 'router', 'del', '_router', 'lazyrouter'),
    router: keysOf<Members<trestleV4.Router, object>>()(...router),
    routerFactory: keysOf<Members<typeof trestleV4.Router, { prototype: unknown }>>()(...routerPrototype),
    routerPrototype: keysOf<Members<typeof trestleV4.Router.prototype, object>>()(),
    routePrototype: keysOf<Members<typeof trestleV4.Route.prototype, object>>()(...routePrototype),
    factory: keysOf<Members<typeof trestleV4, object>>()(...factory, ...unbundled, 'query'),
  },
  legacy: {
    request: keysOf<LegacyRequest>()(...request, ...aliases, 'accepted', 'acceptedCharsets', 'acceptedLanguages', 'acceptedEncodings'),
    response: keysOf<LegacyResponse>()(...response, 'sendfile'),
    application: keysOf<LegacyApplication>()(...application, 'router', 'routes', 'configure', 'del', '_router', 'lazyrouter'),
    router: keysOf<Members<trestleLegacy.Router, object>>()(...router),
    routerFactory: keysOf<Members<typeof trestleLegacy.Router, { prototype: unknown }>>()(...routerPrototype),
    routerPrototype: keysOf<Members<typeof trestleLegacy.Router.prototype, object>>()(),
    routePrototype: keysOf<Members<typeof trestleLegacy.Route.prototype, object>>()(...routePrototype),
    factory: keysOf<Members<typeof trestleLegacy, object>>()(...factory, 'bodyParser', 'logger', 'query', ...bundled),
  },
};

/**
 * Members the objects have and the types leave out on purpose: the core's own
 * bookkeeping, and Express's internals that tools read but `@types/express`
 * does not declare either (`req._parsedUrl` from parseurl, Express 4's
 * `router.process_params`).
 */
const routerBookkeeping = ['_params', 'profile', '_layers', '_layerIndex', '_indexStale'];
/** A route's dispatch and bookkeeping: Express's `route.dispatch`, `_handles_method` and `_options` (v4's names; v5's `_handlesMethod`, `_methods`) are not declared by `@types/express` either. */
const routeInternals = ['dispatch', '_handlesMethod', '_methods', '_handles_method', '_options', 'addMethod', 'handlers', 'layer', '_profile'];
const parsedUrls = ['_parsedUrl', '_parsedOriginalUrl'];
const internal = {
  v5: { request: parsedUrls, application: ['_classes', '_framework'], router: routerBookkeeping },
  v4: { request: parsedUrls, application: ['_classes', '_framework'], router: [...routerBookkeeping, 'process_params'] },
  legacy: { request: parsedUrls, application: ['_classes', '_framework'], router: [...routerBookkeeping, 'process_params'] },
};

/** Names of `obj`'s own and inherited properties, up to (not including) `stop`. */
function chain(obj: object, stop: object): Set<string> {
  const names = new Set<string>();
  for (let o: object | null = obj; o !== null && o !== stop; o = Object.getPrototypeOf(o) as object | null) {
    for (const name of Object.getOwnPropertyNames(o)) names.add(name);
  }
  return names;
}

function without(names: Iterable<string>, ...drop: Iterable<string>[]): string[] {
  const dropped = new Set(drop.flatMap((d) => [...d]));
  return [...names].filter((n) => !dropped.has(n)).sort();
}

const FUNCTION_OWN = ['length', 'name', 'prototype', 'constructor'];

/** The own keys of a request and a response of a bare node server, for the same request. */
async function nodeInstanceKeys(): Promise<{ req: string[]; res: string[] }> {
  let keys = { req: [] as string[], res: [] as string[] };
  const server = await serve((req, res) => {
    keys = { req: Object.keys(req), res: Object.keys(res) };
    res.end();
  });
  try {
    await post(server.port);
  } finally {
    await server.close();
  }
  return keys;
}

/** A JSON POST with a cookie: a request every member of the request type is set on. */
function post(port: number) {
  return rawRequest(port, 'POST', '/items/7', { 'Content-Type': 'application/json', Cookie: 'a=1' }, '{"x":1}');
}

const entries = [
  ['trestle', 'v5', trestle],
  ['trestle/v4', 'v4', trestleV4],
  ['trestle/legacy', 'legacy', trestleLegacy],
] as const;

describe('the public types list the members of the objects', () => {
  for (const [entry, gen, factoryFn] of entries) {
    test(`${entry}: request and response, as a handler receives them`, async () => {
      const bare = await nodeInstanceKeys();
      const app = (factoryFn as typeof trestle)();
      let seen: { req: Set<string>; res: Set<string> } | undefined;
      app.use(trestle.json(), cookieParser('secret'));
      app.post('/items/:id', (req, res) => {
        seen = { req: new Set([...chain(req, http.IncomingMessage.prototype), ...Object.keys(req)]), res: new Set([...chain(res, http.ServerResponse.prototype), ...Object.keys(res)]) };
        res.end();
      });
      const server = await serve(app);
      try {
        assert.equal((await post(server.port)).status, 200);
      } finally {
        await server.close();
      }
      assert.ok(seen);
      const emitter = Object.keys(new EventEmitter());
      assert.deepEqual(without(seen.req, bare.req, emitter, ['constructor'], internal[gen].request), [...expected[gen].request].sort());
      // node's own methods that trestle re-implements (removeHeader, see src/response/header-store.ts) are not new members.
      const nodeOwn = chain(http.ServerResponse.prototype, Object.prototype);
      assert.deepEqual(without(seen.res, bare.res, emitter, ['constructor'], nodeOwn), [...expected[gen].response].sort());
    });

    test(`${entry}: application, router and the factory`, () => {
      const app = (factoryFn as typeof trestle)();
      // v4's `app._router`, as Express 4's, is there once the app router is.
      if ('lazyrouter' in app) (app.lazyrouter as () => void).call(app);
      const emitter = [...Object.getOwnPropertyNames(EventEmitter.prototype), ...Object.keys(new EventEmitter())];
      assert.deepEqual(without(chain(app, Function.prototype), emitter, FUNCTION_OWN, internal[gen].application), [...expected[gen].application].sort());
      const routerNames = chain(factoryFn.Router(), Function.prototype);
      assert.deepEqual(without(routerNames, FUNCTION_OWN, internal[gen].router), [...expected[gen].router].sort());
      assert.deepEqual(without(chain(factoryFn, Function.prototype), FUNCTION_OWN), [...expected[gen].factory].sort());
    });

    test(`${entry}: Router and Route, and the prototypes tools patch`, () => {
      const { Router, Route } = factoryFn as typeof trestle;
      const bookkeeping = internal[gen].router;
      assert.deepEqual(without(chain(Router, Function.prototype), FUNCTION_OWN, bookkeeping), [...expected[gen].routerFactory].sort());
      assert.deepEqual(without(chain(Router.prototype, Object.getPrototypeOf(Router.prototype) as object), FUNCTION_OWN, bookkeeping), [...expected[gen].routerPrototype].sort());
      assert.deepEqual(without(chain(Route.prototype, Object.prototype), FUNCTION_OWN, routeInternals), [...expected[gen].routePrototype].sort());
      const built = new Router({ mergeParams: true });
      assert.equal(typeof built, 'function');
      assert.equal(built.mergeParams, true);
    });
  }
});

test('the entries declare the type names scripts/entry-types.mjs generates from its one table', () => {
  const script = join(__dirname, '..', '..', '..', 'scripts', 'entry-types.mjs');
  const run = spawnSync(process.execPath, [script, '--check'], { encoding: 'utf8', timeout: 20000 });
  assert.equal(run.stderr, '');
  assert.equal(run.status, 0);
});

describe('the ESM entries export by name what the factory types declare (but the getters that throw)', () => {
  const named = { trestle: [...factory], 'trestle/v4': [...factory, 'query'], 'trestle/legacy': [...factory, 'bodyParser', 'logger'] };
  for (const [entry, names] of Object.entries(named)) {
    test(entry, async () => {
      const esm = (await import(entry)) as Record<string, unknown>;
      assert.deepEqual(without(Object.keys(esm), ['default']), names.sort());
      for (const name of names) assert.equal(esm[name], (esm.default as Record<string, unknown>)[name], name);
    });
  }
});
