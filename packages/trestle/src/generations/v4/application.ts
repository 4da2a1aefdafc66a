// Application members of the generations before v5 that the core does not
// have: legacy's route table (`app.router` placed in the middleware chain,
// `app.routes`, `app.configure`) and v4's deprecated `app.del`.
import depd from 'depd';
import { type App, applicationMembers } from '../../app/application';
import { createRouteTable, type RouteTable } from '../legacy/routes';
import logger from 'logline';
import { bodyParser } from '../legacy/body-parser';
import { flatten, methods } from '../../router/methods';

// depd finds the user's call site from the module that created it: one per module.
const deprecate = depd('trestle');

interface LegacyApp extends App {
  _routeTable?: RouteTable;
  _usedRouter?: boolean;
  [verb: string]: unknown;
}

function descriptors(source: object): PropertyDescriptorMap {
  return Object.getOwnPropertyDescriptors(source);
}

function table(app: LegacyApp): RouteTable {
  app._routeTable ??= createRouteTable({
    profile: app._framework.profile,
    matchOptions: () => ({ sensitive: app.enabled('case sensitive routing'), strict: app.enabled('strict routing') }),
  });
  return app._routeTable;
}

/** `app.get(path, ...)` and friends add to the table, mounting it on first use. */
function legacyVerb(method: string) {
  return function (this: LegacyApp, path: unknown, ...callbacks: unknown[]): unknown {
    if (method === 'get' && callbacks.length === 0) return this.set(path as string);
    const fns = flatten<unknown>(callbacks);
    for (const fn of fns) {
      if (typeof fn !== 'function') throw new TypeError(`app.${method}() requires callback functions but got a ${typeof fn}`);
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
    if (typeof fn !== 'function') throw new TypeError('app.configure() requires a callback function');
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

export const legacyApplication: PropertyDescriptorMap = descriptors(legacyAppMembers);

export const v4Application: PropertyDescriptorMap = descriptors({
  /** Express 4 removed `app.router`; asking for it explains the change. */
  get router(): never {
    throw new Error("'app.router' is deprecated!\nPlease see the 3.x to 4.x migration guide for details on how to update your app.");
  },
  del: deprecate.function((applicationMembers as Record<string, unknown>).delete as (...args: unknown[]) => unknown, 'app.del: Use app.delete instead'),
});

/** Middleware Express 4 stopped bundling: asking for one says where it went. */
const unbundled = ['bodyParser', 'compress', 'cookieSession', 'session', 'logger', 'cookieParser', 'favicon', 'responseTime', 'errorHandler', 'timeout', 'methodOverride', 'vhost', 'csrf', 'directory', 'limit', 'multipart', 'staticCache'];

export const v4Members: PropertyDescriptorMap = Object.fromEntries(
  unbundled.map((name) => [
    name,
    {
      configurable: true,
      enumerable: true,
      get(): never {
        throw new Error(`Most middleware (like ${name}) is no longer bundled with Express and must be installed separately. Please see https://github.com/senchalabs/connect#middleware.`);
      },
    },
  ]),
);

/** The middleware an Express 3 app takes from the framework: the body parser and the logger. */
export const legacyMembers: PropertyDescriptorMap = descriptors({ bodyParser, logger });
