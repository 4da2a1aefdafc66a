// The lifecycle's members of every app (all generations): its shutdown, its
// shutdown hooks, and whether a shutdown has begun (for readiness checks).
import { createError } from '../errors';
import { appLifecycle, kAppLifecycle, type LifecycleApp } from './servers';
import { shutdown, type ShutdownOptions, type ShutdownReport } from './shutdown';

type Mountable = LifecycleApp & { parent?: Mountable };

export const lifecycleMembers = {
  /** True from the moment a shutdown of this app, of an app it is mounted on, or of a server it serves begins. */
  get shuttingDown(): boolean {
    for (let app: Mountable | undefined = this as Mountable; app !== undefined; app = app.parent) {
      if (app[kAppLifecycle]?.shuttingDown === true) return true;
    }
    return false;
  },

  /** Registers `fn` to run (and be awaited) after the app's servers have closed, in registration order. */
  onShutdown(this: LifecycleApp, fn: () => unknown): LifecycleApp {
    if (typeof fn !== 'function') throw createError(TypeError, 'TRESTLE_ERR_INVALID_ARG_TYPE', 'app.onShutdown() requires a function');
    appLifecycle(this).hooks.push(fn);
    return this;
  },

  /** Shuts down every server of the app gracefully (see `trestle.shutdown`). */
  shutdown(this: LifecycleApp, options?: ShutdownOptions): Promise<ShutdownReport> {
    return shutdown(this, options);
  },
};
