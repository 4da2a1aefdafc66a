// The seam between the core and the platform under it (node's server, a
// fetch runtime, Cloudflare Workers). The core asks here what the platform
// refuses and hands `app.fetch()` here; the platform module installs both
// (src/platforms/install.ts, called by each entry, as the entries install
// lifecycle/'s members), so the core imports nothing from platforms/.
import { createError } from '../errors';

/** What the core may need that a platform may not have: a disk, a server socket, view files. */
export type PlatformNeed = 'disk' | 'listen' | 'views';

/** What a platform installs. */
export interface Platform {
  /** Throws (TRESTLE_ERR_PLATFORM_UNSUPPORTED) when the platform cannot do `what` for want of `need`. */
  refuse(what: string, need: PlatformNeed): void;
  /** `app.fetch(request, options, context)`: the app's answer to a WHATWG Request. */
  fetch(app: object, request: Request, options?: unknown, context?: unknown): Promise<Response>;
}

let installed: Platform | undefined;

/** Installs the platform (the entries do, once; the last one installed answers). */
export function installPlatform(platform: Platform): void {
  installed = platform;
}

/** Throws when the platform cannot do `what` (`res.sendFile()`); nothing on node's server. */
export function refuseOnPlatform(what: string, need: PlatformNeed): void {
  installed?.refuse(what, need);
}

/** `app.fetch()` through the installed platform. */
export function fetchOnPlatform(app: object, request: Request, options?: unknown, context?: unknown): Promise<Response> {
  if (installed === undefined) {
    return Promise.reject(createError(Error, 'TRESTLE_ERR_PLATFORM_UNSUPPORTED', 'app.fetch() is not supported: no platform is installed (load trestle through its entry: trestle, trestle/v4 or trestle/legacy)'));
  }
  return installed.fetch(app, request, options, context);
}
