// The response of the generation before v4: the old forms v4 also accepts
// (warning only where Express 3 did), Express 3's reading of a relative redirect (and
// its Location, not percent-encoded), its redirect page, and Content-Type as
// res.type()/res.set() left it (no charset added: send() adds one to the
// strings it sends).
import { type App, freeFunctionNames } from '../../app/application';
import { getPathname } from '../../router/url';
import { headerMembers } from '../../response/headers';
import { makeRedirect } from '../../response/redirect';
import type { ResponseState } from '../../response/members';
import { mimeTypeV4 } from '../v4/files';
import { downloadV3, sendfileV3 } from './files';
import { oldResponseForms } from '../v4/response';
import depd from 'depd';

// depd finds the user's call site from the module that created it.
const deprecate = depd('trestle');

type Method = (this: ResponseState, ...args: unknown[]) => unknown;

/** The old forms as Express 4 reads them, silent: what Express 3 warned about is added below. */
const forms = oldResponseForms(false);

type HeaderValue = string | number | readonly string[];

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

/** Location as Express 3 set it: resolved, not percent-encoded. */
function location(this: ResponseState, url: string): ResponseState {
  this.setHeader('Location', resolveLocation(this, url));
  return this;
}

const redirectPage = makeRedirect((message, href) => `<p>${message}. Redirecting to <a href="${href}">${href}</a></p>`, 'UTF-8', encodeURI);

/** `redirect([status,] url)`, or `redirect(url, status)`, the order Express 3 also took, with its warning. */
function redirect(this: ResponseState, ...args: unknown[]): void {
  if (args.length === 2 && typeof args[0] !== 'number') {
    deprecate('res.redirect(url, status): Use res.redirect(status, url) instead');
    return redirectPage.call(this, args[1], args[0]);
  }
  return redirectPage.call(this, args[0], ...args.slice(1));
}

/**
 * `res.json(obj, status)` and `res.jsonp(obj, status)` warn, worded as
 * Express 3.21 worded them: the "(obj, status)" text for a number body, the
 * "(num, status)" one for any other (its two messages were swapped).
 */
function warnsValueFirst(name: 'json' | 'jsonp'): PropertyDescriptor {
  const form = forms[name]!.value as Method;
  const named = {
    [name](this: ResponseState, ...args: unknown[]) {
      if (args.length === 2 && typeof args[1] === 'number') {
        deprecate(typeof args[0] === 'number'
          ? `res.${name}(obj, status): Use res.${name}(status, obj) instead`
          : `res.${name}(num, status): Use res.status(status).${name}(num) instead`);
      }
      return form.apply(this, args);
    },
  };
  return method(named[name]!);
}

/** `res.type('json')` is `application/json`, with no charset, as the `mime` 1.x lookup of Express 3 gave it. */
function type(this: ResponseState, value: string): ResponseState {
  this.setHeader('Content-Type', mimeTypeV4(value));
  return this;
}

/** `set()` as Express 3 had it: values as strings, Content-Type as given. */
function set(this: ResponseState, field: string | Record<string, HeaderValue>, value?: HeaderValue): ResponseState {
  if (typeof field !== 'string') {
    for (const key of Object.keys(field)) set.call(this, key, field[key]);
    return this;
  }
  if (field.toLowerCase() !== 'content-type') return headerMembers.set.call(this, field, value as string);
  this.setHeader(field, Array.isArray(value) ? value.map(String) : String(value));
  return this;
}

/** `res.locals` as Express 3 made it: a function that merges the object it is given (and returns that object). */
const locals: PropertyDescriptor = {
  configurable: true,
  enumerable: true,
  get(this: ResponseState): Record<string, unknown> {
    const fn = function locals(obj: Record<string, unknown>) {
      for (const key in obj) fn[key] = obj[key];
      return obj;
    } as unknown as Record<string, unknown>;
    freeFunctionNames(fn);
    Object.defineProperty(this, 'locals', { value: fn, writable: true, enumerable: true, configurable: true });
    return fn;
  },
  set(this: ResponseState, value: unknown) {
    Object.defineProperty(this, 'locals', { value, writable: true, enumerable: true, configurable: true });
  },
};

function method(fn: (this: ResponseState, ...args: never[]) => unknown): PropertyDescriptor {
  return { configurable: true, enumerable: true, writable: true, value: fn };
}

export const legacyResponse: PropertyDescriptorMap = {
  ...forms,
  json: warnsValueFirst('json'),
  jsonp: warnsValueFirst('jsonp'),
  location: method(location),
  redirect: method(redirect),
  type: method(type),
  contentType: method(type),
  set: method(set),
  header: method(set),
  locals,
  sendfile: method(sendfileV3),
  download: method(downloadV3),
};
