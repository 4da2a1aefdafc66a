// The router: a stack of layers run in definition order for each request.
// A router is itself a middleware function, so it mounts anywhere one does.
import { type AnyHandler, Layer } from './layer';
import { flatten, methods } from './methods';
import type { PathCompiler } from './path/compiled';
import { Route } from './route';
import { getPathname, getProtohost } from './url';
import { buildIndex, type LayerIndex } from './layer-index';
import { mergeParams, param, type ParamCalled, type ParamFactory, type ParamFn, paramsNotRegistered, runParams } from './params';
import { createError } from '../errors';


type Next = (err?: unknown) => void;

/** The part of a profile the router reads. */
export interface RouterProfile {
  compilePath: PathCompiler;
  /** Characters that may follow a mount path (`/`; legacy also `.`). */
  mountSeparators: string;
  /** The answer to an OPTIONS request no handler took. */
  sendOptions(res: unknown, methods: string[], next: Next): void;
  /** May `router.param(fn)` redefine how param() behaves? (v4: with a deprecation warning) */
  paramFactories: boolean | 'deprecated';
  /** `use()` without a function: the message (`fn` absent when none was given), when not v5's wording. */
  useError?: (...fn: [] | [unknown]) => string;
}

export interface RouterOptions {
  caseSensitive?: boolean | undefined;
  mergeParams?: boolean | undefined;
  strict?: boolean | undefined;
}

/** The fields the router keeps on the request while it dispatches. */
export interface RoutingRequest {
  url: string;
  method?: string | undefined;
  originalUrl?: string;
  baseUrl?: string;
  params?: Record<string, unknown>;
  next?: Next;
  route?: unknown;
}


export interface RouterInstance {
  (req: RoutingRequest, res: unknown, next: Next): void;
  stack: Layer[];
  /** The candidate index of `stack` as it was at `_indexedLength` layers. */
  _layerIndex?: LayerIndex | undefined;
  _indexedLength?: number;
  params: Record<string, ParamFn[]>;
  _params: ParamFactory[];
  caseSensitive: boolean;
  mergeParams: boolean;
  strict: boolean;
  profile: RouterProfile;
  handle(req: RoutingRequest, res: unknown, out: Next): void;
  use(...args: unknown[]): RouterInstance;
  route(path: unknown): Route;
  param(name: unknown, fn?: unknown): RouterInstance;
  all(path: unknown, ...handlers: unknown[]): RouterInstance;
  [method: string]: unknown;
}

/** The prototype of every router, per profile. */
export function routerPrototype(profile: RouterProfile): object {
  const proto = Object.create(Function.prototype) as Record<string, unknown>;
  Object.defineProperty(proto, 'profile', { value: profile, enumerable: false });
  Object.assign(proto, { handle, use, route, param });
  proto.all = function all(this: RouterInstance, path: unknown, ...handlers: unknown[]) {
    this.route(path).all(...handlers);
    return this;
  };
  for (const method of methods) {
    proto[method] = function (this: RouterInstance, path: unknown, ...handlers: unknown[]) {
      (this.route(path) as unknown as Record<string, (...h: unknown[]) => unknown>)[method]!(...handlers);
      return this;
    };
  }
  return proto;
}

export function createRouter(proto: object, options: RouterOptions = {}): RouterInstance {
  const router = function router(req: RoutingRequest, res: unknown, next: Next) {
    (router as RouterInstance).handle(req, res, next);
  } as RouterInstance;
  Object.setPrototypeOf(router, proto);
  router.params = Object.create(null) as Record<string, ParamFn[]>;
  router._params = [];
  router.caseSensitive = Boolean(options.caseSensitive);
  router.mergeParams = Boolean(options.mergeParams);
  router.strict = Boolean(options.strict);
  router.stack = [];
  return router;
}

function compile(router: RouterInstance, path: unknown, end: boolean, strict: boolean): Layer['matchers'] {
  const list = Array.isArray(path) ? flatten<unknown>(path) : [path];
  return list.map((p) => {
    if (typeof p !== 'string' && !(p instanceof RegExp)) {
      throw createError(TypeError, 'TRESTLE_ERR_INVALID_ARG_TYPE', `path must be a string, a regular expression or an array of them, got ${Object.prototype.toString.call(p)}`);
    }
    return router.profile.compilePath(p, { end, strict, sensitive: router.caseSensitive });
  });
}

/**
 * `use([path], ...handlers)`: the first argument is a path unless it is (an
 * array starting with) a function; handlers come flattened.
 */
export function useArguments(args: unknown[]): { path: unknown; handlers: unknown[] } {
  let first = args[0];
  while (Array.isArray(first) && first.length !== 0) first = first[0];
  if (typeof first === 'function') return { path: '/', handlers: flatten<unknown>(args) };
  return { path: args[0], handlers: flatten<unknown>(args.slice(1)) };
}

function use(this: RouterInstance, ...args: unknown[]): RouterInstance {
  const { path, handlers } = useArguments(args);
  const useError = this.profile.useError;
  if (handlers.length === 0) throw createError(TypeError, 'TRESTLE_ERR_MISSING_ARG', useError ? useError() : 'argument handler is required');
  const matchers = compile(this, path, false, false);
  const matchesAll = path === '/';
  for (const fn of handlers) {
    if (typeof fn !== 'function') {
      const message = useError ? useError(fn) : `argument handler must be a function, got ${Object.prototype.toString.call(fn)}`;
      throw createError(TypeError, 'TRESTLE_ERR_INVALID_ARG_TYPE', message);
    }
    this.stack.push(new Layer(matchers, fn as AnyHandler, matchesAll));
  }
  return this;
}

function route(this: RouterInstance, path: unknown): Route {
  const r = new Route(path);
  const layer = new Layer(compile(this, path, true, this.strict), function handle(req: RoutingRequest, res: unknown, next: Next) {
    r.dispatch(req, res, next);
  });
  layer.route = r;
  this.stack.push(layer);
  return r;
}


/** The request's walk through this router's stack. */
function handle(this: RouterInstance, req: RoutingRequest, res: unknown, out: Next): void {
  const router = this;
  const stack = router.stack;
  const separators = router.profile.mountSeparators;
  const parentParams = req.params;
  const parentUrl = req.baseUrl ?? '';
  const parentNext = req.next;
  const options: string[] | undefined = req.method === 'OPTIONS' ? [] : undefined;
  let idx = 0;
  let sync = 0;
  let removed = '';
  let slashAdded = false;
  let protohost = '';
  let paramcalled: Record<string, ParamCalled> | undefined;
  let lastUrl: string | undefined;
  let path = '';
  let candidates: readonly number[] = [];
  let candidatesFor: string | undefined;
  let ci = 0;

  // Leaving this router: the request looks as it did when it came in.
  const done = (err?: unknown): void => {
    req.baseUrl = parentUrl;
    req.next = parentNext;
    req.params = parentParams;
    if (options !== undefined && !err && options.length !== 0) {
      router.profile.sendOptions(res, options, out);
      return;
    }
    out(err);
  };

  req.next = next;
  req.baseUrl = parentUrl;
  req.originalUrl ??= req.url;
  next();

  function next(err?: unknown): void {
    // The common step, taken first: no error, req.url as it came in, and
    // the next layer a plain `use(fn)` (it matches every path and consumes
    // nothing), so no path, index or params work is needed to run it.
    if (err === undefined && removed.length === 0 && !slashAdded && idx < stack.length && stack[idx]!.runsAlways && sync < 100) {
      const layer = stack[idx++]!;
      sync++;
      req.params = routedParams(router, emptyParams(parentParams), parentParams);
      layer.handleRequest(req, res, next);
      sync = 0;
      return;
    }
    let layerError = err === 'route' ? null : err;

    // Undo what the previous middleware layer's mount path did to req.url.
    if (slashAdded) {
      req.url = req.url.slice(1);
      slashAdded = false;
    }
    if (removed.length !== 0) {
      req.baseUrl = parentUrl;
      req.url = protohost + removed + req.url.slice(protohost.length);
      removed = '';
    }
    if (layerError === 'router') {
      setImmediate(done, null);
      return;
    }
    if (idx >= stack.length) {
      setImmediate(done, layerError);
      return;
    }
    if (++sync > 100) {
      setImmediate(next, err);
      return;
    }

    if (req.url !== lastUrl) {
      lastUrl = req.url;
      path = getPathname(lastUrl);
    }
    const index = layerIndex(router);
    let layer: Layer | undefined;
    let route: Route | undefined;
    let matched = false;
    while (!matched && idx < stack.length) {
      if (index !== undefined) {
        // Jump to the next layer that can match this path at all.
        if (path !== candidatesFor) {
          candidates = index.candidates(path);
          candidatesFor = path;
          ci = 0;
        }
        while (ci < candidates.length && candidates[ci]! < idx) ci++;
        if (ci === candidates.length) {
          idx = stack.length;
          break;
        }
        idx = candidates[ci]!;
      }
      layer = stack[idx++]!;
      try {
        matched = layer.matchesAll || layer.match(path);
      } catch (decodeError) {
        layerError ??= decodeError;
        matched = false;
      }
      if (!matched) continue;
      route = layer.route as Route | undefined;
      if (route === undefined) continue;
      // Routes never see a pending error; error handlers are middleware.
      if (layerError) {
        matched = false;
        continue;
      }
      if (!route._handlesMethod(req.method)) {
        if (options !== undefined) appendMethods(options, route._methods());
        matched = false;
      }
    }
    if (!matched || layer === undefined) {
      done(layerError);
      return;
    }

    const found = layer;
    const layerParams = found.matchesAll ? emptyParams(parentParams) : found.params!;
    req.params = routedParams(router, layerParams, parentParams);
    const layerPath = found.matchesAll ? '' : found.path!;

    if (found.keys.length === 0 || paramsNotRegistered(router.params, found.keys)) {
      afterParams(found, route, layerError, layerPath, path);
    } else {
      paramcalled ??= Object.create(null) as Record<string, ParamCalled>;
      runParams(router.params, found.keys, paramcalled, req, res, (paramErr?: unknown) => {
        if (paramErr) next(layerError || paramErr);
        else afterParams(found, route, layerError, layerPath, path);
      });
    }
    sync = 0;
  }

  function afterParams(layer: Layer, route: Route | undefined, layerError: unknown, layerPath: string, path: string): void {
    if (route !== undefined) {
      layer.handleRequest(req, res, next);
      return;
    }
    if (layerPath.length !== 0) {
      // The match must end where a path segment ends.
      const c = path[layerPath.length];
      if (c !== undefined && separators.indexOf(c) === -1) {
        next(layerError);
        return;
      }
      removed = layerPath;
      protohost = getProtohost(req.url);
      req.url = protohost + req.url.slice(protohost.length + removed.length);
      if (protohost.length === 0 && req.url[0] !== '/') {
        req.url = '/' + req.url;
        slashAdded = true;
      }
      req.baseUrl = parentUrl + (removed[removed.length - 1] === '/' ? removed.slice(0, -1) : removed);
    }
    if (layerError) layer.handleError(layerError, req, res, next);
    else layer.handleRequest(req, res, next);
  }
}

/** The params a layer's handler sees: its own, or with mergeParams its parent's too. */
function routedParams(router: RouterInstance, own: Record<string, unknown>, parent: Record<string, unknown> | undefined): Record<string, unknown> {
  return router.mergeParams ? mergeParams(own, parent) : own;
}

/** `use('/')` layers keep no params of their own; give them a fresh empty object. */
function emptyParams(parent: Record<string, unknown> | undefined): Record<string, unknown> {
  return parent !== undefined && Object.getPrototypeOf(parent) === null
    ? (Object.create(null) as Record<string, unknown>)
    : {};
}


function appendMethods(list: string[], add: string[]): void {
  for (const m of add) if (list.indexOf(m) === -1) list.push(m);
}


/** The router's layer index, rebuilt when its stack has grown or shrunk since. */
function layerIndex(router: RouterInstance): LayerIndex | undefined {
  if (router._indexedLength !== router.stack.length) {
    router._layerIndex = buildIndex(router.stack, router.caseSensitive);
    router._indexedLength = router.stack.length;
  }
  return router._layerIndex;
}
