// Does the app have a `ws` route for a path? Read from the route table
// without running any handler, so trestle can leave upgrades it has no
// route for to another 'upgrade' listener (socket.io, a proxy) untouched.
import { mountedApp } from '../router/registered';

interface LayerLike {
  route?: unknown;
  handle: unknown;
  matchesAll: boolean;
  isErrorHandler: boolean;
  path?: string | undefined;
  match(path: string): boolean;
}
interface RouterLike {
  _layers?: LayerLike[];
  stack?: LayerLike[];
}

/** The router of an app (any generation), or the handler itself when it is a router. */
function routerOf(target: unknown): RouterLike | undefined {
  if (target === null || target === undefined) return undefined;
  const t = target as RouterLike & { _router?: unknown };
  if (Array.isArray(t._layers) || Array.isArray(t.stack)) return t;
  // An app: v4 and legacy keep `_router`; v5 makes `router` on first read.
  try {
    const inner = ('_router' in t ? t._router : (t as { router?: unknown }).router) as RouterLike | undefined;
    return inner !== undefined && inner !== null && Array.isArray(inner.stack) ? inner : undefined;
  } catch {
    return undefined;
  }
}

function matches(layer: LayerLike, path: string): boolean {
  try {
    return layer.matchesAll || layer.match(path);
  } catch {
    return false;
  }
}

function walk(router: RouterLike, path: string, depth: number, any: boolean): boolean {
  if (depth > 32) return false;
  for (const layer of router._layers ?? router.stack ?? []) {
    if (layer.isErrorHandler) continue;
    const route = layer.route as { methods?: Record<string, boolean> } | undefined;
    if (route !== undefined) {
      if (route.methods?.ws === true && (any || matches(layer, path))) return true;
      continue;
    }
    const child = routerOf(mountedApp(layer.handle) ?? layer.handle);
    if (child === undefined) continue;
    if (any) {
      if (walk(child, path, depth + 1, true)) return true;
      continue;
    }
    if (!matches(layer, path)) continue;
    const rest = layer.matchesAll ? path : path.slice((layer.path ?? '').length);
    if (walk(child, rest.startsWith('/') ? rest : '/' + rest, depth + 1, false)) return true;
  }
  return false;
}

/** Is there a `ws` route whose path matches `path` (mounted routers and apps included)? */
export function hasWebSocketRoute(app: unknown, path: string): boolean {
  const router = routerOf(app);
  return router !== undefined && walk(router, path, 0, false);
}

/** Has the app any `ws` route at all? */
export function hasWebSocketRoutes(app: unknown): boolean {
  const router = routerOf(app);
  return router !== undefined && walk(router, '/', 0, true);
}
