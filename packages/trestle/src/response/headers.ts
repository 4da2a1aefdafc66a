// Response members that only set headers: status, set/get/append, type,
// vary, links, attachment. Header values go through node's setHeader, which
// refuses CR/LF with a thrown TypeError: inside a handler that becomes
// next(err), so a value can never split into a second header.
import { basename, extname } from 'node:path';
import * as contentType from 'content-type';
import { validateHeaderValue } from 'node:http';
import { putContentType, removeHeader } from './header-store';
import { boundedMemo } from '../memo';
import { createError } from '../errors';
import { lazy } from '../lazy';
import type { HeaderInput, ResponseState } from './state';

// res.send and res.json set their types without the mime database: it is
// loaded with the first res.type or Content-Type set by name, and
// content-disposition with the first attachment, vary with the first res.vary.
const mime = lazy(() => require('mime-types') as typeof import('mime-types'));
const disposition = lazy(() => require('content-disposition') as typeof import('content-disposition'));
const vary = lazy(() => require('vary') as typeof import('vary'));

export const TEXT_HTML = 'text/html; charset=utf-8';
export const APPLICATION_JSON = 'application/json; charset=utf-8';

/**
 * The Content-Type `res.type(x)` sets: `html` -> `text/html; charset=utf-8`,
 * `a/b` completed with its charset. Validated as header text before it is
 * remembered (throwing as setHeader would), so remembered values are safe.
 */
export const contentTypeFor = boundedMemo((type: string): string => {
  const full = type.indexOf('/') === -1 ? mime().contentType(type) || 'application/octet-stream' : type;
  const value = mime().contentType(full) || full;
  validateHeaderValue('Content-Type', value);
  return value;
});

/** Sets the charset parameter of a Content-Type value, normalised as the `content-type` package formats it. */
export const setCharset = boundedMemo((type: string): string => {
  const parsed = contentType.parse(type);
  parsed.parameters.charset = 'utf-8';
  return contentType.format(parsed);
});
// The values send() and json() set themselves are already in final form.
setCharset(TEXT_HTML);
setCharset(APPLICATION_JSON);

/** `attachment; filename="name"` for the last segment of `path` (never the directories), or `attachment`. */
export function contentDisposition(path?: string): string {
  return disposition().create(path === undefined ? undefined : basename(path));
}

function headerValue(value: HeaderInput): string | string[] {
  return Array.isArray(value) ? value.map(String) : String(value);
}

function isContentType(field: string): boolean {
  return field.length === 12 && field.toLowerCase() === 'content-type';
}

export const headerMembers = {
  /** Sets the status: an integer from 100 to 999, else a TypeError or RangeError. */
  status(this: ResponseState, code: number): ResponseState {
    if (!Number.isInteger(code)) {
      throw createError(TypeError, 'TRESTLE_ERR_INVALID_STATUS_CODE', `Invalid status code: ${JSON.stringify(code)}. Status code must be an integer.`);
    }
    if (code < 100 || code > 999) {
      throw createError(RangeError, 'TRESTLE_ERR_INVALID_STATUS_CODE', `Invalid status code: ${JSON.stringify(code)}. Status code must be greater than 99 and less than 1000.`);
    }
    this.statusCode = code;
    return this;
  },

  /** `set(name, value)` or `set({ name: value })`; arrays give several lines; Content-Type gains a charset. */
  set(this: ResponseState, field: string | Record<string, HeaderInput>, value?: HeaderInput): ResponseState {
    if (typeof field !== 'string') {
      for (const key of Object.keys(field)) this.set(key, field[key]);
      return this;
    }
    let v: string | string[] | false = headerValue(value);
    if (isContentType(field)) {
      if (Array.isArray(v)) throw createError(TypeError, 'TRESTLE_ERR_INVALID_ARG_TYPE', 'Content-Type cannot be set to an Array');
      // As Express: a bare word mime-types does not know becomes `false`
      // (sent as "false"; send() and json() then treat the type as unset).
      v = mime().contentType(v as string);
    }
    this.setHeader(field, v as string);
    return this;
  },

  /** node's removeHeader, leaving the header store fast (see header-store.ts). */
  removeHeader(this: ResponseState, name: string): void {
    removeHeader(this, name);
  },

  get(this: ResponseState, field: string): number | string | string[] | undefined {
    return this.getHeader(field);
  },

  /** Adds to a header: the earlier values stay, `value` (a string or an array) follows. */
  append(this: ResponseState, field: string, value?: HeaderInput): ResponseState {
    const prev = this.getHeader(field);
    if (!prev) return this.set(field, value);
    const before = Array.isArray(prev) ? prev : [String(prev)];
    const added = Array.isArray(value) ? (value as readonly string[]) : [value as string];
    return this.set(field, before.concat(added));
  },

  /** `res.type('json')`, `res.type('.html')`, `res.type('text/plain')`. */
  type(this: ResponseState, type: string): ResponseState {
    putContentType(this, contentTypeFor(type));
    return this;
  },

  /** Adds `field` to Vary unless it is there already. */
  vary(this: ResponseState, field: string | string[]): ResponseState {
    vary()(this as never, field);
    return this;
  },

  /** Adds `<url>; rel="name"` entries to the Link header; an array gives one entry per URL. */
  links(this: ResponseState, links: Record<string, string | string[]>): ResponseState {
    let link = (this.getHeader('Link') as string | undefined) || '';
    if (link) link += ', ';
    const entries: string[] = [];
    for (const rel of Object.keys(links)) {
      const urls = links[rel]!;
      if (Array.isArray(urls)) for (const url of urls) entries.push(`<${url}>; rel="${rel}"`);
      else entries.push(`<${urls}>; rel="${rel}"`);
    }
    return this.set('Link', link + entries.join(', '));
  },

  /** Content-Disposition: attachment, with the file's name and type when given. */
  attachment(this: ResponseState, filename?: string): ResponseState {
    if (filename) this.type(extname(filename));
    this.setHeader('Content-Disposition', contentDisposition(filename));
    return this;
  },
};
