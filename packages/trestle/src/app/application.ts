// The application prototype: settings, middleware and routing (delegated to
// the lazily created app router), sub-apps, views and listen.
import { fetchOnPlatform, refuseOnPlatform } from './platform-seam';
import * as http from 'node:http';
import type { Http2ServerRequest, Http2ServerResponse } from 'node:http2';
import { finalHandler } from './final-handler';
import { putPoweredBy } from '../response/header-store';
import { methods } from '../router/methods';
import { createRouter, type RouterInstance, useArguments } from '../router/router';
import { noteMountedApp } from '../router/registered';
import { defaultSettings, putSetting, readSetting, type SettingCompilers, TRUST_PROXY_DEFAULT } from './settings';
import type { Profile } from '../generations/profile';
import type { Http2Prototypes } from './http2';
import type { FetchOptions } from '../types/options';
import type { EngineCallback, RenderCallback, ViewConstructor, ViewInstance } from '../types';
import { createError } from '../errors';
import { lazy } from '../lazy';
import { requestStart } from '../observability/channels';
import type { ArmDeadline } from '../lifecycle/deadline';
import { applyServerLimits, serverLimits } from '../lifecycle/limits';
import { addOwnProperty } from '../fast-properties';
import { replaceServerClasses } from '../node-internals';
import { type AppLifecycle, type kAppLifecycle, watchServer } from '../lifecycle/servers';
import { addWebSocketRoute } from '../websocket/methods';
import { attachOnListen } from '../websocket/upgrade';
import { fromExpressWs } from '../websocket/express-ws';
import { markHttp2Upgrade } from '../websocket/http2';

type Next = (err?: unknown) => void;
type Req = http.IncomingMessage & { app?: App };
type Res = http.ServerResponse;

/** An application as its own methods see it. */
export interface App {
  (req: Req, res: Res, next?: Next): void;
  settings: Record<string, unknown>;
  locals: Record<string, unknown>;
  engines: Record<string, EngineCallback>;
  cache: Record<string, ViewInstance>;
  mountpath: unknown;
  parent: App | undefined;
  request: object;
  response: object;
  /** The app router once created (see appRouter): Express 5 shows it as `app.router`, Express 4 as `app._router`. */
  [kAppRouter]?: RouterInstance;
  readonly router: RouterInstance;
  _framework: FrameworkParts;
  /** Subclasses of node's request and response whose prototypes are `request`/`response`. */
  _classes: { IncomingMessage: unknown; ServerResponse: unknown };
  /** The HTTP/2 prototypes, made by the app's first HTTP/2 request (see http2.ts). */
  _http2?: Http2Prototypes | undefined;
  /** Its servers, shutdown hooks and shutdown state (lifecycle/servers.ts), made on first use. */
  [kAppLifecycle]?: AppLifecycle;
  get(name: string): unknown;
  set(name: string, value?: unknown): unknown;
  enabled(name: string): boolean;
  handle(req: Req, res: Res, callback?: Next): void;
  /** `app.fetch(request, options)`, bound to the app (see init). */
  fetch(request: Request, options?: FetchOptions, context?: unknown): Promise<Response>;
  emit(event: string, ...args: unknown[]): boolean;
  on(event: string, fn: (...args: unknown[]) => void): unknown;
  path(): string;
  render(name: string, options: object | RenderCallback, callback?: RenderCallback): void;
}

/** What the application needs from its framework (the profile's pieces). */
export interface FrameworkParts {
  profile: Profile;
  routerProto: object;
  queryParser: 'simple' | 'extended';
  /** How `etag`, `query parser` and `trust proxy` compile in this generation. */
  compilers: SettingCompilers;
  poweredBy: string;
}

const kTrestleApp = Symbol.for('trestle.app');
export const kAppRouter = Symbol('trestle.appRouter');

/**
 * The app's middleware and route stack, created on first use with the
 * app's routing settings. Its methods are the ones routers inherit, so
 * replacing them there (as tracing tools do) reaches the app's routing too.
 */
export function appRouter(app: App): RouterInstance {
  let router = app[kAppRouter];
  if (router === undefined) {
    router = createRouter(app._framework.routerProto, {
      caseSensitive: app.enabled('case sensitive routing'),
      strict: app.enabled('strict routing'),
    });
    setAppRouter(app, router);
    for (const fn of app._framework.profile.router.shape.appLayers) router.use(fn);
  }
  return router;
}

/**
 * v4's apps reach the slot through an accessor (their `_router`); a v5 app
 * gets it as a property added without a keyed store (see fast-properties.ts).
 */
function setAppRouter(app: App, router: RouterInstance): void {
  if (kAppRouter in app) app[kAppRouter] = router;
  else addOwnProperty(app, kAppRouter, router);
}

export function isApp(fn: unknown): fn is App {
  return typeof fn === 'function' && (kTrestleApp in fn || (typeof (fn as Partial<App>).handle === 'function' && typeof (fn as Partial<App>).set === 'function'));
}

/** `app.locals`: a function object that merges what it is called with (see `freeFunctionNames`). */
function createLocals(settings: Record<string, unknown>): Record<string, unknown> {
  const locals = function locals(obj: Record<string, unknown>) {
    if (obj !== null && typeof obj === 'object') Object.assign(locals, obj);
    return locals;
  } as unknown as Record<string, unknown>;
  freeFunctionNames(locals);
  locals.settings = settings;
  return locals;
}

/**
 * A function's own `name`, `length` (read-only) and `arguments`, `caller`
 * (throwing, inherited) would refuse a locals variable of that name, so
 * they become accessors: unset, they read as the function's own value;
 * assigned, the variable is stored as an ordinary, enumerable one, which
 * templates then see.
 */
export function freeFunctionNames(locals: Record<string, unknown>): void {
  for (const name of FUNCTION_OWN_NAMES) {
    // A sloppy-mode function's own `arguments`/`caller` cannot be redefined (and accept writes silently).
    if (Object.getOwnPropertyDescriptor(locals, name)?.configurable === false) continue;
    const own = name === 'name' || name === 'length' ? locals[name] : undefined;
    Object.defineProperty(locals, name, {
      configurable: true,
      enumerable: false,
      get: () => own,
      set(this: Record<string, unknown>, value: unknown) {
        // Deleted first, so the variable takes its place in assignment order.
        delete this[name];
        Object.defineProperty(this, name, { value, writable: true, enumerable: true, configurable: true });
      },
    });
  }
}

const FUNCTION_OWN_NAMES = ['name', 'length', 'arguments', 'caller'] as const;

export const applicationMembers = {
  init(this: App): void {
    Object.defineProperty(this, kTrestleApp, { value: true });
    this.cache = Object.create(null) as Record<string, ViewInstance>;
    this.engines = Object.create(null) as Record<string, EngineCallback>;
    this.settings = defaultSettings(this._framework.queryParser, this._framework.compilers);
    this.locals = createLocals(this.settings);
    this.mountpath = '/';
    this.parent = undefined;
    // Own and bound, so it works unbound: `export default { fetch: app.fetch }`, `Deno.serve(app.fetch)`.
    const app = this;
    this.fetch = (request: Request, options?: FetchOptions, context?: unknown) => fetchOnPlatform(app, request, options, context);
    // A mounted app inherits what its parent has, unless it set it itself
    // (its own defaults included, `trust proxy` excepted: see settings.ts).
    this.on('mount', (parent) => {
      const p = parent as App;
      const settings = this.settings as Record<string | symbol, unknown>;
      if (settings[TRUST_PROXY_DEFAULT] === true) {
        delete settings['trust proxy'];
        delete settings['trust proxy fn'];
      }
      Object.setPrototypeOf(this.request, p.request);
      Object.setPrototypeOf(this.response, p.response);
      Object.setPrototypeOf(this.engines, p.engines);
      Object.setPrototypeOf(this.settings, p.settings);
    });
  },

  /** The application router (a profile may answer differently). */
  get router(): RouterInstance {
    return appRouter(this as unknown as App);
  },

  /** Entry of every request: the app router, then the final handler. */
  handle(this: App, req: Req, res: Res, callback?: Next): void {
    // Servers created by app.listen() (or adopted below) already make requests
    // of the app's classes. That is asked of `constructor` first, an ordinary
    // property read: V8 answers Object.getPrototypeOf with a runtime call.
    const classes = this._classes;
    if (!isInstance(req, classes.IncomingMessage, this.request)) {
      // The app's own HTTP/2 class is known without a prototype read; node's HTTP/2 request by its version first.
      if (isOwnHttp2(this, req) || (req.httpVersionMajor === 2 && http2().isHttp2Request(req))) {
        handleHttp2(this, req as unknown as Http2ServerRequest, res as unknown as Http2ServerResponse, callback);
        return;
      }
      if (Object.getPrototypeOf(req) !== this.request) {
        adoptServer(this, req);
        Object.setPrototypeOf(req, this.request);
      }
    }
    if (!isInstance(res, classes.ServerResponse, this.response) && Object.getPrototypeOf(res) !== this.response) {
      Object.setPrototypeOf(res, this.response);
    }
    // express-ws hands its accepted sockets over in `req.ws` (websocket/express-ws.ts).
    if ((req as { ws?: unknown }).ws !== undefined) fromExpressWs(req as never);
    start(this, req, res, callback);
  },

  use(this: App, ...args: unknown[]): App {
    const { path, handlers: fns } = useArguments(args);
    if (fns.length === 0) throw createError(TypeError, 'TRESTLE_ERR_MISSING_ARG', 'app.use() requires a middleware function');
    const router = appRouter(this);
    for (const fn of fns) {
      if (!isApp(fn)) {
        router.use(path, fn);
        continue;
      }
      mountApp(this, path, fn);
    }
    return this;
  },

  route(this: App, path: unknown) {
    return appRouter(this).route(path);
  },

  param(this: App, name: unknown, fn?: unknown): App {
    appRouter(this).param(name, fn);
    return this;
  },

  /** Every method of `http.METHODS` (so `req.route.methods` lists them all, as Express's does). */
  all(this: App, path: unknown, ...handlers: unknown[]): App {
    const route = appRouter(this).route(path) as unknown as Record<string, (...h: unknown[]) => unknown>;
    for (const method of methods) route[method]!(...handlers);
    return this;
  },

  /** A WebSocket route: middleware `(req, res, next)` for the upgrade, then `(ws, req)` (websocket/methods.ts). */
  ws(this: App, path: unknown, ...handlers: unknown[]): App {
    addWebSocketRoute(appRouter(this), path, handlers);
    return this;
  },

  /** One argument: the setting; two: assign it (compiling `etag`, `query parser`, `trust proxy`). */
  set(this: App, name: string, ...rest: unknown[]): unknown {
    if (rest.length === 0) return readSetting(this.settings, name);
    const value = rest[0];
    putSetting(this.settings, name, value);
    const compile = this._framework.compilers[name];
    if (compile !== undefined) putSetting(this.settings, `${name} fn`, compile(value));
    if (name === 'trust proxy') (this.settings as Record<symbol, unknown>)[TRUST_PROXY_DEFAULT] = false;
    return this;
  },

  enable(this: App, name: string): App {
    return this.set(name, true) as App;
  },

  disable(this: App, name: string): App {
    return this.set(name, false) as App;
  },

  enabled(this: App, name: string): boolean {
    return Boolean(readSetting(this.settings, name));
  },

  disabled(this: App, name: string): boolean {
    return !readSetting(this.settings, name);
  },

  /** The absolute path the app is mounted on: `/blog/admin` for nested mounts. */
  path(this: App): string {
    return this.parent ? this.parent.path() + String(this.mountpath) : '';
  },

  engine(this: App, ext: string, fn: EngineCallback): App {
    if (typeof fn !== 'function') throw createError(Error, 'TRESTLE_ERR_INVALID_ARG_TYPE', 'callback function required');
    const extension = ext[0] !== '.' ? `.${ext}` : ext;
    this.engines[extension] = fn;
    return this;
  },

  render(this: App, name: string, options: object | RenderCallback, callback?: RenderCallback): void {
    let opts: Record<string, unknown> = {};
    let done = callback;
    if (typeof options === 'function') done = options as RenderCallback;
    else if (options) opts = options as Record<string, unknown>;
    // App locals, then response locals, then the call's own: the last one wins.
    const renderOptions: Record<string, unknown> = { ...this.locals, ...(opts._locals as object | undefined), ...opts };
    if (renderOptions.cache == null) renderOptions.cache = this.enabled('view cache');
    const cb = done!;
    let view = renderOptions.cache ? this.cache[name] : undefined;
    if (view === undefined) {
      const ViewClass = this.get('view') as ViewConstructor;
      // As Express: what the view's constructor throws (no engine, a platform without disk) is thrown to the caller.
      view = new ViewClass(name, {
        defaultEngine: this.get('view engine') as string | undefined,
        root: this.get('views') as string | string[],
        engines: this.engines,
      });
      if (!view.path) {
        const roots = describeRoots(view.root ?? (this.get('views') as string));
        const err = createError(Error, 'TRESTLE_ERR_VIEW_NOT_FOUND', `Failed to lookup view "${name}" in views ${roots}`);
        (err as Error & { view?: ViewInstance }).view = view;
        cb(err);
        return;
      }
      if (renderOptions.cache) this.cache[name] = view;
    }
    try {
      view.render(renderOptions, cb);
    } catch (err) {
      cb(err as Error);
    }
  },

  /**
   * Listens like `http.Server#listen`; the callback, called on the server,
   * also hears of a listen error (Express 5: `EADDRINUSE` reaches it, then
   * the server's `error` event).
   */
  listen(this: App, ...args: unknown[]): http.Server {
    refuseOnPlatform('app.listen()', 'listen');
    const server = createAppServer(this);
    const last = args[args.length - 1];
    if (typeof last === 'function') {
      let called = false;
      const once = (...a: unknown[]) => {
        if (called) return;
        called = true;
        (last as (...x: unknown[]) => void).apply(server, a);
      };
      args[args.length - 1] = once;
      server.once('error', once);
    }
    return server.listen(...(args as Parameters<http.Server['listen']>));
  },
};

/** `app.get(name)` reads a setting; with a path and handlers it routes GET. */
function routeMethod(method: string) {
  return function (this: App, path: unknown, ...handlers: unknown[]): unknown {
    if (method === 'get' && handlers.length === 0) return this.set(path as string);
    const route = appRouter(this).route(path) as unknown as Record<string, (...h: unknown[]) => unknown>;
    route[method]!(...handlers);
    return this;
  };
}
for (const method of methods) (applicationMembers as Record<string, unknown>)[method] = routeMethod(method);

function describeRoots(root: string | string[]): string {
  if (Array.isArray(root) && root.length > 1) {
    return `directories "${root.slice(0, -1).join('", "')}" or "${root[root.length - 1]}"`;
  }
  return `directory "${String(root)}"`;
}

/** Is `instance` made by `cls`, whose prototype still is `proto` (the app's `request` or `response`)? */
function isInstance(instance: object, cls: unknown, proto: object): boolean {
  return instance.constructor === cls && (cls as { prototype: object }).prototype === proto;
}


/** The HTTP/2 support, loaded by the first HTTP/2 request (node:http2 takes 6 ms to load). */
const http2 = lazy(() => require('./http2') as typeof import('./http2'));

/** Was `req` made with the app's own HTTP/2 class (a server adopted for HTTP/2)? */
function isOwnHttp2(app: App, req: Req): boolean {
  const protos = app._http2;
  return protos !== undefined && isInstance(req, protos.Request, protos.request);
}

/** A request from node's HTTP/2 server: the app's HTTP/2 prototypes instead of its HTTP/1.1 ones (see http2.ts). */
function handleHttp2(app: App, req: Http2ServerRequest, res: Http2ServerResponse, callback?: Next): void {
  const protos = http2().http2Prototypes(app, req);
  // An adopted server's objects are the app's already: `constructor` is read first, as in app.handle.
  if (!isInstance(req, protos.Request, protos.request) && Object.getPrototypeOf(req) !== protos.request) Object.setPrototypeOf(req, protos.request);
  if (!isInstance(res, protos.Response, protos.response) && Object.getPrototypeOf(res) !== protos.response) Object.setPrototypeOf(res, protos.response);
  // RFC 8441's WebSocket over HTTP/2 (websocket/http2.ts).
  if (req.method === 'CONNECT') markHttp2Upgrade(app as never, req);
  start(app, req as unknown as Req, res as unknown as Res, callback);
}

/**
 * An app handling a request whose prototypes are its own, over HTTP/1.1 or
 * HTTP/2: when it answers for itself (no `callback`, so not mounted or
 * called as middleware), the request's start is published first.
 */
function start(app: App, req: Req, res: Res, callback: Next | undefined): void {
  if (callback === undefined) {
    if (requestStart.hasSubscribers) requestStart.publish({ req, res, app });
    const deadline = app.settings['request deadline fn'];
    if (deadline !== undefined) (deadline as ArmDeadline)(req as never, res as never);
  }
  run(app, req, res, callback ?? finalHandler(req, res, app));
}

/** The app's own part of handling a request, once req and res are the app's. */
function run(app: App, req: Req, res: Res, done: Next): void {
  const router = app[kAppRouter] ?? firstRouter(app);
  if (router === undefined) {
    done();
    return;
  }
  if (app.settings['x-powered-by']) putPoweredBy(res, app._framework.poweredBy);
  (req as Req & { res?: Res }).res = res;
  (res as Res & { req?: Req }).req = req;
  router.handle(req as never, res, done);
}

/**
 * The router for an app's first request when nothing created one. Express 4
 * does not create it then: an app with no routes answers straight from the
 * final handler (no X-Powered-By, and no `app._router` after).
 */
function firstRouter(app: App): RouterInstance | undefined {
  return app._framework.profile.router.shape.routerOnFirstUse ? undefined : appRouter(app);
}

function mountApp(parent: App, path: unknown, child: App): void {
  child.mountpath = path;
  child.parent = parent;
  const mounted = function mounted_app(req: Req, res: Res, next: Next) {
    if (inheritsAsIs(child, req, res)) {
      const orig = req.app!;
      // Only `app` differs: shadow it rather than swap prototypes (see below).
      const r = req as Req & { app: App };
      const s = res as Res & { app: App };
      r.app = s.app = child;
      run(child, req, res, (err?: unknown) => {
        r.app = s.app = orig;
        next(err);
      });
      return;
    }
    const reqProto = Object.getPrototypeOf(req) as object;
    const resProto = Object.getPrototypeOf(res) as object;
    child.handle(req, res, (err?: unknown) => {
      Object.setPrototypeOf(req, reqProto);
      Object.setPrototypeOf(res, resProto);
      next(err);
    });
  };
  // The upgrade report walks into mounted apps through their handler.
  noteMountedApp(mounted, child);
  appRouter(parent).use(path, mounted);
  child.emit('mount', parent);
}

/**
 * Inside a mounted app, req and res must behave as the child app's: as in
 * Express, that is done by switching their prototypes on the way in and
 * back on the way out. But V8 makes each switch cost as much as the rest of
 * the request several times over (a request through a sub-app measured 5x
 * slower). When the child's prototypes add nothing but their `app` to the
 * ones req and res already have (nobody gave `sub.request` members of its
 * own), shadowing `app` gives the same behaviour.
 */
function inheritsAsIs(child: App, req: Req, res: Res): boolean {
  // A child whose handle() was replaced (wrapped by instrumentation, say) gets
  // its requests through it, as Express's mounted apps do.
  if (child.handle !== applicationMembers.handle) return false;
  // An HTTP/2 request has the HTTP/2 prototypes: the child's are compared.
  const protos = req.httpVersionMajor === 2 && http2().isHttp2Request(req) ? http2().http2Prototypes(child, req as unknown as Http2ServerRequest) : child;
  return addsOnlyApp(protos.request, req) && addsOnlyApp(protos.response, res);
}

/** Is every prototype from `proto` up to the instance's own one an app's bare `app` holder? */
function addsOnlyApp(proto: object, instance: object): boolean {
  const target = Object.getPrototypeOf(instance) as object;
  for (let p: object | null = proto; p !== target; p = Object.getPrototypeOf(p) as object | null) {
    if (p === null || !onlyApp(p)) return false;
  }
  return true;
}

/** Does a per-app prototype hold nothing but what createApplication put there? */
function onlyApp(proto: object): boolean {
  const keys = Reflect.ownKeys(proto);
  return keys.length === 2 && keys.includes('app') && keys.includes('constructor');
}

const kAdopted = Symbol('trestle.adopted');

/**
 * `http.createServer(app)`: on the server's first request, if this app is
 * its only request listener, give the server the app's request and response
 * classes, as app.listen() does. Swapping prototypes on every request is
 * what makes Express slow (a 4-5x cost measured here), and supertest and
 * most deployments create their server this way.
 */
function adoptServer(app: App, req: Req): void {
  const server = (req.socket as { server?: http.Server & { [kAdopted]?: boolean } } | null)?.server;
  if (server === undefined || server[kAdopted]) return;
  server[kAdopted] = true;
  watchServer(server, app, req.socket);
  const listeners = server.listeners('request');
  if (listeners.length !== 1 || listeners[0] !== app) return;
  replaceServerClasses(server, http, serverClasses(app));
}

/**
 * Request and response classes whose prototypes already are the app's, so
 * requests to a server made by `app.listen()` need no prototype swap.
 */
/** An HTTP server for `app` whose requests and responses are made of the app's classes. */
export function createAppServer(app: App): http.Server {
  // Production limits (lifecycle/limits.ts); the `server limits` setting changes them, `false` keeps node's.
  const limits = serverLimits(app.settings['server limits']);
  const classes = serverClasses(app);
  const options = limits.maxHeaderSize === undefined ? classes : { ...classes, maxHeaderSize: limits.maxHeaderSize };
  const server = applyServerLimits(http.createServer(options, app as unknown as http.RequestListener), limits);
  watchServer(server, app);
  // Its 'upgrade' event, when the app has `ws` routes (websocket/upgrade.ts).
  attachOnListen(server, app as never);
  return server;
}

function serverClasses(app: App): http.ServerOptions {
  return app._classes as http.ServerOptions;
}
