'use strict';
// The one place that says what each scenario serves and requests. Every
// server in servers/ builds its routes from here and the runner checks each
// server's answer against `expect`, so the frameworks are held to identical
// behaviour.
const path = require('node:path');

const HELLO = 'Hello, World!';
const JSON_REPLY = { message: 'Hello, World!', ok: true, count: 3 };

// `count` routes shaped like /api/v1/resource{i}/:id/items/:itemId.
function paramRoutes(count) {
  const routes = [];
  for (let i = 0; i < count; i++) routes.push(`/api/v1/resource${i}/:id/items/:itemId`);
  return routes;
}
const PARAMS_REPLY = { id: '42', itemId: '7' };

// json-varied's answers: the json object plus a counter, one per server, so
// each answer differs from the one before.
function variedJson() {
  let n = 0;
  return () => ({ ...JSON_REPLY, id: ++n });
}

// Like paramRoutes, but every `every`th route (the first of each run, so the
// last route stays plain) takes digit-only ids: a regular-expression route,
// written in each framework's own syntax by routeIn().
function mixedRoutes(count, every) {
  return paramRoutes(count).map((path, i) => (i % every === 0 ? { path, digitsOnly: true } : path));
}

const escapeRegExp = (text) => text.replace(/[.*+?^${}()|[\]\\/]/g, '\\$&');

// A scenario route in a framework's syntax: 'regexp' (a RegExp object with a
// named group per parameter: trestle, Express, Koa), 'fastify' (find-my-way's
// `:id(^\\d+)`) or 'hono' (`:id{\\d+}`). Plain routes are the same string in all.
function routeIn(syntax, route) {
  if (typeof route === 'string') return route;
  switch (syntax) {
    case 'regexp': {
      const source = route.path.split(/(:\w+)/).map((part) => (part.startsWith(':') ? `(?<${part.slice(1)}>\\d+)` : escapeRegExp(part)));
      return new RegExp(`^${source.join('')}\\/?$`);
    }
    case 'fastify': return route.path.replace(/:\w+/g, '$&(^\\d+)');
    case 'hono': return route.path.replace(/:\w+/g, '$&{\\d+}');
    default: throw new Error(`no regular-expression routes in "${syntax}" syntax`);
  }
}

// The path of a scenario's n-th request: its `vary` prefix, n and suffix
// where it has one (params-varied), else its one path.
function requestPath(request, n) {
  return request.vary ? `${request.vary[0]}${n}${request.vary[1]}` : request.path;
}

// A JSON object whose serialisation is exactly 1 KiB.
function bodyPayload(bytes) {
  const base = { id: 1234, name: 'bench payload', tags: ['a', 'b', 'c'], nested: { x: 1, y: [1, 2, 3] }, text: '' };
  base.text = 'x'.repeat(bytes - JSON.stringify(base).length);
  return base;
}
const BODY = bodyPayload(1024);

// A POST of `value` as a JSON body.
function jsonPost(path, value) {
  return { method: 'POST', path, headers: { 'content-type': 'application/json' }, body: JSON.stringify(value) };
}

const STATIC_DIR = path.join(__dirname, 'fixtures', 'public');
const STATIC_FILE = 'file-4k.txt';

const MIDDLEWARE_COUNT = 10;

// The validated scenario's body: four fields, valid for servers/validated.js's schema.
const USER = { name: 'Ada Lovelace', email: 'ada@example.com', age: 36, tags: ['mathematics', 'engines'] };

// The api scenario's router, mounted at /api/v1: 15 resources, each with a
// list route and an item route (30 in all); the request hits the last item
// route with a query, a session cookie and an Origin, and the handler echoes
// all three, so a server that skips the query parser or the cookie parser
// answers the wrong JSON.
const API_MOUNT = '/api/v1';
function apiRoutes(resources) {
  const routes = [];
  for (let i = 0; i < resources; i++) routes.push(`/resource${i}`, `/resource${i}/:id`);
  return routes;
}
const API_REPLY = { id: '42', fields: 'name,email', limit: '10', session: 'abc123' };

// Each scenario: the request the load generator sends, what a correct answer
// looks like, any data the servers need to build it, and notes on servers
// that do it their own way (shown in the tables).
const scenarios = {
  hello: {
    about: 'GET / answering a short text/plain body',
    request: { method: 'GET', path: '/' },
    expect: { type: 'text/plain', text: HELLO },
  },
  json: {
    about: 'GET /json answering a small JSON object',
    request: { method: 'GET', path: '/json' },
    expect: { type: 'application/json', json: JSON_REPLY },
  },
  params: {
    about: '50 routes /api/v1/resource{i}/:id/items/:itemId, hitting resource48, params echoed as JSON',
    routes: paramRoutes(50),
    request: { method: 'GET', path: '/api/v1/resource48/42/items/7' },
    expect: { type: 'application/json', json: PARAMS_REPLY },
  },
  // The varied scenarios (issue 34): bodies that differ on every request, so
  // that no memo of a body (an ETag remembered by body) pays, as in an app
  // whose answers carry ids, times or user data. json-varied: the server adds
  // a counter; params-varied: the load generator sends a new id each request
  // (`request.vary`: the path is prefix + n + suffix, lib/load.mjs).
  'json-varied': {
    about: 'GET /json-varied answering the json object plus a per-request counter `id`: a body that differs every time',
    request: { method: 'GET', path: '/json-varied' },
    expect: { type: 'application/json', json: JSON_REPLY, counter: 'id' },
    extraVariants: { node: ['etag'], fastify: ['etag'], trestle: ['plain'] },
  },
  'params-varied': {
    about: 'params with a new id on every request (/api/v1/resource48/<n>/items/7): the echoed body differs every time',
    routes: paramRoutes(50),
    request: { method: 'GET', path: '/api/v1/resource48/42/items/7', vary: ['/api/v1/resource48/', '/items/7'] },
    expect: { type: 'application/json', json: PARAMS_REPLY },
    extraVariants: { node: ['etag'], fastify: ['etag'], trestle: ['plain'] },
  },
  middleware: {
    about: `${MIDDLEWARE_COUNT} pass-through middleware, then the hello handler`,
    middlewareCount: MIDDLEWARE_COUNT,
    request: { method: 'GET', path: '/' },
    expect: { type: 'text/plain', text: HELLO },
    notes: { node: 'a hand-rolled next() chain', fastify: '10 onRequest hooks' },
  },
  logger: {
    about: 'hello with one "combined"-style log line per request, written to /dev/null',
    request: { method: 'GET', path: '/' },
    expect: { type: 'text/plain', text: HELLO },
    // Which loggers each framework is measured with; others are n/a here.
    // The first listed is the one the "vs" columns compare against.
    variants: {
      node: ['hand-written'],
      // `none`: trestle's hello in the same rounds, for logline's own cost.
      trestle: ['logline', 'logline-json', 'none'],
      express5: ['morgan', 'pino-http'],
      express4: ['morgan'],
      fastify: ['pino'],
      polka: ['morgan'],
    },
    notes: { fastify: 'one line per request (its default is two)' },
  },
  body: {
    about: 'POST /body with a 1 KiB JSON body, parsed and echoed as JSON',
    request: jsonPost('/body', BODY),
    expect: { type: 'application/json', json: BODY },
    // Rows added beside each framework's own (issue 23): the bare server and
    // Fastify sending a weak ETag as Express does by default.
    extraVariants: { node: ['etag'], fastify: ['etag'] },
    notes: { node: 'parsed by hand', koa: 'parsed by hand (no koa-bodyparser)' },
  },
  // Issue 44: what trestle.validate() costs a route, beside what Fastify's
  // own validation costs, with one schema (servers/validated.js). Each
  // framework also runs the same route unvalidated in the same rounds, so
  // each validation's extra cost reads as a ratio of the two rows.
  validated: {
    about: 'POST /validated with a small JSON body (4 fields), checked against one schema, echoed as JSON',
    request: jsonPost('/validated', USER),
    expect: { type: 'application/json', json: USER },
    variants: { trestle: [null, 'unvalidated'], fastify: [null, 'unvalidated'] },
    notes: {
      trestle: 'trestle.validate({ body }) with a zod 4 schema; (unvalidated): json() alone',
      fastify: "the same schema as JSON Schema (zod's z.toJSONSchema, draft-07) on the route, checked by Fastify's ajv; (unvalidated): no schema",
    },
  },
  static: {
    about: `GET /static/${STATIC_FILE}, a 4 KiB file served from disk by each framework's static handler`,
    request: { method: 'GET', path: `/static/${STATIC_FILE}` },
    expect: { file: path.join(STATIC_DIR, STATIC_FILE) },
    notes: {
      node: 'by hand: stat + stream',
      fastify: '@fastify/static',
      koa: 'by hand: stat + stream (no koa-static)',
      polka: 'serve-static',
    },
  },
  'routes-500': {
    about: '500 routes like params, hitting the last one (resource499)',
    routes: paramRoutes(500),
    request: { method: 'GET', path: '/api/v1/resource499/42/items/7' },
    expect: { type: 'application/json', json: PARAMS_REPLY },
    // trestle again with only the last 50 routes: its own params, in the same rounds.
    extraVariants: { trestle: ['last-50'] },
  },
  api: {
    about: `a real app's middleware: helmet, cors, cookie-parser, json(), a combined log line to /dev/null, then a router at ${API_MOUNT} with 30 routes; GET of a param route with a query, a cookie and an Origin`,
    mount: API_MOUNT,
    routes: apiRoutes(15),
    request: {
      method: 'GET',
      path: `${API_MOUNT}/resource14/42?fields=name,email&limit=10`,
      headers: { cookie: 'session=abc123; theme=dark', origin: 'http://client.example' },
    },
    // cors and helmet leave these with their defaults; a server that skips either fails the probe.
    expect: {
      type: 'application/json',
      json: API_REPLY,
      headers: { 'access-control-allow-origin': '*', 'x-content-type-options': 'nosniff' },
    },
    // The frameworks with their own equivalents of every piece, each row
    // named for its logger; node, koa and polka have none here (n/a).
    variants: {
      trestle: ['logline'],
      express5: ['morgan'],
      express4: ['morgan'],
      fastify: ['pino'],
      hono: ['logger'],
    },
    notes: {
      fastify: '@fastify/helmet, @fastify/cors, @fastify/cookie; pino one line per request',
      hono: "secureHeaders(), cors(), hono/cookie's getCookie, logger() (its outgoing line only)",
    },
  },
  'routes-5000': {
    about: '5,000 routes like params, every 10th a regular-expression route (digit-only ids), hitting the last one (resource4999, plain)',
    routes: mixedRoutes(5000, 10),
    request: { method: 'GET', path: '/api/v1/resource4999/42/items/7' },
    expect: { type: 'application/json', json: PARAMS_REPLY },
    // polka 0.5 (trouter/matchit) has no regular-expression routes.
    // trestle's `last-50` row: its own params (the last 50 routes), in the same rounds.
    variants: { node: [null], trestle: [null, 'last-50'], express5: [null], express4: [null], fastify: [null], hono: [null], koa: [null] },
    notes: {
      node: 'by hand: a Map from resource to "digits only"',
      hono: 'router built before listening (on the first requests it takes ~12 s of CPU)',
      polka: 'its router (matchit) has no regular-expression routes',
    },
  },
  // Not a load test: each run is a fresh process (lib/cold.mjs).
  cold: {
    about: 'a fresh process requires the framework, builds 20 routes like params, listens, answers one GET, exits',
    cold: true,
    routes: paramRoutes(20),
    request: { method: 'GET', path: '/api/v1/resource19/42/items/7' },
    expect: { type: 'application/json', json: PARAMS_REPLY },
    // trestle twice: its v5 entry and its v4 one.
    variants: {
      node: [null],
      trestle: [null, 'v4'],
      express5: [null],
      express4: [null],
      fastify: [null],
      hono: [null],
      koa: [null],
      polka: [null],
    },
  },
};

module.exports = { scenarios, routeIn, variedJson, requestPath, HELLO, JSON_REPLY, STATIC_DIR, STATIC_FILE };
