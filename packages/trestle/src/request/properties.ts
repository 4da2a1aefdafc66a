// The request prototype's own members. Each app's `app.request` inherits from
// the profile's request object, which inherits from these and from node's
// IncomingMessage, so everything node gives a request stays available.
import type { IncomingMessage } from 'node:http';
import fresh from 'fresh';
import type parseurlFn from 'parseurl';
import { negotiationMembers } from './negotiation';
import { proxyMembers } from './proxy';
import { getPathname, getSearch } from '../router/url';
import type { QueryParserFn } from '../app/settings';
import { createError } from '../errors';
import { lazy } from '../lazy';

/** What the members below read from the request. */
export interface RequestState {
  url: string;
  method?: string | undefined;
  headers: Record<string, string | string[] | undefined>;
  app: { settings: Record<string, unknown>; _framework?: { profile: { settings: { unsetQuery?: QueryParserFn } } } };
  res?: { statusCode: number; getHeader(name: string): unknown } | undefined;
}

const kQuery = Symbol('trestle.query');
interface QueryCache {
  url: string;
  search: string | null;
  value: unknown;
}

const kParsedUrl = Symbol('trestle.parsedUrl');
const kParsedOriginalUrl = Symbol('trestle.parsedOriginalUrl');
type ParsedUrl = ReturnType<typeof parseurlFn> & { _raw?: string };
interface ParsedSlots {
  url?: string;
  originalUrl?: string;
  [kParsedUrl]?: ParsedUrl;
  [kParsedOriginalUrl]?: ParsedUrl;
}

// Only middleware that read `req._parsedUrl` themselves need the parser.
// Loaded by the first read of `req._parsedUrl`.
const parseurl = lazy(() => require('parseurl') as typeof parseurlFn);

/**
 * `url` as the `parseurl` package parses it, kept in `slot` while `url`
 * stays the same (parseurl's own test: `_raw`). parseurl is given a
 * stand-in request, so it never reads these getters back.
 */
function parsedFor(req: ParsedSlots, url: string, slot: typeof kParsedUrl | typeof kParsedOriginalUrl): ParsedUrl {
  const cached = req[slot];
  if (cached !== undefined && cached !== null && cached._raw === url) return cached;
  const parsed = parseurl()({ url } as IncomingMessage) as ParsedUrl;
  req[slot] = parsed;
  return parsed;
}

/**
 * `req._parsedUrl` and `req._parsedOriginalUrl`, as the `parseurl` package
 * leaves them on a request. Express routes with them, so middleware read
 * `req._parsedUrl.pathname` directly; trestle's router does not need the
 * parse, so it is made on first read, for the URL the request has then
 * (inside a mount, the rest of the path, as Express's router leaves it).
 * Assignable, as parseurl itself assigns them.
 */
export const parsedUrlMembers = {
  get _parsedUrl(): ParsedUrl | undefined {
    const self = this as ParsedSlots;
    return self.url === undefined ? undefined : parsedFor(self, self.url, kParsedUrl);
  },
  set _parsedUrl(value: ParsedUrl | undefined) {
    (this as ParsedSlots)[kParsedUrl] = value;
  },
  get _parsedOriginalUrl(): ParsedUrl | undefined {
    const self = this as ParsedSlots;
    if (typeof self.originalUrl !== 'string') return (this as { _parsedUrl?: ParsedUrl })._parsedUrl;
    return parsedFor(self, self.originalUrl, kParsedOriginalUrl);
  },
  set _parsedOriginalUrl(value: ParsedUrl | undefined) {
    (this as ParsedSlots)[kParsedOriginalUrl] = value;
  },
};

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
    // Unset (deleted, or set to undefined): v4 parses as Express 4's query layer did.
    const parse = (self.app.settings['query parser fn'] ?? self.app._framework?.profile.settings.unsetQuery) as QueryParserFn | undefined;
    // v5 with parsing off (`query parser` false, or no parser): a new empty object with no prototype, as Express 5's getter.
    if (parse === undefined) return Object.create(null) as object;
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
Object.defineProperties(requestMembers, Object.getOwnPropertyDescriptors(parsedUrlMembers));
