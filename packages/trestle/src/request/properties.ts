// The request prototype's own members. Each app's `app.request` inherits from
// the profile's request object, which inherits from these and from node's
// IncomingMessage, so everything node gives a request stays available.
import fresh from 'fresh';
import { negotiationMembers } from './negotiation';
import { proxyMembers } from './proxy';
import { getPathname, getSearch } from '../router/url';
import type { QueryParserFn } from '../app/settings';
import { createError } from '../errors';

/** What the members below read from the request. */
export interface RequestState {
  url: string;
  method?: string | undefined;
  headers: Record<string, string | string[] | undefined>;
  app: { settings: Record<string, unknown> };
  res?: { statusCode: number; getHeader(name: string): unknown } | undefined;
}

const kQuery = Symbol('trestle.query');
interface QueryCache {
  url: string;
  search: string;
  value: unknown;
}

/** Property descriptors shared by every profile's request object. */
export const requestMembers = {
  /** A request header; `Referer` and `Referrer` are interchangeable. */
  get(this: RequestState, name: string): string | string[] | undefined {
    if (!name) throw createError(TypeError, 'TRESTLE_ERR_MISSING_ARG', 'name argument is required to req.get');
    if (typeof name !== 'string') throw createError(TypeError, 'TRESTLE_ERR_INVALID_ARG_TYPE', 'name must be a string to req.get');
    const lc = name.toLowerCase();
    if (lc === 'referer' || lc === 'referrer') return this.headers.referrer ?? this.headers.referer;
    return this.headers[lc];
  },

  /**
   * Parsed on first read, per the `query parser` setting, then kept while
   * the query string stays the same (mounting rewrites only the path).
   * Assignable, so validation middleware can replace it.
   */
  get query(): unknown {
    const self = this as unknown as RequestState & { [kQuery]?: QueryCache };
    const parse = self.app.settings['query parser fn'] as QueryParserFn | undefined;
    if (parse === undefined) return {};
    const url = self.url;
    const cache = self[kQuery];
    if (cache !== undefined) {
      if (cache.url === url) return cache.value;
      const search = getSearch(url);
      if (search === cache.search) {
        cache.url = url;
        return cache.value;
      }
    }
    const search = getSearch(url);
    const value = parse(search);
    self[kQuery] = { url, search, value };
    return value;
  },
  set query(value: unknown) {
    Object.defineProperty(this, 'query', { value, writable: true, enumerable: true, configurable: true });
  },

  /** The path of the URL, without the mount point or the query string. */
  get path(): string {
    return getPathname((this as unknown as RequestState).url);
  },

  /** Is the client's cached copy still good? Only GET/HEAD with 2xx or 304. */
  get fresh(): boolean {
    const self = this as unknown as RequestState;
    const method = self.method;
    const res = self.res;
    if ((method !== 'GET' && method !== 'HEAD') || res === undefined) return false;
    const status = res.statusCode;
    if ((status >= 200 && status < 300) || status === 304) {
      return fresh(self.headers, {
        etag: res.getHeader('ETag') as string | undefined,
        'last-modified': res.getHeader('Last-Modified') as string | undefined,
      });
    }
    return false;
  },

  get stale(): boolean {
    return !(this as unknown as { fresh: boolean }).fresh;
  },

  /** `X-Requested-With: XMLHttpRequest`, compared without case. */
  get xhr(): boolean {
    const value = (this as unknown as RequestState).headers['x-requested-with'];
    return typeof value === 'string' && value.toLowerCase() === 'xmlhttprequest';
  },
};

Object.defineProperty(requestMembers, 'header', Object.getOwnPropertyDescriptor(requestMembers, 'get')!);
// Getters are copied as getters: spreading the objects would call them.
Object.defineProperties(requestMembers, Object.getOwnPropertyDescriptors(proxyMembers));
Object.defineProperties(requestMembers, Object.getOwnPropertyDescriptors(negotiationMembers));
