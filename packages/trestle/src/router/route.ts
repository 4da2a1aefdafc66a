// A route: one path, a stack of handlers each tied to a method (or to all).
import { type AnyHandler, Layer } from './layer';
import { flatten, methodKey, methods } from './methods';
import { createError } from '../errors';
import type { PathOptions } from './path/compiled';

type Next = (err?: unknown) => void;
const ROUTE_LAYER_PATH: PathOptions = { end: true, strict: false, sensitive: false };
interface RoutedRequest {
  method?: string | undefined;
  route?: unknown;
}

/** Marks a route whose methods may be given no handler (Express 4: such a route never answers). */
export const kHandlerOptional = Symbol('handlerOptional');

export class Route {
  path: unknown;
  stack: Layer[] = [];
  /** `{ get: true, ... }` for every method that has a handler; `_all` for `all()`. */
  methods: Record<string, boolean> = Object.create(null) as Record<string, boolean>;
  /** Gives the route's layers the fields of its generation's layers (set by the router that made it). */
  declare _exposeLayer?: (layer: Layer, path: unknown, options: PathOptions) => void;

  constructor(path: unknown) {
    this.path = path;
  }

  /** A layer for one of the route's handlers; as in Express, made for the path `/`. */
  private layer(fn: AnyHandler, method: string | undefined): Layer {
    const layer = new Layer([], fn);
    layer.method = method;
    this._exposeLayer?.(layer, '/', ROUTE_LAYER_PATH);
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
    const list = Object.keys(this.methods).filter((m) => m !== '_all');
    if (this.methods.get && !this.methods.head) list.push('head');
    return list.map((m) => m.toUpperCase());
  }

  dispatch(req: RoutedRequest, res: unknown, done: Next): void {
    const stack = this.stack;
    if (stack.length === 0) {
      done();
      return;
    }
    let method = methodKey(req.method);
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
    if (list.length === 0 && !(this as { [kHandlerOptional]?: true })[kHandlerOptional]) throw createError(TypeError, 'TRESTLE_ERR_MISSING_ARG', 'argument handler is required');
    for (const fn of list) {
      if (typeof fn !== 'function') {
        throw createError(TypeError, 'TRESTLE_ERR_INVALID_ARG_TYPE', `argument handler must be a function; Route.${method}() got ${Object.prototype.toString.call(fn)}`);
      }
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
