// The route part of the upgrade report: every path an app (or a router)
// registered, read from its router stack as it stands, each translated and
// checked with the options its layer was compiled with.
import { kAppRouter } from '../app/application';
import { mountedApp, registeredPath } from '../router/registered';
import { type PathTranslation, translatePath } from './translate';
import type { MatchOptions, ParamRename } from './verify';

export interface RouteEntry {
  /** `route`: `app.get(path)`, `app.route(path)`...; `mount`: `use(path, ...)` (matched as a prefix: `end: false`). */
  kind: 'route' | 'mount';
  /** The path as registered: a string, or a RegExp's source between slashes. */
  path: string;
  /** The mount paths above it, joined ('' at the top). */
  mountPath: string;
  /** A route's methods, upper-cased (`_all` as `ALL`). */
  methods: string[];
  /** The options its layer matches with (the router's strict and case-sensitive routing). */
  options: MatchOptions;
  /** What changes on Express 5; absent when the path needs no change (and for RegExp paths, which both run as given). */
  finding?: PathTranslation;
}

export interface ParamEntry {
  kind: 'param';
  /** The name given to `app.param(name, fn)` / `router.param`. */
  name: string;
  mountPath: string;
  /** The Express 5 name(s) of that parameter, where a route of the same router renames it (`0` → `path`). */
  renamedTo?: string[];
}

export type TableEntry = RouteEntry | ParamEntry;

interface StackLayer {
  route?: { path?: unknown; methods?: Record<string, boolean> };
  handle?: unknown;
}

interface WalkedRouter {
  stack: StackLayer[];
  params?: Record<string, unknown>;
  strict?: boolean;
  caseSensitive?: boolean;
}

function isRouter(value: unknown): value is WalkedRouter {
  return typeof value === 'function' && Array.isArray((value as { stack?: unknown }).stack);
}

/** The router of an app (v5 `app.router`, v4 `app._router`, without creating one), or the router itself. */
function routerOf(target: unknown): WalkedRouter | undefined {
  if (isRouter(target)) return target;
  const router = (target as { [kAppRouter]?: unknown } | null | undefined)?.[kAppRouter];
  return isRouter(router) ? router : undefined;
}

/** A path as the table shows it: strings as they are, a RegExp as `/source/flags`. */
function display(path: unknown): string {
  return String(path);
}

function join(base: string, path: string): string {
  if (path === '/' || path === '') return base;
  return base.endsWith('/') && path.startsWith('/') ? base + path.slice(1) : base + path;
}

export function methodsOf(route: StackLayer['route']): string[] {
  return Object.keys(route?.methods ?? {}).filter((m) => route!.methods![m]).map((m) => (m === '_all' ? 'ALL' : m.toUpperCase()));
}

/** Translations made during one walk: apps repeat a path (a route per method, a mount per middleware). */
export type Memo = Map<string, PathTranslation>;

export function translated(path: string, options: MatchOptions, memo: Memo): PathTranslation {
  const key = `${options.end} ${options.strict} ${options.sensitive} ${path}`;
  let translation = memo.get(key);
  if (translation === undefined) memo.set(key, (translation = translatePath(path, options)));
  return translation;
}

function entriesFor(kind: RouteEntry['kind'], path: unknown, mountPath: string, methods: string[], options: MatchOptions, memo: Memo): RouteEntry[] {
  const list = Array.isArray(path) ? (path.flat(Infinity) as unknown[]) : [path];
  return list.map((p) => {
    const entry: RouteEntry = { kind, path: display(p), mountPath, methods, options };
    if (typeof p === 'string') {
      const translation = translated(p, options, memo);
      if (translation.change !== 'none') entry.finding = translation;
    }
    return entry;
  });
}

function walk(router: WalkedRouter, mountPath: string, out: TableEntry[], seen: Set<object>, memo: Memo): void {
  if (seen.has(router)) return;
  seen.add(router);
  const strict = Boolean(router.strict);
  const sensitive = Boolean(router.caseSensitive);
  const first = out.length;
  for (const layer of router.stack) {
    if (layer.route !== undefined) {
      out.push(...entriesFor('route', layer.route.path, mountPath, methodsOf(layer.route), { end: true, strict, sensitive }, memo));
      continue;
    }
    const path = registeredPath(layer) ?? '/';
    const entries = entriesFor('mount', path, mountPath, [], { end: false, strict: false, sensitive }, memo);
    out.push(...entries);
    const inner = routerOf(mountedApp(layer.handle)) ?? routerOf(layer.handle);
    if (inner !== undefined) walk(inner, join(mountPath, entries.length === 1 ? entries[0]!.path : display(path)), out, seen, memo);
  }
  out.push(...paramEntries(router, mountPath, out.slice(first)));
}

/** The router's `param` triggers, with the new name of a parameter its own routes rename. */
function paramEntries(router: WalkedRouter, mountPath: string, routes: TableEntry[]): ParamEntry[] {
  const renames: ParamRename[] = [];
  for (const e of routes) if (e.kind !== 'param' && e.mountPath === mountPath) renames.push(...(e.finding?.suggestion?.renames ?? []));
  return Object.keys(router.params ?? {}).map((name) => {
    const to = [...new Set(renames.filter((r) => String(r.v4) === name).map((r) => String(r.v5)))];
    return to.length === 0 ? { kind: 'param', name, mountPath } : { kind: 'param', name, mountPath, renamedTo: to };
  });
}

/**
 * Every path `app` (a `trestle/v4` app, any trestle app, or a router)
 * registered: routes, `use` mounts, nested routers and mounted apps, and
 * `param` triggers, in stack order. Each string path carries a `finding`
 * when Express 5 rejects it or matches other URLs, with the verified
 * Express 5 form; paths that need no change carry none.
 */
export function routeTable(app: unknown): TableEntry[] {
  const router = routerOf(app);
  const out: TableEntry[] = [];
  if (router !== undefined) walk(router, '', out, new Set(), new Map());
  return out;
}

/** Only the entries that need a change (a path finding, or a param renamed). */
export function routeFindings(app: unknown): TableEntry[] {
  return routeTable(app).filter((e) => (e.kind === 'param' ? e.renamedTo !== undefined : e.finding !== undefined));
}
