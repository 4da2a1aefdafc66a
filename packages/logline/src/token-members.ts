// Tokens as members of the factory, as morgan has them: `logger.url(req,
// res)`, `logger['remote-addr'](req, res)`, `logger.date(req, res, 'clf')`.
// Apps call them outside any format, to build their own log records.
//
// Each is an accessor over the token registry, so a token redefined with
// logger.token() is the one read, and assigning one (`logger.url = fn`)
// defines it.
import { defineToken, tokens } from './tokens.js';
import type { TokenCallback } from './types.js';

/** Makes token `name` a member of `factory`, unless that would hide one of its own members. */
export function exposeToken(factory: object, name: string): void {
  // An existing member is either the factory's own (token, format, compile,
  // length, name...) or this accessor already: leave it.
  if (Object.getOwnPropertyDescriptor(factory, name) !== undefined) return;
  Object.defineProperty(factory, name, {
    configurable: true,
    enumerable: true,
    get(): TokenCallback | undefined {
      return tokens[name];
    },
    set(fn: TokenCallback) {
      defineToken(name, fn);
    },
  });
}
