// The response of the generation before v4: the old forms v4 also accepts
// (without warnings here), and Express 3's reading of a relative redirect.
import type { App } from '../../app/application';
import { getPathname } from '../../router/url';
import { redirectMembers } from '../../response/redirect';
import type { ResponseState } from '../../response/members';
import { oldResponseForms } from '../v4/response';

const coreLocation = redirectMembers.location;

/**
 * Where a Location given relative points, as Express 3 saw it: `back` is the
 * Referrer (else `/`); `./x` and `../x` are taken from the request's path; a
 * bare `x` from the app's mount path (`login` in an app mounted on `/admin`
 * is `/admin/login`). Absolute and protocol-relative URLs stay as they are.
 */
function resolveLocation(res: ResponseState, url: string): string {
  const req = res.req as unknown as { get(name: string): string | undefined; originalUrl?: string; url?: string; app: App };
  const target = url === 'back' ? req.get('Referrer') || '/' : url;
  if (target.includes('://') || target.startsWith('//')) return target;
  if (target[0] === '.') {
    const path = getPathname(req.originalUrl ?? req.url ?? '/');
    const base = new URL(target, `http://host${path.endsWith('/') ? path : `${path}/`}`);
    return base.pathname + base.search + base.hash;
  }
  if (target[0] !== '/') return `${req.app.path()}/${target}`;
  return target;
}

function location(this: ResponseState, url: string): ResponseState {
  return coreLocation.call(this, resolveLocation(this, url));
}

export const legacyResponse: PropertyDescriptorMap = {
  ...oldResponseForms(false),
  location: { configurable: true, enumerable: true, writable: true, value: location },
};
