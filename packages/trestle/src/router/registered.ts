// What a `use()` layer was registered with. Express's layers keep only the
// compiled form (a regexp or matchers), yet tracing names a mount by its
// path and the upgrade report recompiles it with the other generation's
// syntax. Written once when the layer (or a mounted app's handler) is made,
// never read on a request unless tracing listens.

const paths = new WeakMap<object, unknown>();
const apps = new WeakMap<object, object>();

/** Remembers the path (string, RegExp or array) `use()` made `layer` for. */
export function noteLayerPath(layer: object, path: unknown): void {
  paths.set(layer, path);
}

/** The path `use()` made `layer` for; undefined for route layers and layers made otherwise. */
export function registeredPath(layer: object): unknown {
  return paths.get(layer);
}

/** Remembers that `handle` is the middleware that runs the mounted app `app`. */
export function noteMountedApp(handle: object, app: object): void {
  apps.set(handle, app);
}

/** The app a mount's middleware runs, if it is one. */
export function mountedApp(handle: unknown): object | undefined {
  return typeof handle === 'function' ? apps.get(handle) : undefined;
}
