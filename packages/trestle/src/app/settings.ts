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
/** A `query parser fn`: given the query string, or null when the URL has none (as Express 4 and 5 call it). */
export type QueryParserFn = (str: string | null) => Record<string, unknown>;
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
export function parseExtendedQuery(str: string | null): Record<string, unknown> {
  return qs().parse(str ?? '', QS_OPTIONS) as Record<string, unknown>;
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
export type SettingCompilers = Record<string, ((value: unknown) => unknown) | undefined>;

export const compilers: SettingCompilers = withCompilers({});

/** Express 5's compilers, with a generation's own in place of some (legacy's MD5 `etag`, v4's `query parser`). */
export function withCompilers(own: SettingCompilers): SettingCompilers {
  return Object.assign(
    Object.create(null) as object,
    {
      etag: compileETag,
      'query parser': compileQueryParser,
      'trust proxy': compileTrust,
      // The app-wide request deadline (lifecycle/deadline.ts), armed by the app for each request it answers.
      'request deadline': (value: unknown) => compileDeadline(value),
    },
    own,
  );
}

/** `query parser` off as Express 4 compiled it: a parser answering `{}`, which its `query()` then leaves alone. */
export function emptyQuery(): Record<string, unknown> {
  return {};
}

/** `json spaces` by `env`: 2 in development and 0 in production, as the spec says; unset in any other (`test`, ...), as Express leaves it. */
function jsonSpacesFor(env: unknown): number | undefined {
  return env === 'development' ? 2 : env === 'production' ? 0 : undefined;
}

function viewCacheFor(env: unknown): boolean {
  return env === 'production';
}

/**
 * Puts on an app's `settings` a setting that follows the reading app's
 * `env` until an app in the chain sets it, so `app.set('env', ...)` after
 * creation counts too: what the settings above have (a mounted app's
 * parent's, themselves derived or set), else the value for `env`. Own and
 * not enumerable, so the settings' prototype is Express's (null in v5,
 * Object.prototype in v4 and legacy) and `Object.keys` lists what Express's does.
 */
function defineDerived(settings: Record<string, unknown>, name: string, fromEnv: (env: unknown) => unknown): void {
  Object.defineProperty(settings, name, {
    configurable: true,
    enumerable: false,
    get(this: Record<string, unknown>) {
      const above = Object.getPrototypeOf(settings) as object | null;
      return above !== null && name in above ? Reflect.get(above, name, this) : fromEnv(this.env);
    },
    set(this: Record<string, unknown>, value: unknown) {
      putSetting(this, name, value);
    },
  });
}

/**
 * A setting's value as `app.get(name)` reads it. A name only
 * `Object.prototype` has (`toString`, `constructor`: v4's and legacy's
 * settings inherit it, as Express 4's do) is unset, as Express 4 and 5 read it.
 */
export function readSetting(settings: Record<string, unknown>, name: string): unknown {
  const value = settings[name];
  if (value === undefined || !(name in Object.prototype)) return value;
  for (let s: object | null = settings; s !== null && s !== Object.prototype; s = Object.getPrototypeOf(s) as object | null) {
    if (Object.prototype.hasOwnProperty.call(s, name)) return value;
  }
  return undefined;
}

/**
 * A new app's settings, with no prototype (Express 5's; v4 and legacy give
 * them Object.prototype): Express's defaults as its own values (a mounted
 * app keeps them rather than inheriting its parent's), and the derived
 * `json spaces` and `view cache`. On mount the object is re-parented to the parent's settings, so
 * everything else (custom settings, `json spaces`, `view engine`...) is
 * inherited; `trust proxy` is too while the app has not set it (see
 * `TRUST_PROXY_DEFAULT`).
 */
export function defaultSettings(queryParser: 'simple' | 'extended', compile: SettingCompilers = compilers): Record<string, unknown> {
  const settings = Object.create(null) as Record<string, unknown>;
  defineDerived(settings, 'json spaces', jsonSpacesFor);
  defineDerived(settings, 'view cache', viewCacheFor);
  const defaults: Record<string, unknown> = {
    env: process.env.NODE_ENV || 'development',
    'x-powered-by': true,
    etag: 'weak',
    'etag fn': compile.etag!('weak'),
    'query parser': queryParser,
    'query parser fn': compile['query parser']!(queryParser),
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
