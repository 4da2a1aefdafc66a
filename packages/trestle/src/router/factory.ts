// `trestle.Router` as each Express generation shapes it. Tools reach below
// the API: tracing wraps the methods every router inherits, route listers
// extend them. In Express 5 (router 2) `Router` is a constructor and routers
// inherit `Router.prototype`; in Express 4 `Router` is itself the prototype
// of every router. Either way, a router's methods, and the app's routing
// (which goes through them), are the ones found there at call time.
import type { Layer } from './layer';
import { methods } from './methods';
import { param, type ParamCalled, runParams } from './params';
import { type Route, routeClass } from './route';
import { ws } from '../websocket/methods';
import { createRouter, handle, route, type RouterInstance, type RouterOptions, type RouterProfile, type RoutingRequest, use } from './router';

type Next = (err?: unknown) => void;

/** `trestle.Router`: callable with or without `new`. */
export interface RouterFactory {
  (options?: RouterOptions): RouterInstance;
  prototype: object;
  /** v5: the route class (`req.route instanceof Router.Route`). */
  Route?: typeof Route;
}

/** The methods every router has, whichever object carries them. */
function addMethods(target: Record<string, unknown>, profile: RouterProfile): void {
  Object.defineProperty(target, 'profile', { value: profile, enumerable: false });
  Object.assign(target, { param, handle, use, route, ws });
  target.all = function all(this: RouterInstance, path: unknown, ...handlers: unknown[]) {
    this.route(path).all(...handlers);
    return this;
  };
  for (const method of methods) {
    target[method] = function (this: RouterInstance, path: unknown, ...handlers: unknown[]) {
      (this.route(path) as unknown as Record<string, (...h: unknown[]) => unknown>)[method]!(...handlers);
      return this;
    };
  }
}

/**
 * Express 4's `router.process_params(layer, called, req, res, done)`: runs
 * the param triggers of the keys `layer` matched.
 */
function process_params(this: RouterInstance, layer: Layer, called: Record<string, ParamCalled>, req: RoutingRequest, res: unknown, done: Next): void {
  if (layer.keys.length === 0) {
    done();
    return;
  }
  runParams(this.params, layer.keys, called, req, res, done);
}

/** `trestle.Router` of a generation, and the prototype every router (the app's too) inherits. */
export function routerFactory(profile: RouterProfile): { Router: RouterFactory; proto: object } {
  if (profile.shape.factory === 'prototype') {
    const Router = function Router(options?: RouterOptions): RouterInstance {
      return createRouter(Router, options);
    } as RouterFactory;
    addMethods(Router as unknown as Record<string, unknown>, profile);
    (Router as unknown as Record<string, unknown>).process_params = process_params;
    return { Router, proto: Router };
  }
  // As in router 2, the prototype is itself a function, so routers stay callable objects of it.
  const proto = Object.create(Function.prototype) as Record<string, unknown>;
  addMethods(proto, profile);
  const Router = function Router(options?: RouterOptions): RouterInstance {
    return createRouter(proto, options);
  } as RouterFactory;
  Router.prototype = proto;
  Router.Route = routeClass(profile);
  return { Router, proto };
}
