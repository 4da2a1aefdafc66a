// Application and factory members of Express 4 that the core does not have:
// `app.router` that explains its removal, the deprecated `app.del`, the
// factory's `query()` and `static` as Express 4 exported them, and its
// getters for the middleware Express 4 stopped bundling.
import { refuseOnPlatform } from '../../app/platform-seam';
import depd from 'depd';
import type { Server } from 'node:http';
import { type App, applicationMembers, appRouter, createAppServer, kAppRouter } from '../../app/application';
import { createError } from '../../errors';
import type { RouterInstance } from '../../router/router';
import { staticV4 } from './files';
import { query } from './query';

// depd finds the user's call site from the module that created it: one per module.
const deprecate = depd('trestle');

/**
 * Express 4's names for the app router: `app._router`, the router once the
 * app routes or handles something (tools test it to tell Express 4 from 5),
 * and `app.lazyrouter()`, which creates it. Shared with the legacy generation,
 * whose apps have `_router` from the start (an accessor to the core's slot);
 * a v4 app keeps its router in `_router` itself (see v4RouterSlot).
 */
export const expressFourRouterMembers: PropertyDescriptorMap = Object.getOwnPropertyDescriptors({
  get _router(): RouterInstance | undefined {
    return (this as unknown as App)[kAppRouter];
  },
  set _router(router: RouterInstance | undefined) {
    (this as unknown as App)[kAppRouter] = router;
  },
  // Express 4's returns nothing: callers read `app._router` after.
  lazyrouter(this: App): void {
    appRouter(this);
  },
});

/**
 * Express 4 assigns a plain `app._router` when it first needs a router, so
 * until then the property is absent (`'_router' in app` is false, as tools
 * check). Apps and tools then replace it, null it to start over
 * (`app._router = null`, as hot reloaders do) or delete it, and Express 4
 * makes a new router at the next route. So in v4 that property is the app
 * router's only home: the core's slot reads and writes it.
 */
const v4RouterSlot: PropertyDescriptorMap = Object.getOwnPropertyDescriptors({
  get [kAppRouter](): RouterInstance | undefined {
    return (this as { _router?: RouterInstance | null })._router ?? undefined;
  },
  set [kAppRouter](router: RouterInstance | undefined) {
    Object.defineProperty(this, '_router', { value: router, writable: true, enumerable: true, configurable: true });
  },
});

/**
 * What Express 4 and 3 share against the core (Express 5): `listen` is the
 * server's own (the callback runs once listening; a listen error is only
 * the server's `error` event), and `app.engines`, `app.cache` (the
 * compiled views) and `app.settings` are ordinary objects.
 */
export const expressFourAppMembers: PropertyDescriptorMap = Object.getOwnPropertyDescriptors({
  listen(this: App, ...args: unknown[]): Server {
    refuseOnPlatform('app.listen()', 'listen');
    return createAppServer(this).listen(...(args as Parameters<Server['listen']>));
  },
  init(this: App): void {
    (applicationMembers as { init(this: App): void }).init.call(this);
    this.engines = {};
    this.cache = {};
    Object.setPrototypeOf(this.settings, Object.prototype);
  },
});

export const v4Application: PropertyDescriptorMap = {
  ...expressFourAppMembers,
  ...v4RouterSlot,
  lazyrouter: expressFourRouterMembers.lazyrouter!,
  ...Object.getOwnPropertyDescriptors({
    /** Express 4 removed `app.router`; asking for it explains the change. */
    get router(): never {
      throw createError(Error, 'TRESTLE_ERR_REMOVED_IN_V4', "'app.router' is deprecated!\nPlease see the 3.x to 4.x migration guide for details on how to update your app.");
    },
    del: deprecate.function((applicationMembers as Record<string, unknown>).delete as (...args: unknown[]) => unknown, 'app.del: Use app.delete instead'),
  }),
};

/** Middleware Express 4 stopped bundling: asking for one says where it went. */
const unbundled = ['bodyParser', 'compress', 'cookieSession', 'session', 'logger', 'cookieParser', 'favicon', 'responseTime', 'errorHandler', 'timeout', 'methodOverride', 'vhost', 'csrf', 'directory', 'limit', 'multipart', 'staticCache'];

const removed: PropertyDescriptorMap = Object.fromEntries(
  unbundled.map((name) => [
    name,
    {
      configurable: true,
      enumerable: true,
      get(): never {
        throw createError(Error, 'TRESTLE_ERR_REMOVED_IN_V4', `Most middleware (like ${name}) is no longer bundled with Express and must be installed separately. Please see https://github.com/senchalabs/connect#middleware.`);
      },
    },
  ]),
);

/** The factory's members in Express 4: `query()`, `static` (serve-static 1.x: send 0.19, `static.mime`), and the removed middleware. */
export const v4Factory: PropertyDescriptorMap = {
  ...removed,
  query: { configurable: true, enumerable: true, writable: true, value: query },
  static: staticV4(),
};

