// Everything that differs between the three generations trestle ships, as
// data the one core reads. To see how v4 or legacy differ from v5, read this
// file; the core holds no version checks of its own.
import type { ServerResponse } from 'node:http';
import { legacyApplication, legacyMembers, v4Application, v4Members } from './v4/application';
import { legacyRequest, v4Request } from './v4/request';
import { oldResponseForms } from './v4/response';
import { makeV4Compiler } from '../router/path/v4';
import { compileV5Path } from '../router/path/v5';
import type { UrlencodedDefaults } from '../middleware/urlencoded';
import type { RouterProfile } from '../router/router';

export interface Profile extends RouterProfile {
  name: 'v5' | 'v4' | 'legacy';
  /** The default of the `query parser` setting. */
  queryParser: 'simple' | 'extended';
  /** Request members this generation adds or answers differently. */
  request: PropertyDescriptorMap;
  /** Response members this generation adds or answers differently. */
  response: PropertyDescriptorMap;
  /** Application members this generation adds. */
  application: PropertyDescriptorMap;
  /** Members of the factory itself this generation adds (`trestle.bodyParser`, ...). */
  members: PropertyDescriptorMap;
  /** Do the body parsers leave `req.body` as `{}` (not `undefined`) when they read nothing? */
  emptyBody: boolean;
  /** `urlencoded()` without `extended`: its default, and the warning v4 prints. */
  urlencoded: UrlencodedDefaults;
}

/** Child params win; a child's numeric captures come after the parent's. */
function mergeParams(params: Record<string, unknown>, parent: Record<string, unknown> | undefined): Record<string, unknown> {
  if (parent === undefined || parent === null || typeof parent !== 'object') return params;
  const merged = Object.getPrototypeOf(params) === null ? (Object.create(null) as Record<string, unknown>) : {};
  Object.assign(merged, parent);
  if (!(0 in params) || !(0 in parent)) return Object.assign(merged, params);
  let parentCount = 0;
  while (parentCount in parent) parentCount++;
  const shifted: Record<string, unknown> = { ...params };
  for (let i = 0; i in params; i++) {
    delete shifted[i];
    shifted[i + parentCount] = params[i];
  }
  return Object.assign(merged, shifted);
}

/** v5 answers an unhandled OPTIONS with the sorted, de-duplicated method list. */
function sendOptionsV5(res: unknown, methods: string[], next: (err?: unknown) => void): void {
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
  name: 'v5',
  compilePath: compileV5Path,
  mountSeparators: '/',
  sendOptions: sendOptionsV5,
  paramFactories: false,
  mergeParams,
  queryParser: 'simple',
  request: {},
  response: {},
  application: {},
  members: {},
  emptyBody: false,
  urlencoded: { extended: false },
};

/**
 * v4 answers an unhandled OPTIONS with the methods in the order the routes
 * declared them, comma-joined, sent through `res.send` (so as HTML, with an ETag).
 */
function sendOptionsV4(res: unknown, methods: string[], next: (err?: unknown) => void): void {
  const r = res as ServerResponse & { set(field: string, value: string): unknown; send(body: string): unknown };
  try {
    const body = methods.join(',');
    r.set('Allow', body);
    r.send(body);
  } catch (err) {
    next(err);
  }
}

export const v4: Profile = {
  name: 'v4',
  compilePath: makeV4Compiler('/'),
  mountSeparators: '/',
  sendOptions: sendOptionsV4,
  paramFactories: 'deprecated',
  mergeParams,
  queryParser: 'extended',
  request: v4Request,
  response: oldResponseForms(true),
  application: v4Application,
  members: v4Members,
  emptyBody: true,
  urlencoded: { extended: true, deprecation: 'undefined extended: provide extended option' },
};

export const legacy: Profile = {
  ...v4,
  name: 'legacy',
  // Express 3 mounted middleware by prefix: `/apple` also serves `/apple.html`.
  compilePath: makeV4Compiler('/.'),
  mountSeparators: '/.',
  paramFactories: true,
  request: legacyRequest,
  response: oldResponseForms(false),
  application: legacyApplication,
  members: legacyMembers,
  // Express 3 parsed forms with qs, and said nothing about it.
  urlencoded: { extended: true },
};
