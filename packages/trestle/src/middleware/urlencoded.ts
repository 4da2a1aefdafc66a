// `trestle.urlencoded()`: HTML form bodies into `req.body`. Simple mode keeps
// keys as written (`a[b]` stays one key); extended mode builds nested objects
// and arrays. Both parse with `qs`, loaded with the first form body. Neither
// ever writes through `__proto__`: qs drops that key, and the objects it
// builds are plain ones of their own.
import depd from 'depd';
import type { IParseOptions } from 'qs';
import type { UrlencodedOptions } from '../types';
import { lazy } from '../lazy';
import { type CommonOptions, commonConfig, createParser, requestCharset, unsupportedCharset } from './body';
import { createError, createHttpError } from '../errors';
import { optionsObject } from './options';

/** What differs between the generations: the default of `extended`. */
export interface UrlencodedDefaults {
  /** `extended` when the options leave it out. */
  extended: boolean;
  /** Printed (once per call site) when the options leave `extended` out; v4 warns. */
  deprecation?: string | undefined;
}

const deprecate = depd('body-parser');
const qs = lazy(() => require('qs') as typeof import('qs'));
const charsets = new Set(['utf-8', 'iso-8859-1']);

/** Counts `&`-separated parameters, stopping once past `limit`. */
function parameterCount(body: string, limit: number): number {
  let count = 1;
  for (let i = body.indexOf('&'); i !== -1 && count <= limit; i = body.indexOf('&', i + 1)) count++;
  return count;
}

function positive(value: unknown, fallback: number, name: string, allowZero: boolean): number {
  const n = value === undefined ? fallback : (value as number);
  if (Number.isNaN(Number(n)) || n < (allowZero ? 0 : 1)) {
    throw createError(TypeError, 'TRESTLE_ERR_INVALID_OPTION', `option ${name} must be a ${allowZero ? 'zero or a ' : ''}positive number`);
  }
  return Number.isFinite(Number(n)) ? Math.trunc(Number(n)) : Infinity;
}

type Urlencoded = (options?: UrlencodedOptions | null) => ReturnType<typeof createParser>;

/**
 * `urlencoded()` of a generation; `wrap` is the generation's wrapper of body
 * parsers. The warning is printed here, in the function the app calls: depd
 * names the first caller outside the file that printed it, and a wrapper
 * between this file and the app would be named in the app's place.
 */
export function createUrlencoded(defaults: UrlencodedDefaults, wrap: <F extends Urlencoded>(make: F) => F = (make) => make): Urlencoded {
  const make = wrap(parserFor(defaults));
  if (defaults.deprecation === undefined) return make;
  const warning = defaults.deprecation;
  return function urlencoded(options?: UrlencodedOptions | null) {
    if (optionsObject(options).extended === undefined) deprecate(warning);
    return make(options);
  };
}

function parserFor(defaults: UrlencodedDefaults): Urlencoded {
  return function urlencoded(options?: UrlencodedOptions | null): ReturnType<typeof createParser> {
    const opts = optionsObject(options);
    const extended = opts.extended === undefined ? defaults.extended : Boolean(opts.extended);
    const parameterLimit = positive(opts.parameterLimit, 1000, 'parameterLimit', false);
    const depth = extended ? positive(opts.depth, 32, 'depth', true) : 0;
    const defaultCharset = opts.defaultCharset || 'utf-8';
    if (!charsets.has(defaultCharset)) throw createError(TypeError, 'TRESTLE_ERR_INVALID_OPTION', 'option defaultCharset must be either utf-8 or iso-8859-1');
    const common = commonConfig(opts as CommonOptions, 'application/x-www-form-urlencoded');
    const qsOptions: IParseOptions = {
      allowPrototypes: true,
      depth,
      strictDepth: extended,
      parameterLimit,
      charsetSentinel: Boolean(opts.charsetSentinel),
      interpretNumericEntities: Boolean(opts.interpretNumericEntities),
    };
    return createParser('urlencodedParser', {
      ...common,
      charsetOf(req) {
        const charset = requestCharset(req) ?? defaultCharset;
        if (!charsets.has(charset)) throw unsupportedCharset(charset);
        return charset;
      },
      parse(body: string, charset) {
        const count = parameterCount(body, parameterLimit);
        if (count > parameterLimit) throw createHttpError(413, 'TRESTLE_ERR_PARAMETERS_TOO_MANY', 'too many parameters', { type: 'parameters.too.many', body });
        // Repeated keys (`a=1&a=2`) and `a[]` lists stay arrays up to the parameter count.
        const parseOptions = { ...qsOptions, arrayLimit: Math.max(100, count), charset: charset as 'utf-8' | 'iso-8859-1' };
        try {
          return qs().parse(body, parseOptions);
        } catch (err) {
          if (err instanceof RangeError) {
            const details = { type: 'querystring.parse.rangeError', body };
            throw createHttpError(400, 'TRESTLE_ERR_QUERYSTRING_DEPTH_EXCEEDED', 'The input exceeded the depth', details);
          }
          throw err;
        }
      },
    });
  };
}
