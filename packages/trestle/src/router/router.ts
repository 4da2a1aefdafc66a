// The router: a stack of layers run in definition order for each request.
// A router is itself a middleware function, so it mounts anywhere one does.
import { type AnyHandler, Layer, layerClass } from './layer';
import { flatten } from './methods';
import type { PathCompiler, PathOptions } from './path/compiled';
import { type Route, routeClass, type RouteShape } from './route';
import { getPathname, getProtohost } from './url';
import { buildIndex, type LayerIndex } from './layer-index';
import { mergeParams, type ParamCalled, type ParamFactory, type ParamFn, paramsNotRegistered, runParams } from './params';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { createError } from '../errors';
import { type FinalApp, finalHandler } from '../app/final-handler';
import { noteLayerPath } from './registered';
import { traceRegister } from '../observability/orchestrion';
import { routingMethod } from '../websocket/marker';

type Next = (err?: unknown) => void;

/** The part of a profile the router reads. */
export interface RouterProfile {
  compilePath: PathCompiler;
  /**
   * Characters that may follow what a middleware layer matched (`/`; v4 and
   * legacy also `.`). Compiled string paths decide this themselves (v4's
   * `/apple` does not match `/apple.html`); it tells for regular expressions.
   */
  mountSeparators: string;
  /** The answer to an OPTIONS request no handler took. */
  sendOptions(res: unknown, methods: string[], next: Next): void;
  /** May `router.param(fn)` redefine how param() behaves? (v4: with a deprecation warning) */
  paramFactories: boolean | 'deprecated';
  /** What this generation's routers and layers look like to code that reads below the API. */
  shape: RouterShape;
  /** May a route method be given no handler (`app.post('/x')`)? Express 4 accepts it; the route never answers. */
  handlerOptional?: boolean;
  /**
   * Must a router called directly be given its callback (`router(req, res,
   * next)`)? Express 5's router throws without it; Express 4's runs the
   * layers all the same (`http.createServer(router)` works while a route answers).
   */
  callbackRequired?: boolean;
}

/** The parts of Express's router objects that differ between generations. */
export interface RouterShape extends RouteShape {
  /** `constructor` (v5): routers inherit `Router.prototype`; `prototype` (v4): they inherit `Router` itself. */
  factory: 'constructor' | 'prototype';
  /** v4 makes a route's layer handle `route.dispatch.bind(route)`, so the layer is named `bound dispatch`. */
  boundDispatch: boolean;
  /** Gives a new layer the fields this generation's layers have (v5 `slash`; v4 `regexp`), from the path it was made for. */
  exposeLayer(layer: Layer, path: unknown, options: PathOptions): void;
  /** What `use()` throws without a handler (`fn` undefined) or with one that is not a function, in this generation's words. */
  useError(fn: unknown, missing: boolean): Error;
  /** What `param(name, fn)` throws when `fn` is not a function. */
  paramError(name: string, fn: unknown): Error;
  /** Middleware every app router starts with (Express 4's `query` and `expressInit`). */
  appLayers: ReadonlyArray<(req: never, res: never, next: Next) => void>;
  /**
   * v4: the app router is made by the first route or middleware (or
   * `lazyrouter()`), never by a request; an app with neither answers from
   * the final handler, as Express 4's does.
   */
  routerOnFirstUse?: boolean;
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
  (req: RoutingRequest, res: unknown, next?: Next): void;
  /** The layers, in order: a view of `_layers` that tells the router of every change made through it. */
  stack: Layer[];
  /** The array `stack` shows; the router reads it directly. */
  _layers: Layer[];
  /** The candidate index of `_layers`; stale once anything changed the stack. */
  _layerIndex: LayerIndex | undefined;
  _indexStale: boolean;
  params: Record<string, ParamFn[]>;
  _params: ParamFactory[];
  caseSensitive: boolean;
  mergeParams: boolean;
  strict: boolean;
  profile: RouterProfile;
  handle(req: RoutingRequest, res: unknown, out?: Next): void;
  use(...args: unknown[]): RouterInstance;
  route(path: unknown): Route;
  param(name: unknown, fn?: unknown): RouterInstance;
  all(path: unknown, ...handlers: unknown[]): RouterInstance;
  [method: string]: unknown;
}

export function createRouter(proto: object, options: RouterOptions = {}): RouterInstance {
  const router = function router(req: RoutingRequest, res: unknown, next?: Next) {
    (router as RouterInstance).handle(req, res, next);
  } as RouterInstance;
  Object.setPrototypeOf(router, proto);
  router.params = Object.create(null) as Record<string, ParamFn[]>;
  router._params = [];
  router.caseSensitive = Boolean(options.caseSensitive);
  router.mergeParams = Boolean(options.mergeParams);
  router.strict = Boolean(options.strict);
  defineStack(router);
  return router;
}

/**
 * `router.stack` is public and mutable: apps and tools splice, replace,
 * sort and re-assign it at run time, and the next request must see it.
 * The layer index is cached, so the router must learn of every change.
 * Users get the array through a Proxy whose write traps mark the index
 * stale; the router itself reads the plain array underneath, so no request
 * pays for the Proxy (a read through one measured over 100 ns here, a plain
 * array's a few ns).
 * Assigning a new array wraps it the same way.
 */
function defineStack(router: RouterInstance): void {
  const stale = (): void => {
    router._indexStale = true;
  };
  const traps: ProxyHandler<Layer[]> = {
    set(target, key, value) {
      stale();
      return Reflect.set(target, key, value);
    },
    deleteProperty(target, key) {
      stale();
      return Reflect.deleteProperty(target, key);
    },
    defineProperty(target, key, descriptor) {
      stale();
      return Reflect.defineProperty(target, key, descriptor);
    },
  };
  let view: Layer[] = [];
  const adopt = (layers: Layer[]): void => {
    router._layers = layers;
    router._layerIndex = undefined;
    router._indexStale = true;
    view = new Proxy(layers, traps);
  };
  // The router's own bookkeeping stays out of its enumerable keys, which are Express's.
  const hidden = { writable: true, configurable: true, enumerable: false };
  Object.defineProperties(router, { _layers: hidden, _layerIndex: hidden, _indexStale: hidden });
  adopt([]);
  Object.defineProperty(router, 'stack', {
    configurable: true,
    enumerable: true,
    get: () => view,
    set(layers: Layer[]) {
      adopt(layers);
    },
  });
}

/** Adds a layer at the end of the stack (what use() and route() do). */
function pushLayer(router: RouterInstance, layer: Layer): void {
  router._layers.push(layer);
  router._indexStale = true;
}

/** A layer of the generation of `profile` for `path`, with the fields its layers show. */
export function makeLayer(profile: RouterProfile, path: unknown, fn: AnyHandler, options: PathOptions, matchesAll = false): Layer {
  const list = Array.isArray(path) ? flatten<unknown>(path) : [path];
  const matchers = list.map((p) => {
    if (typeof p !== 'string' && !(p instanceof RegExp)) {
      throw createError(TypeError, 'TRESTLE_ERR_INVALID_ARG_TYPE', `path must be a string, a regular expression or an array of them, got ${Object.prototype.toString.call(p)}`);
    }
    return profile.compilePath(p, options);
  });
  const layer = new (layerClass(profile.shape))(matchers, fn, matchesAll);
  profile.shape.exposeLayer(layer, path, options);
  return layer;
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

/**
 * `router.use()` and `router.route()` publish on the generation's `register`
 * channel when someone listens (Sentry 11 learns each layer's path there).
 */
function registering<T>(router: RouterInstance, args: unknown[], run: (router: RouterInstance, args: unknown[]) => T): T {
  const register = router.profile.shape.standIn?.register;
  if (register !== undefined && register.start.hasSubscribers) return traceRegister(register, router, args, run);
  return run(router, args);
}

export function use(this: RouterInstance, ...args: unknown[]): RouterInstance {
  return registering(this, args, useLayers);
}

function useLayers(router: RouterInstance, args: unknown[]): RouterInstance {
  const { path, handlers } = useArguments(args);
  const shape = router.profile.shape;
  if (handlers.length === 0) throw shape.useError(undefined, true);
  for (const fn of handlers) if (typeof fn !== 'function') throw shape.useError(fn, false);
  const options = { end: false, strict: false, sensitive: router.caseSensitive };
  for (const fn of handlers) {
    const layer = makeLayer(router.profile, path, fn as AnyHandler, options, path === '/');
    noteLayerPath(layer, path);
    pushLayer(router, layer);
  }
  return router;
}

export function route(this: RouterInstance, path: unknown): Route {
  return registering(this, [path], routeLayer);
}

function routeLayer(router: RouterInstance, args: unknown[]): Route {
  const path = args[0];
  const r = new (routeClass(router.profile))(path);
  const dispatch = router.profile.shape.boundDispatch
    ? r.dispatch.bind(r)
    : function handle(req: RoutingRequest, res: unknown, next: Next) {
        r.dispatch(req, res, next);
      };
  const layer = makeLayer(router.profile, path, dispatch as AnyHandler, { end: true, strict: router.strict, sensitive: router.caseSensitive });
  layer.route = r;
  pushLayer(router, layer);
  return r;
}

/** The request's walk through this router's stack. */
export function handle(this: RouterInstance, req: RoutingRequest, res: unknown, callback: Next | undefined): void {
  const router = this;
  const out = callback ?? withoutCallback(router, req, res);
  // As in Express, a request walks the array it started with, even if
  // `router.stack` is assigned a new one meanwhile.
  const stack = router._layers;
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
  let candidatesFrom: LayerIndex | undefined;
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
  // As in Express: a request without a URL passes through untouched.
  if (!req.url) {
    done();
    return;
  }
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
      if (!lastUrl) {
        done(layerError);
        return;
      }
      path = getPathname(lastUrl);
    }
    const index = layerIndex(router, stack);
    let layer: Layer | undefined;
    let route: Route | undefined;
    let matched = false;
    while (!matched && idx < stack.length) {
      if (index !== undefined) {
        // Jump to the next layer that can match this path at all.
        if (path !== candidatesFor || index !== candidatesFrom) {
          candidates = index.candidates(path);
          candidatesFor = path;
          candidatesFrom = index;
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
      if (!route._handlesMethod(routingMethod(req))) {
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
      // The match must start the path (a regular expression may match
      // further in) and end where a path segment ends.
      const c = path[layerPath.length];
      if (!path.startsWith(layerPath) || (c !== undefined && separators.indexOf(c) === -1)) {
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

/**
 * The end of a walk no callback was given for: Express 5 refuses the call.
 * Express 4 runs it, and a request no layer answers then fails with a
 * TypeError, thrown from a timer when the walk went asynchronous, which ends
 * the process; trestle/v4 answers it as an app would instead (404, or the
 * error's page).
 */
function withoutCallback(router: RouterInstance, req: RoutingRequest, res: unknown): Next {
  if (router.profile.callbackRequired) throw createError(TypeError, 'TRESTLE_ERR_MISSING_ARG', 'argument callback is required');
  const app = (req as { app?: FinalApp }).app;
  return finalHandler(req as unknown as IncomingMessage, res as ServerResponse, app?.settings !== undefined ? app : { settings: { env: process.env.NODE_ENV ?? 'development' } });
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

/**
 * The router's layer index for `stack`, rebuilt when the stack changed
 * since; none for a request still walking an array the router replaced.
 */
function layerIndex(router: RouterInstance, stack: Layer[]): LayerIndex | undefined {
  if (router._indexStale) {
    router._layerIndex = buildIndex(router._layers, router.caseSensitive);
    router._indexStale = false;
  }
  return stack === router._layers ? router._layerIndex : undefined;
}
