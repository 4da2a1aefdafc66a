// The v5 generation (Express 5): the core as it is, with the v5 path syntax.
import type { ServerResponse } from 'node:http';
import { compileV5Path } from '../router/path/v5';
import type { Profile } from './profile';

/** v5 answers an unhandled OPTIONS with the sorted, de-duplicated method list. */
function sendOptions(res: unknown, methods: string[], next: (err?: unknown) => void): void {
  const r = res as ServerResponse;
  try {
    const allow = [...new Set(methods)].sort().join(', ');
    r.setHeader('Allow', allow);
    r.setHeader('Content-Length', Buffer.byteLength(allow));
    r.setHeader('Content-Type', 'text/plain');
    r.setHeader('X-Content-Type-Options', 'nosniff');
    r.end(allow);
  } catch (err) {
    next(err);
  }
}

export const v5: Profile = {
  router: { compilePath: compileV5Path, mountSeparators: '/', sendOptions, paramFactories: false },
  settings: { queryParser: 'simple' },
  bodyParsers: { wrap: (make) => make, urlencoded: { extended: false } },
  overrides: { request: {}, response: {}, application: {}, factory: {} },
};
