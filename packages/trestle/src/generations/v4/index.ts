// The v4 generation (Express 4): the v4 path syntax (path-to-regexp 0.1),
// the deprecated forms Express 4 still accepts, and its OPTIONS answer.
import type { ServerResponse } from 'node:http';
import { makeV4Compiler } from '../../router/path/v4';
import type { Profile } from '../profile';
import { v4Application, v4Factory } from './application';
import { withEmptyBody } from './body-parsers';
import { v4Request } from './request';
import { oldResponseForms } from './response';

/**
 * v4 answers an unhandled OPTIONS with the methods in the order the routes
 * declared them, comma-joined, sent through `res.send` (so as HTML, with an ETag).
 */
export function sendOptionsV4(res: unknown, methods: string[], next: (err?: unknown) => void): void {
  const r = res as ServerResponse & { set(field: string, value: string): unknown; send(body: string): unknown };
  try {
    const body = methods.join(',');
    r.set('Allow', body);
    r.send(body);
  } catch (err) {
    next(err);
  }
}

/** Express 4's words for `use()` without a middleware function; the type as its router named it (`number`, `Null`, `Object`). */
export function useErrorV4(...fn: [] | [unknown]): string {
  if (fn.length === 0) return 'Router.use() requires a middleware function';
  const value = fn[0];
  const type = typeof value !== 'object' ? typeof value : Object.prototype.toString.call(value).replace(/^\[object (\S+)\]$/, '$1');
  return `Router.use() requires a middleware function but got a ${type}`;
}

export const v4: Profile = {
  router: { compilePath: makeV4Compiler('/'), mountSeparators: '/', sendOptions: sendOptionsV4, paramFactories: 'deprecated', useError: useErrorV4 },
  settings: { queryParser: 'extended' },
  bodyParsers: {
    wrap: withEmptyBody,
    urlencoded: { extended: true, deprecation: 'undefined extended: provide extended option' },
  },
  overrides: { request: v4Request, response: oldResponseForms(true), application: v4Application, factory: v4Factory },
};
