// Application and factory members of the generation before v4 (Express 3):
// the route table (`app.router` placed in the middleware chain, `app.routes`),
// `app.configure`, and the middleware the factory bundled (`bodyParser`, `logger`).
import logger from 'logline-http';
import { type App, applicationMembers } from '../../app/application';
import { flatten, methods } from '../../router/methods';
import { expressFourAppMembers, expressFourRouterMembers } from '../v4/application';
import { bodyParser } from './body-parser';
import { bundledFactory } from './bundled';
import { staticV3 } from './files';
import { query } from '../v4/query';
import { createRouteTable, type RouteTable } from './routes';
import { createError } from '../../errors';

function descriptors(source: object): PropertyDescriptorMap {
  return Object.getOwnPropertyDescriptors(source);
}

interface LegacyApp extends App {
  _routeTable?: RouteTable;
  _usedRouter?: boolean;
  [verb: string]: unknown;
}

function table(app: LegacyApp): RouteTable {
  app._routeTable ??= createRouteTable({
    profile: app._framework.profile.router,
    matchOptions: () => ({ sensitive: app.enabled('case sensitive routing'), strict: app.enabled('strict routing') }),
  });
  return app._routeTable;
}

/** What Express 3 throws for `app.get(path, notAFunction)`, and trestle/legacy for routes too. */
export function express3HandlerError(method: string, fn: unknown): Error {
  return createError(Error, 'TRESTLE_ERR_ROUTE_HANDLER', `.${method}() requires callback functions but got a ${Object.prototype.toString.call(fn)}`);
}

/** `app.get(path, ...)` and friends add to the table, mounting it on first use. */
function legacyVerb(method: string) {
  return function (this: LegacyApp, path: unknown, ...callbacks: unknown[]): unknown {
    if (method === 'get' && callbacks.length === 0) return this.set(path as string);
    const fns = flatten<unknown>(callbacks);
    for (const fn of fns) {
      if (typeof fn !== 'function') throw express3HandlerError(method, fn);
    }
    if (!this._usedRouter) (this as unknown as { use(fn: unknown): void }).use(table(this));
    table(this).route(method, path, fns as Array<(...args: never[]) => unknown>);
    return this;
  };
}

const legacyAppMembers: Record<string, unknown> = {
  /** The route table; `app.use(app.router)` decides where routes run. */
  get router(): RouteTable {
    return table(this as unknown as LegacyApp);
  },

  /** Every route by lower-case verb; remove a record to remove the route. */
  get routes(): RouteTable['map'] {
    return table(this as unknown as LegacyApp).map;
  },

  use(this: LegacyApp, ...args: unknown[]): LegacyApp {
    if (this._routeTable !== undefined && args.includes(this._routeTable)) this._usedRouter = true;
    return applicationMembers.use.apply(this, args) as LegacyApp;
  },

  /** Calls `fn` when `env` matches (or no env is named): an if statement, kept for old apps. */
  configure(this: LegacyApp, ...args: unknown[]): LegacyApp {
    const fn = args.pop();
    if (typeof fn !== 'function') throw createError(TypeError, 'TRESTLE_ERR_INVALID_ARG_TYPE', 'app.configure() requires a callback function');
    if (args.length === 0 || args.includes(this.settings.env)) (fn as (this: LegacyApp) => void).call(this);
    return this;
  },

  param(this: LegacyApp, name: unknown, fn?: unknown): LegacyApp {
    table(this).param(name, fn);
    return this;
  },

  all(this: LegacyApp, path: unknown, ...callbacks: unknown[]): LegacyApp {
    for (const method of methods) (this[method] as (...a: unknown[]) => unknown).call(this, path, ...callbacks);
    return this;
  },
};
for (const method of methods) legacyAppMembers[method] = legacyVerb(method);
legacyAppMembers.del = legacyAppMembers.delete;

export const legacyApplication: PropertyDescriptorMap = { ...expressFourAppMembers, ...expressFourRouterMembers, ...descriptors(legacyAppMembers) };

/**
 * The middleware an Express 3 app takes from the framework: the body parser,
 * the logger, `query()`, `static` (send 0.19), and the rest of what Connect 2
 * bundled, each served by the package that replaced it (`bundled.ts`).
 */
export const legacyFactory: PropertyDescriptorMap = {
  ...descriptors({ bodyParser, logger, query }),
  static: staticV3(),
  ...bundledFactory,
};
