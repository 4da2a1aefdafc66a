// The platform as the core sees it (app/platform-seam.ts): what Cloudflare
// Workers refuses, and `app.fetch()`, whose module loads on its first call
// (apps served over a socket never load it). Installed by each entry.
import { installPlatform as install } from '../app/platform-seam';
import { lazy } from '../lazy';
import { refuseOnWorkers } from './platform';

const fetchModule = lazy(() => require('./fetch') as typeof import('./fetch'));

function fetchApp(app: object, request: Request, options?: unknown, context?: unknown): Promise<Response> {
  return fetchModule().fetchApp(app as never, request, options as never, context);
}

/** Installs this runtime's platform into the core. */
export function installPlatform(): void {
  install({ refuse: refuseOnWorkers, fetch: fetchApp });
}
