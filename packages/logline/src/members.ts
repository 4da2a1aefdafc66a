// Tokens and named formats as members of the factory, as morgan has them:
// `logger.url(req, res)`, `logger['remote-addr'](req, res)`,
// `logger.date(req, res, 'clf')`, `logger.combined` (the format string),
// `logger.dev` (the format function). Apps read tokens outside any format to
// build their own records, and formats to build their own from them.
//
// Each member is an accessor over its registry, so a token or format
// redefined with logger.token()/logger.format() is the one read, and
// assigning one (`logger.url = fn`, `logger.mine = ':method'`) defines it.
// morgan keeps tokens and formats in one namespace, the factory itself;
// logline keeps two registries, and the member of a name both use is the one
// defined last. The factory's own members (token, format, compile, name...)
// are never replaced.
import { defineFormat, formatByName } from './formats.js';
import { defineToken, tokens } from './tokens.js';
import type { FormatFn, TokenCallback } from './types.js';

/** The getters made here: a member with one of them is a token or format member, free to repoint. */
const memberGetters = new WeakSet<() => unknown>();

function defineMember(factory: object, name: string, get: () => unknown, set: (value: never) => void): void {
  const existing = Object.getOwnPropertyDescriptor(factory, name)?.get;
  if (Object.hasOwn(factory, name) && (existing === undefined || !memberGetters.has(existing))) return;
  memberGetters.add(get);
  Object.defineProperty(factory, name, { configurable: true, enumerable: true, get, set });
}

/** Makes token `name` a member of `factory` (its strings escaped, as format functions get it). */
export function exposeToken(factory: object, name: string): void {
  defineMember(
    factory,
    name,
    (): TokenCallback | undefined => tokens[name],
    (fn: TokenCallback) => defineToken(name, fn),
  );
}

/** Makes the named format `name` a member of `factory`: its format string or function. */
export function exposeFormat(factory: object, name: string): void {
  defineMember(
    factory,
    name,
    (): string | FormatFn | undefined => formatByName(name),
    (format: string | FormatFn) => defineFormat(name, format),
  );
}
