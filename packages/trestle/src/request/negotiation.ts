// Content negotiation and request-body inspection: `req.accepts*`, `req.is`
// and `req.range`, on the field's standard parsers (accepts, type-is,
// range-parser). The answers are v5's; a generation that answers
// differently (legacy: `undefined` from `accepts`, booleans from `is`)
// replaces the method in its profile with `convertedMethod`.
import type { IncomingMessage } from 'node:http';
import type parseRange from 'range-parser';
import { lazy } from '../lazy';

// Loaded with the first request that asks (accepts and type-is bring the mime database).
const accepts = lazy(() => require('accepts') as typeof import('accepts'));
const typeis = lazy(() => require('type-is') as typeof import('type-is'));
const rangeParser = lazy(() => require('range-parser') as typeof import('range-parser'));

type Names = [] | [string | string[]] | string[];

/** `f('a', 'b')`, `f(['a', 'b'])` and `f()` all reach the parser as one list. */
function listOf(args: Names): string[] {
  return args.length === 1 && Array.isArray(args[0]) ? args[0] : (args as string[]);
}

/** As `listOf`, with `'json, html'` read as two types, as the spec allows for `req.accepts`. */
function typeListOf(args: Names): string[] {
  const list = listOf(args);
  for (const item of list) {
    if (typeof item === 'string' && item.includes(',')) return list.flatMap(splitList);
  }
  return list;
}

function splitList(item: string): string[] {
  return typeof item === 'string' ? item.split(',').map((part) => part.trim()) : [item];
}

export const negotiationMembers = {
  /** The best of `types` per `Accept`; all accepted types without arguments; `false` when none fits. */
  accepts(this: IncomingMessage, ...types: Names): string | string[] | false {
    return accepts()(this).types(typeListOf(types));
  },

  acceptsCharsets(this: IncomingMessage, ...charsets: Names): string | string[] | false {
    return accepts()(this).charsets(listOf(charsets));
  },

  acceptsEncodings(this: IncomingMessage, ...encodings: Names): string | string[] | false {
    return accepts()(this).encodings(listOf(encodings));
  },

  acceptsLanguages(this: IncomingMessage, ...languages: Names): string | string[] | false {
    return accepts()(this).languages(listOf(languages));
  },

  /** The matching type as given, `null` when there is no body, else `false`. */
  is(this: IncomingMessage, ...types: Names): string | false | null {
    return typeis()(this, listOf(types));
  },

  /** The `Range` header parsed against `size`: ranges with `type`, -1 unsatisfiable, -2 malformed. */
  range(this: IncomingMessage, size: number, options?: parseRange.Options): parseRange.Result | parseRange.Ranges | undefined {
    const header = this.headers.range;
    if (!header) return undefined;
    return rangeParser()(size, header, options);
  },
};

/**
 * A request method answering `convert(v5 answer)`: how a profile changes a
 * return value without touching the v5 code path, e.g.
 * `accepts: convertedMethod(negotiationMembers.accepts, (r) => r === false ? undefined : r)`.
 */
export function convertedMethod<A extends unknown[], R>(
  method: (this: IncomingMessage, ...args: A) => R,
  convert: (result: R) => unknown,
): PropertyDescriptor {
  return {
    configurable: true,
    enumerable: true,
    writable: true,
    value: function converted(this: IncomingMessage, ...args: A): unknown {
      return convert(method.apply(this, args));
    },
  };
}
