// What the platform under the app cannot do. Only Cloudflare Workers refuses
// anything: a Worker has no disk to read files from and opens no server
// socket. The core asks (through app/platform-seam.ts, where install.ts puts
// this) before it reaches for either, so the app hears a clear error naming
// the platform instead of an ENOENT or a runtime's "not implemented" from
// deep inside node's modules.
import type { PlatformNeed } from '../app/platform-seam';
import { createError } from '../errors';

/** On Cloudflare Workers `navigator.userAgent` is this, as Cloudflare documents. */
export const onWorkers: boolean = (globalThis as { navigator?: { userAgent?: string } }).navigator?.userAgent === 'Cloudflare-Workers';

const WHY: Record<PlatformNeed, string> = {
  disk: 'a Worker has no disk to read files from (serve them as Workers static assets, or from R2 or KV)',
  listen: 'a Worker opens no server socket (export { fetch: app.fetch } as its handler)',
  views: "a Worker has no disk to find view files on (give app.set('view', ...) a class that takes templates bundled with the Worker)",
};

/** Throws TRESTLE_ERR_PLATFORM_UNSUPPORTED for `what` (`res.sendFile()`) on a platform that cannot do it. */
export function refuseOnWorkers(what: string, need: PlatformNeed): void {
  if (onWorkers) throw createError(Error, 'TRESTLE_ERR_PLATFORM_UNSUPPORTED', `${what} is not supported on Cloudflare Workers: ${WHY[need]}`);
}
