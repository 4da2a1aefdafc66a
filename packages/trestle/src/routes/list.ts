// trestle.routes(app): every route of an app, read from the router stack as
// it stands when called (so a stack a tool spliced is listed as it now runs).
// Each route's path is the chain of mount paths above it plus its own, as
// written; a route path given as an array is one entry per path.
import { kAppRouter } from '../app/application';
import { methods as verbs } from '../router/methods';
import { mountedApp, registeredPath } from '../router/registered';
import type { RouteDescription, ValidateSchemas } from '../types/validate';
import type { RouteInfo } from '../types/routes';
import { descriptionOf, schemasOf } from './marks';
import { translatePath } from './openapi-path';

type Syntax = RouteInfo['syntax'];

interface KeyLike {
  name: string | number;
}

interface LayerLike {
  handle?: unknown;
  name?: string;
  keys?: KeyLike[];
  matchers?: Array<{ keys: KeyLike[] }>;
  /** Express 5's own router (router 2) keeps a `use()` layer's path here. */
  rawPath?: unknown;
  /** Express 4's own router keeps only the compiled path. */
  regexp?: RegExp & { fast_slash?: boolean };
  route?: { path?: unknown; methods?: Record<string, boolean>; stack?: LayerLike[] };
}

interface RouterLike {
  stack: LayerLike[];
  profile?: { shape?: { factory?: string } };
}

/** Express 3's route table (trestle/legacy): a middleware whose `map` holds the routes by verb. */
interface RouteTableLike {
  map: Record<string, Array<{ path: unknown; callbacks: Array<{ name?: string }>; keys: KeyLike[] }>>;
  profile: { compilePath(path: string | RegExp, options: { end: boolean; strict: boolean; sensitive: boolean }): { keys: KeyLike[] } };
}

/** What holds for every route below a point of the walk: the mount pieces, their parameters, and what routers' middleware said. */
interface Scope {
  parts: Array<string | RegExp>;
  params: Array<string | number>;
  schemas: ValidateSchemas | undefined;
  description: RouteDescription | undefined;
}

function isRouter(value: unknown): value is RouterLike {
  return typeof value === 'function' && Array.isArray((value as { stack?: unknown }).stack);
}

function isRouteTable(value: unknown): value is RouteTableLike {
  const map = (value as { map?: unknown } | null)?.map;
  return typeof value === 'function' && map !== null && typeof map === 'object' && typeof (value as { route?: unknown }).route === 'function';
}

/** The router of an app (without creating one), or the router itself. */
function routerOf(target: unknown): RouterLike | undefined {
  if (isRouter(target)) return target;
  const router = (target as { [kAppRouter]?: unknown } | null | undefined)?.[kAppRouter];
  return isRouter(router) ? router : undefined;
}

/**
 * Express 5's routers inherit `Router.prototype` and read v5 paths; Express
 * 4's and 3's inherit `Router` and read v4 paths. A router made by Express's
 * own package (a library's, mounted in a trestle app) has no profile: its
 * layers say which (Express 4's keep a regexp).
 */
function syntaxOf(router: RouterLike): Syntax {
  const factory = router.profile?.shape?.factory;
  if (factory !== undefined) return factory === 'prototype' ? 'v4' : 'v5';
  return router.stack.some((layer) => layer.regexp instanceof RegExp) ? 'v4' : 'v5';
}

// What path-to-regexp 0.1 (Express 4) writes for `use('/a/:b')`: each
// parameter as below (with `[^\/]` in older releases), then an open end.
const EXPRESS4_PARAM = /\(\?:\\\/\(\[\^\\?\/\]\+\?\)\)/g;
const EXPRESS4_END = '\\/?(?=\\/|$)';

/**
 * The path a `use()` layer of Express's own router was made for, which
 * trestle did not note: Express 5's router keeps it; Express 4's only its
 * regexp, read back to the path where it is a plain one (literal text and
 * `:name` parameters), else the regexp itself (listed, not in OpenAPI).
 */
function foreignMountPath(layer: LayerLike): unknown {
  if (layer.rawPath !== undefined) return layer.rawPath;
  const re = layer.regexp;
  if (!(re instanceof RegExp)) return undefined;
  if (re.fast_slash === true) return '/';
  if (!re.source.startsWith('^') || !re.source.endsWith(EXPRESS4_END)) return re;
  const keys = layer.keys ?? [];
  let k = 0;
  const source = re.source.slice(1, -EXPRESS4_END.length).replace(EXPRESS4_PARAM, () => `/:${String(keys[k++]?.name)}`);
  const literal = source.replace(/\\[/.\-]/g, '');
  if (k !== keys.length || /[\\()[\]{}*+?^$|]/.test(literal)) return re;
  return source.replace(/\\([/.\-])/g, '$1');
}

function flat(path: unknown): unknown[] {
  return Array.isArray(path) ? (path.flat(Infinity) as unknown[]) : [path];
}

function display(part: string | RegExp): string {
  return typeof part === 'string' ? part : String(part);
}

/** Joins mount paths and a route path as a URL reads: `/api` + `/users`, and a route `/` under a mount is the mount itself. */
function joinDisplay(parts: Array<string | RegExp>): string {
  let out = '';
  for (const part of parts) {
    const text = display(part);
    if (out === '') out = text;
    else if (text === '/' || text === '') continue;
    else out = out.endsWith('/') && text.startsWith('/') ? out + text.slice(1) : out + text;
  }
  return out === '' ? '/' : out;
}

/** The parameter names of the `i`-th path a layer was made for. */
function keysAt(layer: LayerLike, i: number): Array<string | number> {
  const keys = layer.matchers?.[i]?.keys ?? (i === 0 ? layer.keys : undefined);
  if (keys === undefined) return rawPathNames(flat(layer.rawPath)[i]);
  // path-to-regexp 8 compiles an optional group as alternatives, so a key before one comes once per alternative.
  return [...new Set(keys.map((k) => k.name))];
}

/** The parameter names of a v5 path that Express 5's own router kept uncompiled (`rawPath`): `:name` and `*name`. */
function rawPathNames(path: unknown): string[] {
  if (typeof path !== 'string') return [];
  return [...new Set(Array.from(path.matchAll(/[:*](?:"([^"]+)"|([A-Za-z_$][\w$]*))/g), (m) => m[1] ?? m[2]!))];
}

function merge<T extends object>(outer: T | undefined, inner: T | undefined): T | undefined {
  if (outer === undefined) return inner;
  if (inner === undefined) return outer;
  return { ...outer, ...inner };
}

/** The schemas and description of a route's handlers, over its routers'. */
function marksOf(handles: unknown[], scope: Scope): Pick<RouteInfo, 'schemas' | 'description'> {
  let schemas = scope.schemas;
  let description = scope.description;
  for (const handle of handles) {
    schemas = merge(schemas, schemasOf(handle));
    description = merge(description, descriptionOf(handle));
  }
  const out: Pick<RouteInfo, 'schemas' | 'description'> = {};
  if (schemas !== undefined) out.schemas = schemas;
  if (description !== undefined) out.description = description;
  return out;
}

function entry(scope: Scope, part: string | RegExp, params: Array<string | number>, methods: string[], handles: Array<{ name?: string; handle?: unknown }>, syntax: Syntax): RouteInfo {
  const parts = [...scope.parts, part];
  const info: RouteInfo = {
    methods,
    path: joinDisplay(parts),
    parts,
    params: [...new Set([...scope.params, ...params])],
    handlers: handles.map((h) => h.name || '<anonymous>'),
    openapi: false,
    syntax,
    ...marksOf(handles.map((h) => h.handle), scope),
  };
  const translation = translatePath(parts, syntax);
  if ('reason' in translation) info.reason = translation.reason;
  else {
    info.openapi = true;
    info.openapiPaths = translation.paths.map((p) => p.path);
  }
  return info;
}

/** A route's methods upper-case; `ALL` for `route.all()`, and for every method (Express 5's `app.all()` adds each). */
function routeMethods(methods: Record<string, boolean> | undefined): string[] {
  const list = Object.keys(methods ?? {}).filter((m) => methods![m]);
  if (list.includes('_all') || verbs.every((v) => list.includes(v))) return ['ALL'];
  return list.map((m) => m.toUpperCase());
}

/** A route's handlers, each once: a route made for every method holds one layer per method and handler. */
function distinctHandles(stack: LayerLike[]): Array<{ name?: string; handle?: unknown }> {
  const seen = new Set<unknown>();
  const out: Array<{ name?: string; handle?: unknown }> = [];
  for (const layer of stack) {
    if (seen.has(layer.handle)) continue;
    seen.add(layer.handle);
    out.push({ name: layer.name, handle: layer.handle });
  }
  return out;
}

function walk(router: RouterLike, scope: Scope, out: RouteInfo[], seen: Set<object>): void {
  if (seen.has(router)) return;
  seen.add(router);
  const syntax = syntaxOf(router);
  let inherited = scope;
  for (const layer of router.stack) {
    const route = layer.route;
    if (route !== undefined) {
      const handles = distinctHandles(route.stack ?? []);
      flat(route.path).forEach((p, i) => {
        if (typeof p === 'string' || p instanceof RegExp) out.push(entry(inherited, p, keysAt(layer, i), routeMethods(route.methods), handles, syntax));
      });
      continue;
    }
    const handle = layer.handle;
    const paths = flat(registeredPath(layer) ?? foreignMountPath(layer) ?? '/').filter((p): p is string | RegExp => typeof p === 'string' || p instanceof RegExp);
    if (isRouteTable(handle)) {
      for (const p of paths) legacyRoutes(handle, mount(inherited, p, keysAt(layer, 0)), out);
      continue;
    }
    const inner = routerOf(mountedApp(handle)) ?? routerOf(handle);
    if (inner !== undefined) {
      paths.forEach((p, i) => walk(inner, mount(inherited, p, keysAt(layer, i)), out, seen));
      continue;
    }
    // validate() or describe() used as a router's middleware applies to the routes after it there.
    const schemas = schemasOf(handle);
    const description = descriptionOf(handle);
    if ((schemas !== undefined || description !== undefined) && paths.length === 1 && paths[0] === '/') {
      inherited = { ...inherited, schemas: merge(inherited.schemas, schemas), description: merge(inherited.description, description) };
    }
  }
  seen.delete(router);
}

function mount(scope: Scope, part: string | RegExp, params: Array<string | number>): Scope {
  if (part === '/') return scope;
  return { ...scope, parts: [...scope.parts, part], params: [...scope.params, ...params] };
}

/**
 * Express 3's table lists one record per verb (`app.all()` makes one for
 * each): records of the same path and callbacks are one entry here, with
 * their methods, `ALL` when every verb has one.
 */
function legacyRoutes(table: RouteTableLike, scope: Scope, out: RouteInfo[]): void {
  const groups: Array<{ path: unknown; callbacks: unknown[]; methods: string[]; keys: KeyLike[] }> = [];
  const tableVerbs = Object.keys(table.map);
  for (const verb of tableVerbs) {
    for (const record of table.map[verb] ?? []) {
      const same = groups.find((g) => g.path === record.path && g.callbacks.length === record.callbacks.length && g.callbacks.every((c, i) => c === record.callbacks[i]));
      if (same !== undefined) same.methods.push(verb.toUpperCase());
      else groups.push({ path: record.path, callbacks: record.callbacks, methods: [verb.toUpperCase()], keys: record.keys });
    }
  }
  for (const group of groups) {
    const methods = group.methods.length === verbs.length ? ['ALL'] : group.methods;
    const handles = group.callbacks.map((fn) => ({ name: (fn as { name?: string }).name, handle: fn }));
    const list = flat(group.path).filter((p): p is string | RegExp => typeof p === 'string' || p instanceof RegExp);
    for (const p of list) {
      const keys = list.length === 1 ? group.keys : table.profile.compilePath(p, { end: true, strict: false, sensitive: false }).keys;
      out.push(entry(scope, p, [...new Set(keys.map((k) => k.name))], methods, handles, 'v4'));
    }
  }
}

/**
 * Every route of `app` (an app of any generation, or a router), in the
 * order requests meet them: routes, then the routes of nested routers and
 * mounted apps with their mount paths.
 */
export function routes(app: unknown): RouteInfo[] {
  const out: RouteInfo[] = [];
  const router = routerOf(app);
  if (router !== undefined) walk(router, { parts: [], params: [], schemas: undefined, description: undefined }, out, new Set());
  return out;
}
