/// <reference path="../types/vendor-cookie.d.ts" />
// res.cookie and res.clearCookie. Serialising (and refusing names or values
// that would break the header) is the `cookie` package's job; signing is
// `cookie-signature`'s, with the secret cookie-parser leaves in `req.secret`.
import type { CookieSerializeOptions } from 'cookie';
import type { ResponseState } from './state';
import type { CookieOptions } from '../types';
import { createError } from '../errors';
import { lazy } from '../lazy';

// Loaded with the first cookie set (cookie-signature with the first signed one).
const cookie = lazy(() => require('cookie') as typeof import('cookie'));
const signature = lazy(() => require('cookie-signature') as typeof import('cookie-signature'));

/** The moment every browser reads as "already expired". */
const EPOCH = new Date(1);

export const cookieMembers = {
  /**
   * Adds a Set-Cookie header. Objects are sent as `j:` + JSON, signed values
   * as `s:` + value + signature. `maxAge` is in milliseconds and gives both
   * Max-Age (seconds) and Expires; `path` defaults to `/`.
   */
  cookie(this: ResponseState, name: string, value: unknown, options?: CookieOptions): ResponseState {
    const opts: CookieOptions & { maxAge?: number } = { ...options };
    let val = typeof value === 'object' ? `j:${JSON.stringify(value)}` : String(value);
    if (opts.signed) {
      const secret = this.req.secret;
      if (!secret) throw createError(Error, 'TRESTLE_ERR_COOKIE_SECRET_REQUIRED', 'cookieParser("secret") required for signed cookies');
      val = `s:${signature().sign(val, secret)}`;
    }
    if (opts.maxAge != null) {
      const maxAge = Number(opts.maxAge);
      if (!Number.isNaN(maxAge)) {
        opts.expires = new Date(Date.now() + maxAge);
        opts.maxAge = Math.floor(maxAge / 1000);
      }
    }
    if (opts.path == null) opts.path = '/';
    return this.append('Set-Cookie', cookie().serialize(name, val, opts as CookieSerializeOptions));
  },

  /** Expires the cookie in the browser; `path` and `domain` must match the ones it was set with. */
  clearCookie(this: ResponseState, name: string, options?: CookieOptions): ResponseState {
    // maxAge would override the expiry date, so it is dropped.
    const opts: CookieOptions = { path: '/', ...options, expires: EPOCH };
    delete opts.maxAge;
    return this.cookie(name, '', opts);
  },
};
