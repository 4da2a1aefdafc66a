// How the Express instrumentation names a layer and builds `http.route`,
// rebuilt from what trestle's channels tell: the mount path patterns the
// layer runs under and its own path. The rules (which segments count, when
// a route is "matched") are the Express instrumentation's, so dashboards
// built on its output see the same values.
import { AttributeNames, ExpressLayerType, type IgnoreMatcher, type LayerRun, type TrestleInstrumentationConfig } from './types';

type Attributes = Record<string, string>;

/** The path this layer adds to the route: a route's path, a middleware's or router's mount path. */
function ownPath(run: LayerRun): string {
  return (run.kind === 'route' ? run.routePath : run.layerPath) ?? '/';
}

/** Segments that do not name anything: the root, and wildcards. */
function meaningless(path: string): boolean {
  return path === '/' || path === '/*' || /^\/\{[*][^}]*\}$/.test(path);
}

/** The route built so far: mount paths and the layer's own, meaningless segments left out. */
export function constructedRoute(run: LayerRun): string {
  const own = ownPath(run);
  if (run.mountPath === '' && own === '*') return '*';
  const joined = run.mountPath + (meaningless(own) ? '' : own);
  return joined.replace(/\/{2,}/g, '/');
}

/** `http.route` for this layer: the constructed route when the request's URL is really under it. */
export function matchedRoute(run: LayerRun, constructed: string): string | undefined {
  const originalUrl = String((run.req as { originalUrl?: unknown }).originalUrl ?? '');
  if (run.mountPath === '' && ownPath(run) === '/') return originalUrl === '/' ? '/' : undefined;
  if (constructed === '*') return constructed;
  if (constructed.includes('/') && /[,\\*[]/.test(constructed)) return constructed;
  const route = constructed.startsWith('/') ? constructed : `/${constructed}`;
  const matched = originalUrl === route || originalUrl.startsWith(route) || route.includes(':') || route.includes('*');
  return matched ? route : undefined;
}

interface LayerLike {
  handle?: { stack?: LayerLike[] };
  route?: { path?: unknown };
  path?: unknown;
}

/** A router span's name: the path of the first route found down its first layers (the Express instrumentation's rule). */
function routerPath(path: string, layer: LayerLike | undefined): string {
  const first = layer?.handle?.stack?.[0];
  if (first?.route?.path) return `${path}${String(first.route.path)}`;
  if (first?.handle?.stack) return routerPath(path, first);
  return path;
}

export interface LayerMetadata {
  type: (typeof ExpressLayerType)[keyof typeof ExpressLayerType];
  name: string;
  attributes: Attributes;
}

export function layerMetadata(run: LayerRun, constructed: string): LayerMetadata {
  const layer = run.layer as LayerLike | undefined;
  if (run.kind === 'router') {
    const path = routerPath('', layer) || run.layerPath || constructed || '/';
    return { type: ExpressLayerType.ROUTER, name: `router - ${path}`, attributes: attributes(path, ExpressLayerType.ROUTER) };
  }
  if (run.kind === 'route') {
    const route = constructed || run.routePath;
    const name = layer?.path ? `request handler - ${route}` : 'request handler';
    return { type: ExpressLayerType.REQUEST_HANDLER, name, attributes: attributes(route ?? 'request handler', ExpressLayerType.REQUEST_HANDLER) };
  }
  return { type: ExpressLayerType.MIDDLEWARE, name: `middleware - ${run.name}`, attributes: attributes(run.name, ExpressLayerType.MIDDLEWARE) };
}

function attributes(name: string, type: string): Attributes {
  return { [AttributeNames.EXPRESS_NAME]: name, [AttributeNames.EXPRESS_TYPE]: type };
}

function matches(name: string, pattern: IgnoreMatcher): boolean {
  if (typeof pattern === 'string') return pattern === name;
  if (pattern instanceof RegExp) return pattern.test(name);
  return pattern(name);
}

/** Is the layer skipped by `ignoreLayersType` or `ignoreLayers`? A matcher that throws skips nothing. */
export function isIgnored(name: string, type: string, config: TrestleInstrumentationConfig): boolean {
  if (config.ignoreLayersType?.includes(type as LayerMetadata['type'])) return true;
  try {
    return config.ignoreLayers?.some((pattern) => matches(name, pattern)) ?? false;
  } catch {
    return false;
  }
}
