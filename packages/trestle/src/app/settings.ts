// Settings that users give as data but the framework needs as functions
// (`etag`, `query parser`, `trust proxy`) are compiled once, when set, and
// stored beside the setting as `<name> fn`, as Express does, so sub-apps that
// inherit a setting inherit its compiled form with it.
import { compileDeadline } from '../lifecycle/deadline';
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

/**
 * `qs` with nested objects and arrays; it never writes through `__proto__`.
 * `arrayLimit` 1000 (qs's own `parameterLimit`), as Express 4.22 sets it:
 * with qs's default of 20, `ids=1&ids=2...` repeated 21 times became an
 * object with numeric keys instead of an array.
 */
export function parseExtendedQuery(str: string): Record<string, unknown> {
  return qs().parse(str, QS_OPTIONS) as Record<string, unknown>;
}

const QS_OPTIONS = { allowPrototypes: true, arrayLimit: 1000 };

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

/** Settings whose value is compiled into a `<name> fn` companion (null prototype: `set('valueOf')` finds none). */
export const compilers: Record<string, ((value: unknown) => unknown) | undefined> = Object.assign(Object.create(null) as object, {
  etag: compileETag,
  'query parser': compileQueryParser,
  'trust proxy': compileTrust,
  // The app-wide request deadline (lifecycle/deadline.ts), armed by the app for each request it answers.
  'request deadline': (value: unknown) => compileDeadline(value),
});

/**
 * What every app's settings end with: `json spaces` and `view cache`
 * follow the reading app's `env` (2 spaces and no cache in development)
 * until an app in the chain sets them. Its prototype is null, so a setting
 * named like an `Object.prototype` member (`toString`, `constructor`) is
 * unset, as in Express, rather than that member.
 */
const derivedSettings: Record<string, unknown> = Object.create(null, {
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
}) as Record<string, unknown>;

/**
 * A new app's settings: Express's defaults as its own values (a mounted app
 * keeps them rather than inheriting its parent's), in front of the derived
 * ones. On mount the object is re-parented to the parent's settings, so
 * everything else (custom settings, `json spaces`, `view engine`...) is
 * inherited; `trust proxy` is too while the app has not set it (see
 * `TRUST_PROXY_DEFAULT`).
 */
export function defaultSettings(queryParser: 'simple' | 'extended', etagCompiler: (value: unknown) => EtagFn | undefined = compileETag): Record<string, unknown> {
  const settings = Object.create(derivedSettings) as Record<string, unknown>;
  const defaults: Record<string, unknown> = {
    env: process.env.NODE_ENV || 'development',
    'x-powered-by': true,
    etag: 'weak',
    'etag fn': etagCompiler('weak'),
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
  for (const name of Object.keys(defaults)) putSetting(settings, name, defaults[name]);
  Object.defineProperty(settings, TRUST_PROXY_DEFAULT, { configurable: true, writable: true, value: true });
  return settings;
}

/**
 * Marks settings whose `trust proxy` is still the default: such an app,
 * when mounted, drops its own and inherits its parent's, as Express does.
 */
export const TRUST_PROXY_DEFAULT = Symbol('trust proxy default');

/** Stores a setting as an own value (replacing an inherited one or a derived getter). */
export function putSetting(settings: Record<string, unknown>, name: string, value: unknown): void {
  Object.defineProperty(settings, name, { value, writable: true, enumerable: true, configurable: true });
}
