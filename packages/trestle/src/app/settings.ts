// Settings that users give as data but the framework needs as functions
// (`etag`, `query parser`, `trust proxy`) are compiled once, when set, and
// stored beside the setting as `<name> fn`, as Express does, so sub-apps that
// inherit a setting inherit its compiled form with it.
import { parse as parseSimple } from 'node:querystring';
import { resolve } from 'node:path';
import etag from 'etag';
import { lazy } from '../lazy';
import { View } from './view';
import { createError } from '../errors';

// Only the `extended` query parser needs qs, and only a list of trusted
// addresses needs proxy-addr: neither is loaded before it is chosen.
const qs = lazy(() => require('qs') as typeof import('qs'));
const proxyaddr = lazy(() => require('proxy-addr') as typeof import('proxy-addr'));

export type EtagFn = (body: string | Buffer, encoding?: BufferEncoding) => string | undefined;
export type QueryParserFn = (str: string) => Record<string, unknown>;
export type TrustFn = (addr: string, i: number) => boolean;

export function compileETag(value: unknown): EtagFn | undefined {
  if (typeof value === 'function') return value as EtagFn;
  switch (value) {
    case true:
    case 'weak':
      return weakETag;
    case 'strong':
      return strongETag;
    case false:
    case undefined:
      return undefined;
    default:
      throw createError(TypeError, 'TRESTLE_ERR_INVALID_SETTING', `unknown value for etag function: ${String(value)}`);
  }
}

function weakETag(body: string | Buffer, encoding?: BufferEncoding): string {
  return etag(encoding === undefined || encoding === 'utf8' || typeof body !== 'string' ? body : Buffer.from(body, encoding), { weak: true });
}

function strongETag(body: string | Buffer, encoding?: BufferEncoding): string {
  return etag(encoding === undefined || encoding === 'utf8' || typeof body !== 'string' ? body : Buffer.from(body, encoding), { weak: false });
}

/** `qs` with nested objects and arrays; it never writes through `__proto__`. */
export function parseExtendedQuery(str: string): Record<string, unknown> {
  return qs().parse(str, { allowPrototypes: true }) as Record<string, unknown>;
}

export function compileQueryParser(value: unknown): QueryParserFn | undefined {
  if (typeof value === 'function') return value as QueryParserFn;
  switch (value) {
    case true:
    case 'simple':
      return parseSimple as QueryParserFn;
    case false:
      return undefined;
    case 'extended':
      return parseExtendedQuery;
    default:
      throw createError(TypeError, 'TRESTLE_ERR_INVALID_SETTING', `unknown value for query parser function: ${String(value)}`);
  }
}

/** `trust proxy` off (the default): no forwarded header is believed. */
export const TRUST_NONE: TrustFn = () => false;

export function compileTrust(value: unknown): TrustFn {
  if (typeof value === 'function') return value as TrustFn;
  if (value === false || value === undefined || value === null) return TRUST_NONE;
  if (value === true) return () => true;
  if (typeof value === 'number') {
    const hops = value;
    return (_addr, i) => i < hops;
  }
  if (typeof value === 'string') value = value.split(',').map((v) => v.trim());
  return proxyaddr().compile((value as string[] | false | undefined) || []);
}

/** Settings whose value is compiled into a `<name> fn` companion. */
export const compilers: Record<string, (value: unknown) => unknown> = {
  etag: compileETag,
  'query parser': compileQueryParser,
  'trust proxy': compileTrust,
};

/**
 * The settings an app starts with. `json spaces` and `view cache` follow
 * `env` (2 spaces and no cache in development) until the app sets them.
 */
export function defaultSettings(queryParser: 'simple' | 'extended'): Record<string, unknown> {
  const defaults: Record<string, unknown> = {
    env: process.env.NODE_ENV || 'development',
    'x-powered-by': true,
    etag: 'weak',
    'etag fn': compileETag('weak'),
    'query parser': queryParser,
    'query parser fn': compileQueryParser(queryParser),
    'subdomain offset': 2,
    'trust proxy': false,
    'trust proxy fn': compileTrust(false),
    'jsonp callback name': 'callback',
    'json replacer': null,
    view: View,
    views: resolve('views'),
  };
  Object.defineProperties(defaults, {
    'json spaces': {
      enumerable: true,
      configurable: true,
      get(this: Record<string, unknown>) {
        return this.env === 'development' ? 2 : 0;
      },
    },
    'view cache': {
      enumerable: true,
      configurable: true,
      get(this: Record<string, unknown>) {
        return this.env === 'production';
      },
    },
  });
  return defaults;
}
