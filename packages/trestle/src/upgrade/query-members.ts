// Express 5's default query parser (querystring) gives `req.query` no
// prototype: `req.query.hasOwnProperty(k)`, `String(req.query)` throw there.
// With the report on, a `req.query` that Express 5 would parse so gets
// Object.prototype's methods as its own non-enumerable members, which note
// the call and then do as before. Own members, not another prototype: its
// prototype, keys, JSON and deep equality stay exactly as on Express 4.
import { record } from './store';
import { outermost, show } from './wrap';

type Member = (this: unknown, ...args: unknown[]) => unknown;

/** What to write on Express 5 instead of `req.query.<name>(…)`. */
const EXPRESS5: Record<string, (args: unknown[]) => string> = {
  hasOwnProperty: (args: unknown[]) => `Object.hasOwn(req.query, ${show(args[0])})`,
  propertyIsEnumerable: (args: unknown[]) => `Object.prototype.propertyIsEnumerable.call(req.query, ${show(args[0])})`,
  isPrototypeOf: () => 'Object.prototype.isPrototypeOf.call(req.query, value)',
  // Also what `'' + req.query` and `${req.query}` call, which throw on Express 5.
  toString: () => 'Object.prototype.toString.call(req.query) (or JSON.stringify(req.query))',
  toLocaleString: () => 'Object.prototype.toString.call(req.query) (or JSON.stringify(req.query))',
  valueOf: () => 'req.query itself (String(req.query) and `${req.query}` throw: JSON.stringify(req.query))',
};

/** Object.prototype's method `name`, noting an outermost call made on a watched query. */
function noting(name: string): Member {
  const original = (Object.prototype as unknown as Record<string, Member>)[name]!;
  const express5 = EXPRESS5[name]!;
  return {
    [name](this: unknown, ...args: unknown[]): unknown {
      if (outermost()) {
        try {
          record('query-prototype', `req.query.${name}(${args.map(show).join(', ')})`, { express5: express5(args) });
        } catch {
          // Noting never breaks the call.
        }
      }
      return original.apply(this, args);
    },
  }[name]!;
}

const MEMBERS = Object.keys(EXPRESS5).map((name) => [name, noting(name)] as const);
const watched = new WeakSet<object>();

/** Gives `query` (a parsed `req.query`, kept for its request) the noting members, once. */
export function watchQueryMembers(query: unknown): void {
  if (typeof query !== 'object' || query === null || watched.has(query)) return;
  watched.add(query);
  if (Object.getPrototypeOf(query) !== Object.prototype) return;
  for (const [name, member] of MEMBERS) {
    // A key of the query string with that name (`?toString=1`) stays what it is.
    if (!Object.prototype.hasOwnProperty.call(query, name)) {
      Object.defineProperty(query, name, { value: member, writable: true, configurable: true, enumerable: false });
    }
  }
}
