// Writes the type namespace of trestle's three entries (src/index.ts, v4.ts,
// legacy.ts) from the one table below: each entry is `export =` a factory,
// so its type names must be declared in a namespace merged with it, and a
// namespace cannot be shared between files. The table is the one
// declaration; the entries hold what it generates, between the markers.
// Usage: node scripts/entry-types.mjs          (rewrite the entries)
//        node scripts/entry-types.mjs --check  (exit 1 when one is stale)
import { readFileSync, writeFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

const src = fileURLToPath(new URL('../packages/trestle/src/', import.meta.url));

/** Each entry: its file, its generation, the words its docs use for its path syntax. */
export const entries = [
  { file: 'index.ts', gen: 'v5', syntax: 'the v5 path syntax', example: "`'/users/:id'` gives `{ id: string }`" },
  { file: 'v4.ts', gen: 'v4', syntax: 'the v4 path syntax', example: "`'/users/:id?'` gives `{ id?: string }`" },
  { file: 'legacy.ts', gen: 'legacy', syntax: 'the v4 path syntax', example: "`'/users/:id?'` gives `{ id?: string }`" },
];

const REQ = 'P = T.ParamsDictionary, ResBody = T.Untyped, ReqBody = T.Untyped, ReqQuery = T.ParsedQs, L extends T.LocalsRecord = T.DefaultLocals';
const REQ_ARGS = 'P, ResBody, ReqBody, ReqQuery, L';
const RES = 'ResBody = T.Untyped, L extends T.LocalsRecord = T.DefaultLocals, StatusCode extends number = number';
const APP = 'L extends T.LocalsRecord = T.DefaultLocals';

/**
 * The names every entry exports. `target` is the declaration it stands for:
 * one string (`$G` is the entry's generation) or one per generation.
 */
export const names = [
  { name: 'Application', params: APP, doc: 'An application, as `trestle()` returns it; `L` types `app.locals`. Its paths use $SYNTAX.', target: { v5: 'T.Application<L>', v4: 'T.ApplicationV4<L>', legacy: 'T.ApplicationLegacy<L>' } },
  { name: 'Request', params: REQ, doc: "The request handlers receive: node's `IncomingMessage` with Express's `req` properties and methods.", target: { v5: `T.Request<${REQ_ARGS}>`, v4: `T.RequestV4<${REQ_ARGS}>`, legacy: `T.RequestLegacy<${REQ_ARGS}>` } },
  { name: 'Response', params: RES, doc: "The response handlers receive: node's `ServerResponse` with Express's `res` methods; `StatusCode` types `res.status()`.", target: { v5: 'T.Response<ResBody, L, StatusCode>', v4: 'T.ResponseV4<ResBody, L, StatusCode>', legacy: 'T.ResponseLegacy<ResBody, L, StatusCode>' } },
  { name: 'NextFunction', doc: "`next()`, `next('route')`, `next('router')` or `next(err)`.", target: 'T.NextFunction' },
  { name: 'RequestHandler', params: REQ, doc: 'A middleware or route handler `(req, res, next)`; a returned promise that rejects becomes `next(err)`.', target: `T.RequestHandler<${REQ_ARGS}, $G>` },
  { name: 'ErrorRequestHandler', params: REQ, doc: 'An error handler `(err, req, res, next)`, recognised by its four parameters.', target: `T.ErrorRequestHandler<${REQ_ARGS}, $G>` },
  { name: 'Handler', params: 'P = T.ParamsDictionary, ResBody = T.Untyped, ReqBody = T.Untyped, ReqQuery = T.ParsedQs', doc: 'A request handler, under the name `@types/express` also gives it.', target: 'T.Handler<P, ResBody, ReqBody, ReqQuery, $G>' },
  { name: 'ForeignHandler', doc: "Middleware typed for Express (`@types/express`) or for node's own request and response: multer's, passport's, compression's.", target: 'T.ForeignHandler' },
  { name: 'ParamHandler', params: 'V = string', doc: 'A param trigger `(req, res, next, value, name)` for `app.param()` and `router.param()`.', target: 'T.ParamHandler<V, $G>' },
  { name: 'Router', doc: 'A router, as `trestle.Router()` returns it: middleware and routes, itself a middleware. Its paths use $SYNTAX.', target: 'T.Router<$G>' },
  { name: 'Route', params: 'P = T.ParamsDictionary', doc: 'A route, as `app.route(path)` returns it: `.get()`, `.post()` ... chained on one path.', target: 'T.Route<P, $G>' },
  { name: 'RouterOptions', doc: 'The options of `trestle.Router()`: `caseSensitive`, `mergeParams`, `strict`.', target: 'T.RouterOptions' },
  { name: 'CookieOptions', doc: 'The options of `res.cookie()` and `res.clearCookie()`.', target: 'T.CookieOptions' },
  { name: 'FetchOptions', doc: 'The second argument of `app.fetch()`: the client\'s `remoteAddress` and `remotePort`.', target: 'T.FetchOptions' },
  { name: 'FetchContext', doc: 'What a Cloudflare Worker\'s runtime passes `app.fetch()` third (its `ExecutionContext`).', target: 'T.FetchContext' },
  { name: 'ParamsDictionary', doc: '`req.params` when the path\'s parameters are not known: strings by name.', target: 'T.ParamsDictionary' },
  { name: 'RouteParameters', params: 'Path extends string', doc: 'The `req.params` type a path gives in $SYNTAX: $EXAMPLE.', target: { v5: 'T.RouteParameters<Path>', v4: 'T.RouteParametersV4<Path>', legacy: 'T.RouteParametersV4<Path>' } },
  { name: 'ParsedQs', doc: '`req.query` as the query parsers give it: strings, arrays and nested objects.', target: 'T.ParsedQs' },
  { name: 'SendFileOptions', doc: 'The options of `res.sendFile()` and `res.download()`.', target: 'T.SendFileOptions' },
  { name: 'EngineCallback', doc: 'A template engine for `app.engine(ext, fn)`: `(path, options, callback)`.', target: 'T.EngineCallback' },
  { name: 'BodyParserOptions', doc: 'The options every body parser takes: `limit`, `inflate`, `type`, `verify`.', target: 'T.BodyParserOptions' },
  { name: 'JsonOptions', doc: 'The options of `trestle.json()`.', target: 'T.JsonOptions' },
  { name: 'UrlencodedOptions', doc: 'The options of `trestle.urlencoded()`.', target: 'T.UrlencodedOptions' },
  { name: 'RawOptions', doc: 'The options of `trestle.raw()`.', target: 'T.RawOptions' },
  { name: 'TextOptions', doc: 'The options of `trestle.text()`.', target: 'T.TextOptions' },
  { name: 'StaticOptions', doc: 'The options of `trestle.static()`.', target: 'T.StaticOptions' },
  { name: 'Express', params: APP, doc: 'The application, under the other name `@types/express` gives it.', target: { v5: 'T.Application<L>', v4: 'T.ApplicationV4<L>', legacy: 'T.ApplicationLegacy<L>' } },
  { name: 'Query', doc: '`req.query` as the query parsers give it, under the name `@types/express` gives it.', target: 'T.ParsedQs' },
  { name: 'Dictionary', params: 'V', doc: 'An object of `V` by name.', target: 'T.Dictionary<V>' },
  { name: 'ParamsFlatDictionary', doc: 'Route parameters by position, as a regular expression\'s captures give them.', target: 'T.ParamsFlatDictionary' },
  { name: 'Params', doc: 'Route parameters by name or by position.', target: 'T.Params' },
  { name: 'Locals', doc: 'What every view sees besides its own locals: what the global `Express.Locals` declares.', target: 'T.Locals' },
  { name: 'PathParams', doc: 'A path a route or middleware is defined on: a string, a regular expression, or an array of them.', target: 'T.PathParams' },
  { name: 'RequestHandlerParams', params: 'P = T.ParamsDictionary, ResBody = T.Untyped, ReqBody = T.Untyped, ReqQuery = T.ParsedQs', doc: 'What a route or `use()` takes as handlers: handlers of any kind, or (nested) arrays of them.', target: 'T.HandlerArg<P, ResBody, ReqBody, ReqQuery, $G>' },
  { name: 'IRouterMatcher', params: 'This', doc: 'A route method of an app or router (`app.get`, `router.post` ...), returning `This`.', target: 'T.RouteMatcher<This, $G>' },
  { name: 'IRouterHandler', params: 'This', doc: 'A method of a route (`route.get`, `route.post` ...), returning `This`.', target: 'T.RouteMethod<T.ParamsDictionary, This, $G>' },
  { name: 'ApplicationRequestHandler', params: 'This', doc: '`app.use()` and `router.use()`, returning `This`.', target: 'T.UseMatcher<This, $G>' },
  { name: 'IRouter', doc: 'A router, under the name `@types/express` gives its interface.', target: 'T.Router<$G>' },
  { name: 'IRoute', params: 'P = T.ParamsDictionary', doc: 'A route, under the name `@types/express` gives its interface.', target: 'T.Route<P, $G>' },
  { name: 'ILayer', doc: 'One entry of a router\'s or route\'s stack.', target: 'T.Layer' },
  { name: 'RequestParamHandler', doc: 'A param trigger, under the name `@types/express` gives it.', target: "T.ParamHandler<string, $G>" },
  { name: 'ByteRange', doc: 'One range of `req.range()`.', target: 'T.ByteRange' },
  { name: 'RequestRanges', doc: 'The ranges `req.range()` found, with their unit in `type`.', target: 'T.RequestRanges' },
  { name: 'MediaType', doc: 'A media type of an `Accept` header read apart.', target: 'T.MediaType' },
  { name: 'Errback', doc: 'A callback told of an error, or of success: `res.sendFile(path, errback)`.', target: 'T.Errback' },
  { name: 'Send', params: 'ResBody = T.Untyped, This = Response<ResBody>', doc: 'A function that sends a body and returns `This`, as `res.send` is.', target: 'T.Send<ResBody, This>' },
  { name: 'DownloadOptions', doc: 'The options of `res.download()`.', target: 'T.DownloadOptions' },
  { name: 'ShutdownOptions', doc: 'The options of `trestle.shutdown()` and `app.shutdown()`: `timeout`, `readinessDelay`, `idleGrace`, `hooks`, `refuse`, `retryAfter`.', target: 'T.ShutdownOptions' },
  { name: 'ShutdownReport', doc: 'What a shutdown did: `servers` closed, requests `inFlight` at its start, `answered` and `cut`, connections `closedIdle` and `closedBeforeRequest`, `hookErrors`, `durationMs`.', target: 'T.ShutdownReport' },
  { name: 'ShutdownSignalsOptions', doc: 'The options of `trestle.shutdownOnSignals()`: the shutdown\'s, and `signals`, `onReport`, `exit`.', target: 'T.ShutdownSignalsOptions' },
  { name: 'DeadlineOptions', doc: 'The options of `trestle.deadline()`: `cutStreaming`.', target: 'T.DeadlineOptions' },
  { name: 'ServerLimits', doc: 'Limits of node\'s HTTP server: `keepAliveTimeout`, `headersTimeout`, `requestTimeout`, `maxHeaderSize`, `maxHeadersCount`.', target: 'T.ServerLimits' },
  { name: 'RouteInfo', doc: 'One route as `trestle.routes(app)` lists it (docs/routes.md).', target: 'T.RouteInfo' },
  { name: 'ValidateSchemas', doc: 'The schemas of `trestle.validate({ params, query, body, headers })`: any Standard Schema.', target: 'T.ValidateSchemas' },
  { name: 'ValidationIssue', doc: "One problem of an invalid request, as `trestle.validate()`'s 400 lists it.", target: 'T.ValidationIssue' },
  { name: 'RouteDescription', doc: 'What `trestle.describe()` says of a route for OpenAPI: summary, tags, responses.', target: 'T.RouteDescription' },
  { name: 'OpenApiOptions', doc: 'The options of `trestle.openapi(app, options)`.', target: 'T.OpenApiOptions' },
  { name: 'OpenApiDocument', doc: 'The OpenAPI 3.1 document `trestle.openapi()` builds.', target: 'T.OpenApiDocument' },
  { name: 'AcceptedType', doc: 'An entry of `req.accepted`: a media type read apart.', target: { legacy: 'T.AcceptedType' } },
  { name: 'LegacyBodyParserOptions', doc: 'The options of `trestle.bodyParser()`.', target: { legacy: 'T.LegacyBodyParserOptions' } },
];

/**
 * The names declared as interfaces (extending their target), not type
 * aliases: those `@types/express` declares as interfaces, which middleware
 * types and apps add to with `declare module 'express' { interface Request
 * { ... } }` (cookie-parser's types do). Against a type alias that
 * declaration is a duplicate identifier (TS2300); an interface merges it.
 */
export const interfaces = new Set([
  'Application', 'Express', 'Request', 'Response', 'Locals', 'NextFunction', 'RequestHandler', 'Handler',
  'Router', 'IRouter', 'Route', 'IRoute', 'IRouterMatcher', 'IRouterHandler', 'RouterOptions', 'CookieOptions', 'MediaType',
]);

const BEGIN = '/** The type names Express users import, with `@types/express`\'s parameter order. */';
const END = '\nexport = trestle;';

function declaration(entry, item) {
  const target = typeof item.target === 'string' ? item.target : item.target[entry.gen];
  if (target === undefined) return '';
  const doc = item.doc.replace('$SYNTAX', entry.syntax).replace('$EXAMPLE', entry.example);
  const params = item.params ? `<${item.params}>` : '';
  if (interfaces.has(item.name)) return `  /** ${doc} */\n  export interface ${item.name}${params} extends ${target.replaceAll('$G', `'${entry.gen}'`)} {}\n`;
  return `  /** ${doc} */\n  export type ${item.name}${params} = ${target.replaceAll('$G', `'${entry.gen}'`)};\n`;
}

export function namespaceOf(entry) {
  return `${BEGIN}\ndeclare namespace trestle {\n${names.map((item) => declaration(entry, item)).join('')}}\n`;
}

/** The entry's text with its namespace regenerated. */
function regenerate(entry) {
  const path = src + entry.file;
  const text = readFileSync(path, 'utf8');
  const start = text.indexOf(BEGIN);
  const end = text.indexOf(END);
  if (start === -1 || end === -1) throw new Error(`${entry.file}: markers not found`);
  return { path, text, next: text.slice(0, start) + namespaceOf(entry) + text.slice(end) };
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const check = process.argv.includes('--check');
  let stale = 0;
  for (const entry of entries) {
    const { path, text, next } = regenerate(entry);
    if (text === next) continue;
    stale++;
    if (check) console.error(`${entry.file}: its type namespace is stale; run node scripts/entry-types.mjs`);
    else writeFileSync(path, next);
  }
  if (check && stale > 0) process.exit(1);
}
