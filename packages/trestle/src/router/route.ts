// A route: one path, a stack of handlers each tied to a method (or to all).
import { type AnyHandler, Layer, layerClass, type LayerShape } from './layer';
import { flatten, methodKey, methods } from './methods';
import { createError } from '../errors';
import type { PathOptions } from './path/compiled';
import { routingMethod } from '../websocket/marker';

type Next = (err?: unknown) => void;
const ROUTE_LAYER_PATH: PathOptions = { end: true, strict: false, sensitive: false };
interface RoutedRequest {
  method?: string | undefined;
  route?: unknown;
}

/** What a route's layers and misuse look like in its generation. */
export interface RouteShape extends LayerShape {
  /** Gives a layer the fields of the generation's layers. */
  exposeLayer(layer: Layer, path: unknown, options: PathOptions): void;
  /** What `route.get(notAFunction)` (and `app.get(path, notAFunction)`) throws, in the generation's words. */
  routeHandlerError(method: string, fn: unknown): Error;
  /** Members of this generation's routes beyond the core's (Express 4's names for its method checks). */
  routeMembers?: PropertyDescriptorMap;
}

/** What a route takes from its generation (a router profile has it). */
export interface RouteProfile {
  shape: RouteShape;
  /** May a route method be given no handler? Express 4 accepts it; the route never answers. */
  handlerOptional?: boolean | undefined;
}

export class Route {
  path: unknown;
  stack: Layer[] = [];
  /** `{ get: true, ... }` for every method that has a handler; `_all` for `all()`. */
  methods: Record<string, boolean> = Object.create(null) as Record<string, boolean>;
  /** The generation, on the prototype of its route class (see routeClass); only those classes are made public. */
  declare _profile: RouteProfile;

  constructor(path: unknown) {
    this.path = path;
  }

  /** A layer for one of the route's handlers; as in Express, made for the path `/`. */
  private layer(fn: AnyHandler, method: string | undefined): Layer {
    const layer = new (layerClass(this._profile.shape))([], fn);
    layer.method = method;
    this._profile.shape.exposeLayer(layer, '/', ROUTE_LAYER_PATH);
    return layer;
  }

  /** Does this route answer `method`? A GET route also answers HEAD. */
  _handlesMethod(method: string | undefined): boolean {
    if (this.methods._all) return true;
    let name = methodKey(method);
    if (name === 'head' && !this.methods.head) name = 'get';
    return name !== undefined && Boolean(this.methods[name]);
  }

  /** The methods this route answers, upper-cased, HEAD implied by GET. */
  _methods(): string[] {
    return methodList(this.methods, false);
  }

  dispatch(req: RoutedRequest, res: unknown, done: Next): void {
    const stack = this.stack;
    if (stack.length === 0) {
      done();
      return;
    }
    let method = methodKey(routingMethod(req));
    if (method === 'head' && !this.methods.head) method = 'get';
    req.route = this;
    if (stack.length === 1) {
      // Most routes have one handler. Its next() may go straight to the
      // router's: 'route', 'router' and errors all end this route the same way.
      const only = stack[0]!;
      if (only.method === undefined || only.method === method) only.handleRequest(req, res, done);
      else done();
      return;
    }
    let idx = 0;
    let sync = 0;

    const next = (err?: unknown): void => {
      if (err === 'route') return done();
      if (err === 'router') return done(err);
      // A long run of synchronous handlers must not grow the call stack without end.
      if (++sync > 100) {
        setImmediate(next, err);
        return;
      }
      let layer: Layer | undefined;
      while (idx < stack.length) {
        const candidate = stack[idx++]!;
        if (candidate.method === undefined || candidate.method === method) {
          layer = candidate;
          break;
        }
      }
      if (layer === undefined) return done(err);
      if (err) layer.handleError(err, req, res, next);
      else layer.handleRequest(req, res, next);
      sync = 0;
    };
    next();
  }

  all(...handlers: unknown[]): this {
    for (const fn of this.handlers(handlers, 'all')) {
      this.stack.push(this.layer(fn, undefined));
      this.methods._all = true;
    }
    return this;
  }

  private handlers(args: unknown[], method: string): AnyHandler[] {
    const list = flatten<unknown>(args);
    const profile = this._profile;
    if (list.length === 0 && !profile.handlerOptional) throw createError(TypeError, 'TRESTLE_ERR_MISSING_ARG', 'argument handler is required');
    for (const fn of list) {
      if (typeof fn !== 'function') throw profile.shape.routeHandlerError(method, fn);
    }
    return list as AnyHandler[];
  }

  /** Adds handlers for one method; `route.get`, `route.post`, ... call it. */
  addMethod(method: string, args: unknown[]): this {
    for (const fn of this.handlers(args, method)) {
      this.methods[method] = true;
      this.stack.push(this.layer(fn, method));
    }
    return this;
  }
}

for (const method of methods) {
  Object.defineProperty(Route.prototype, method, {
    configurable: true,
    writable: true,
    value: function (this: Route, ...handlers: unknown[]) {
      return this.addMethod(method, handlers);
    },
  });
}

/**
 * A route's methods upper-cased, HEAD added when GET has a handler and HEAD
 * none; with `withAll`, `all()` listed as `_ALL` (Express 4's `_options`).
 */
export function methodList(methods: Record<string, boolean>, withAll: boolean): string[] {
  // `ws` routes answer upgrades, not a method a client can be told to use.
  const list = Object.keys(methods).filter((m) => (withAll || m !== '_all') && m !== 'ws');
  if (methods.get && !methods.head) list.push('head');
  return list.map((m) => m.toUpperCase());
}

const classes = new WeakMap<RouteProfile, typeof Route>();

/**
 * The route class of a generation: its factory's `Route` (and v5's
 * `Router.Route`), and what its routers' `route()` makes. Each generation has
 * its own, as each Express has, so a method patched on one `Route.prototype`
 * stays in that generation, and a route made with `new Route(path)` speaks
 * its generation's words.
 */
export function routeClass(profile: RouteProfile): typeof Route {
  let cls = classes.get(profile);
  if (cls === undefined) {
    // Named `Route` as Express's is: tools read `route.constructor.name`.
    cls = { Route: class extends Route {} }.Route;
    Object.defineProperty(cls.prototype, '_profile', { value: profile });
    if (profile.shape.routeMembers !== undefined) Object.defineProperties(cls.prototype, profile.shape.routeMembers);
    classes.set(profile, cls);
  }
  return cls;
}
