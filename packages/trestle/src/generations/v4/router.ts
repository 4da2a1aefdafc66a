// The router of Express 4 as tools see it: `Router` is the prototype of
// every router, each layer has its path-to-regexp 0.1 `regexp` (flagged
// `fast_slash` / `fast_star`), a route's layer is `bound dispatch`, and
// misuse is reported in Express 4's words.
import { createError } from '../../errors';
import { Layer } from '../../router/layer';
import { methodList, type Route } from '../../router/route';
import { makeV4Regexp } from '../../router/path/v4';
import type { RouterShape } from '../../router/router';

/** Express 4's name for a value's type in its messages: `number`, `Date`, `Array`... */
function typeName(value: unknown): string {
  const type = typeof value;
  if (type !== 'object') return type;
  return Object.prototype.toString.call(value).slice(8, -1);
}

type Next = (err?: unknown) => void;

/*
 * Express 4 starts every app router with these two layers: `query` parses
 * `req.query`, `expressInit` links req and res and sets `X-Powered-By`.
 * Trestle does that work before the router runs (and parses the query on
 * first read), so here they only pass the request on; they are there
 * because tools see them: tracing reports a span for each, route listers
 * and admin code skip or count them.
 */
function query(_req: unknown, _res: unknown, next: Next): void {
  next();
}
function expressInit(_req: unknown, _res: unknown, next: Next): void {
  next();
}

/**
 * Express 4's names for a route's method checks, which tools call:
 * `_handles_method` (Express 5's `_handlesMethod`) and `_options`, which
 * unlike Express 5's `_methods` lists `all()` as `_ALL`.
 */
const expressFourRouteMembers: PropertyDescriptorMap = Object.getOwnPropertyDescriptors({
  _handles_method(this: Route, method: string | undefined): boolean {
    return this._handlesMethod(method);
  },
  _options(this: Route): string[] {
    return methodList(this.methods, true);
  },
});
for (const member of Object.values(expressFourRouteMembers)) member.enumerable = false;

type Call3 = (req: unknown, res: unknown, next: Next) => void;
type Call4 = (err: unknown, req: unknown, res: unknown, next: Next) => void;
interface ExpressFourLayer extends Layer {
  handle_request: Call3;
  handle_error: Call4;
}

/**
 * Express 4's layer methods, `handle_request` and `handle_error`, which
 * tools patch on `express/lib/router/layer`'s prototype. The router calls
 * `handleRequest`/`handleError` (router 2's names); in v4 those go through
 * the Express 4 names, so a patched method is the one that runs.
 */
export const expressFourLayerMembers: PropertyDescriptorMap = Object.getOwnPropertyDescriptors({
  handle_request: Layer.prototype.handleRequest,
  handle_error: Layer.prototype.handleError,
  handleRequest(this: ExpressFourLayer, req: unknown, res: unknown, next: Next): void {
    this.handle_request(req, res, next);
  },
  handleError(this: ExpressFourLayer, err: unknown, req: unknown, res: unknown, next: Next): void {
    this.handle_error(err, req, res, next);
  },
});
for (const member of Object.values(expressFourLayerMembers)) member.enumerable = false;

/** The Express 4 shape; `separators` are what may follow a mount path (legacy adds `.`). */
export function v4RouterShape(separators: string, appLayers: RouterShape['appLayers']): RouterShape {
  const regexpOf = makeV4Regexp(separators);
  return {
    factory: 'prototype',
    boundDispatch: true,
    routeMembers: expressFourRouteMembers,
    appLayers,
    exposeLayer(layer: Layer, path: unknown, options): void {
      layer.regexp = regexpOf(path as string | RegExp | Array<string | RegExp>, options);
    },
    useError(fn, missing) {
      const message = missing ? 'Router.use() requires a middleware function' : `Router.use() requires a middleware function but got a ${typeName(fn)}`;
      return createError(TypeError, 'TRESTLE_ERR_ROUTER_HANDLER', message);
    },
    paramError(name, fn) {
      return createError(Error, 'TRESTLE_ERR_PARAM_HANDLER', `invalid param() call for ${name}, got ${String(fn)}`);
    },
    routeHandlerError(method, fn) {
      // Express 4 throws a TypeError from route.all() and a plain Error from the methods.
      const Ctor = method === 'all' ? TypeError : Error;
      return createError(Ctor, 'TRESTLE_ERR_ROUTE_HANDLER', `Route.${method}() requires a callback function but got a ${Object.prototype.toString.call(fn)}`);
    },
  };
}

/** Express 4's first two app router layers, for `trestle/v4`. */
export const expressFourAppLayers: RouterShape['appLayers'] = [query, expressInit];
