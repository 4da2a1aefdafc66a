// The route table of the generation before v4: routes live in `app.routes`,
// a live object of lists keyed by lower-case verb, and run wherever
// `app.use(app.router)` placed the table in the middleware chain. Deleting a
// record from `app.routes` removes the route; OPTIONS is answered from it.
import { Layer } from '../../router/layer';
import { flatten, methodKey, methods } from '../../router/methods';
import type { CompiledPath, PathOptions } from '../../router/path/compiled';
import { makeV4Regexp } from '../../router/path/v4';
import { type ParamCalled, type ParamFactory, type ParamFn, param, paramsNotRegistered, runParams } from '../../router/params';
import type { RouterProfile, RoutingRequest } from '../../router/router';
import { getPathname } from '../../router/url';
import { layerRuns, type LayerRunContext } from '../../observability/channels';
import { traceRoute } from '../../observability/layer-run';
import { routingMethod } from '../../websocket/marker';

type Next = (err?: unknown) => void;

/** A record's `regexp`, as Express compiled it: there from the start, whether matching needs it or not. */
const recordRegexp = makeV4Regexp('/.');

/** A route record as Express 3 apps read it from `app.routes` and `req.route`. */
export class LegacyRoute {
  path: unknown;
  method: string;
  callbacks: Array<(...args: never[]) => unknown>;
  keys: Array<{ name: string | number; optional: boolean }>;
  regexp: RegExp;
  params: Record<string, unknown> = {};
  /** The Route fields every generation has. */
  stack: Layer[];
  methods: Record<string, boolean>;
  private readonly matcher: CompiledPath;

  constructor(method: string, path: unknown, callbacks: Array<(...args: never[]) => unknown>, matcher: CompiledPath, options: PathOptions) {
    this.path = path;
    this.method = method;
    this.callbacks = callbacks;
    this.matcher = matcher;
    this.keys = matcher.keys.map((k) => ({ name: k.name, optional: k.optional }));
    this.regexp = matcher.regexp ?? recordRegexp(path as string | RegExp, options);
    this.stack = callbacks.map((fn) => Object.assign(new Layer([], fn), { method }));
    this.methods = { [method]: true };
  }

  /** Matches `path`, filling `params`; throws a 400 error for bad encoding. */
  match(path: string): boolean {
    const found = this.matcher.match(path);
    if (found === null) return false;
    this.params = found.params;
    return true;
  }
}

export interface RouteTable {
  (req: RoutingRequest, res: unknown, next: Next): void;
  map: Record<string, LegacyRoute[]>;
  params: Record<string, ParamFn[]>;
  _params: ParamFactory[];
  profile: RouterProfile;
  param(name: unknown, fn?: unknown): RouteTable;
  route(method: string, path: unknown, callbacks: Array<(...args: never[]) => unknown>): LegacyRoute;
}

export interface TableOptions {
  profile: RouterProfile;
  /** Read when a route is added, like the app's routing settings. */
  matchOptions(): { sensitive: boolean; strict: boolean };
}

export function createRouteTable(options: TableOptions): RouteTable {
  const table = function router(req: RoutingRequest, res: unknown, next: Next) {
    dispatch(table, req, res, next);
  } as RouteTable;
  table.map = {};
  table.params = Object.create(null) as Record<string, ParamFn[]>;
  table._params = [];
  table.profile = options.profile;
  table.param = param as RouteTable['param'];
  table.route = (method, path, callbacks) => {
    const { sensitive, strict } = options.matchOptions();
    const pathOptions = { end: true, strict, sensitive };
    const matcher = compileRoutePath(options.profile, path, pathOptions);
    const record = new LegacyRoute(method, path, callbacks, matcher, { ...pathOptions, strict: strict || endsWithSlash(path) });
    (table.map[method] ??= []).push(record);
    return record;
  };
  return table;
}

function endsWithSlash(path: unknown): path is string {
  return typeof path === 'string' && path.endsWith('/');
}

/**
 * Without strict routing Express 3 appended an optional slash to the path as
 * written: a route "/u/" wants its slash ("/u" does not match) and takes one
 * more ("/u//"), and "/" also serves "//". In an array each path gets it.
 */
function compileOne(profile: RouterProfile, path: string | RegExp, options: PathOptions): CompiledPath {
  if (options.strict || !endsWithSlash(path)) return profile.compilePath(path, options);
  return profile.compilePath(`${path}/?`, { ...options, strict: true });
}

/** A route path, or an array of them: the route matches when one of them does. */
function compileRoutePath(profile: RouterProfile, path: unknown, options: PathOptions): CompiledPath {
  if (!Array.isArray(path)) return compileOne(profile, path as string | RegExp, options);
  const parts = flatten<string | RegExp>(path).map((p) => compileOne(profile, p, options));
  return {
    keys: parts.flatMap((p) => p.keys),
    prefix: '',
    exact: false,
    regexp: undefined,
    match(p) {
      for (const part of parts) {
        const found = part.match(p);
        if (found !== null) return found;
      }
      return null;
    },
  };
}

/** Routes that may answer `method`: HEAD falls back to the GET routes. */
function candidates(map: RouteTable['map'], method: string): LegacyRoute[] {
  const own = map[method] ?? [];
  return method === 'head' ? own.concat(map.get ?? []) : own;
}

function dispatch(table: RouteTable, req: RoutingRequest, res: unknown, out: Next): void {
  // An upgrade matches no verb's routes here: `ws` routes live in the router (websocket/marker.ts).
  const method = methodKey(routingMethod(req) ?? '')!;
  const path = getPathname(req.url);
  const routes = candidates(table.map, method);
  const parentParams = req.params;
  const called: Record<string, ParamCalled> = Object.create(null) as Record<string, ParamCalled>;
  let i = 0;

  const leave = (err?: unknown): void => {
    req.params = parentParams;
    out(err);
  };

  const nextRoute = (err?: unknown): void => {
    if (err && err !== 'route') return leave(err);
    let route: LegacyRoute | undefined;
    try {
      while (route === undefined && i < routes.length) {
        const candidate = routes[i++]!;
        if (candidate.match(path)) route = candidate;
      }
    } catch (decodeError) {
      return leave(decodeError);
    }
    if (route === undefined) {
      if (method === 'options') return answerOptions(table, path, res, leave);
      return leave();
    }
    const found = route;
    req.route = found;
    req.params = found.params;
    if (paramsNotRegistered(table.params, found.keys)) runRoute(found, req, res, nextRoute);
    else runParams(table.params, found.keys, called, req, res, (e) => (e ? nextRoute(e) : runRoute(found, req, res, nextRoute)));
  };
  nextRoute();
}

/** A matched route: its callbacks, reported as one route run to the `trestle.layer` channels (as a router's route layer is). */
function runRoute(route: LegacyRoute, req: RoutingRequest, res: unknown, nextRoute: Next): void {
  if (layerRuns.hasSubscribers) traceRoute(route, req, res, nextRoute, callRoute);
  else runCallbacks(route, req, res, nextRoute);
}

function callRoute(ctx: LayerRunContext, next: Next): void {
  runCallbacks(ctx.layer as LegacyRoute, ctx.req as RoutingRequest, ctx.res, next);
}

/** A route's callbacks in order; `next('route')` and exhaustion go to the next route. */
function runCallbacks(route: LegacyRoute, req: RoutingRequest, res: unknown, nextRoute: Next): void {
  let j = 0;
  const next = (err?: unknown): void => {
    if (err === 'route') return nextRoute();
    const layer = route.stack[j++];
    if (layer === undefined) return nextRoute(err);
    if (err) layer.handleError(err, req, res, next);
    else layer.handleRequest(req, res, next);
  };
  next();
}

/**
 * The verbs with a route for `path`, from the live table, in the runtime's
 * order of methods (as Express 3 listed them); HEAD counts the GET routes
 * while no HEAD route exists.
 */
function answerOptions(table: RouteTable, path: string, res: unknown, next: Next): void {
  const allowed: string[] = [];
  for (const verb of methods) {
    if (verb === 'options') continue;
    const routes = table.map[verb] ?? (verb === 'head' ? table.map.get : undefined);
    if (routes?.some((r) => r.match(path))) allowed.push(verb.toUpperCase());
  }
  if (allowed.length === 0) return next();
  table.profile.sendOptions(res, allowed, next);
}
