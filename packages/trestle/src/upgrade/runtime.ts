// The behaviour changes an app trips on at run time, not in a call's form:
// req.query assigned or read differently, req.body read where Express 5
// leaves it undefined, req.host with a port, a handler's rejected promise.
import type { IncomingMessage, ServerResponse } from 'node:http';
import { parse as parseSimple } from 'node:querystring';
import { named } from '../middleware/body';
import { proxyMembers } from '../request/proxy';
import { watchRejections } from '../router/settle';
import { getSearch } from '../router/url';
import { parseQs } from '../generations/v4/query';
import { watchQueryMembers } from './query-members';
import { guardOf } from './guards';
import { callSite, siteIn } from './site';
import { record } from './store';
import { checkCalls, checkReads, checkWrites, outermost, show } from './wrap';

interface AppLike {
  settings: Record<string, unknown>;
}
type Req = IncomingMessage & { app?: AppLike; body?: unknown; _body?: unknown; url: string };
type Next = (err?: unknown) => void;
type Middleware = (req: Req, res: ServerResponse, next: Next) => void;

/** Apps that chose their `query parser`: Express 5 keeps their choice, so nothing changes for them. */
const chosenParser = new WeakSet<object>();

/** Do two parsed query strings hold the same values (prototypes aside)? */
function same(a: unknown, b: unknown): boolean {
  if (typeof a !== 'object' || typeof b !== 'object' || a === null || b === null) return a === b;
  if (Array.isArray(a) !== Array.isArray(b)) return false;
  const keys = Object.keys(a);
  if (keys.length !== Object.keys(b).length) return false;
  return keys.every((k) => Object.prototype.hasOwnProperty.call(b, k) && same((a as Record<string, unknown>)[k], (b as Record<string, unknown>)[k]));
}

// Query strings already compared (bounded: a test run sends many).
const compared = new Map<string, boolean>();

function readsDifferently(search: string): boolean {
  let differs = compared.get(search);
  if (differs === undefined) {
    differs = !same(parseQs(search), parseSimple(search));
    if (compared.size < 5000) compared.set(search, differs);
  }
  return differs;
}

function checkQueryRead(req: unknown, value: unknown): void {
  const { app, url } = req as Req;
  if (app === undefined || chosenParser.has(app) || app.settings['query parser'] !== 'extended') return;
  watchQueryMembers(value);
  const search = getSearch(url);
  if (!search || !readsDifferently(search)) return;
  const simple = JSON.stringify(parseSimple(search));
  record('query-parser', `?${search.length > 80 ? `${search.slice(0, 80)}…` : search}: v4 reads ${JSON.stringify(value)}, Express 5 ${simple}`);
}

/** `req.query`: assigned, read where the query string reads differently on Express 5, or its Object.prototype methods called. */
export function checkQuery(request: object, application: object): void {
  checkWrites(request, 'query', () => record('query-assign', 'req.query = …'));
  checkReads(request, 'query', checkQueryRead);
  checkCalls(application, 'set', (app, [name, ...rest]) => {
    if (name === 'query parser' && rest.length !== 0) chosenParser.add(app as object);
  });
}

// Each parsed query seen through one Proxy, so `req.query === req.query` stays true.
const queryProxies = new WeakMap<object, object>();

/** A Proxy of `query` that notes the app's set, delete and define of its members, and does them as Express 4 does. */
function watchedQuery(query: object): object {
  let proxy = queryProxies.get(query);
  if (proxy !== undefined) return proxy;
  const note = (op: string, key: PropertyKey) => {
    if (!outermost()) return;
    const name = typeof key === 'symbol' ? key.toString() : key;
    try {
      record('query-member', op === 'delete' ? `delete req.query.${name}` : `req.query.${name} = …`);
    } catch {
      // Noting never breaks the change.
    }
  };
  proxy = new Proxy(query, {
    set(target, key, value, receiver) {
      note('set', key);
      return Reflect.set(target, key, value, receiver === proxy ? target : receiver);
    },
    deleteProperty(target, key) {
      note('delete', key);
      return Reflect.deleteProperty(target, key);
    },
    defineProperty(target, key, descriptor) {
      note('define', key);
      return Reflect.defineProperty(target, key, descriptor);
    },
  });
  queryProxies.set(query, proxy);
  return proxy;
}

/** `req.query`'s members changed: read through a watched Proxy while the report is on. */
export function checkQueryMembers(request: object): void {
  const descriptor = Object.getOwnPropertyDescriptor(request, 'query');
  const get = descriptor?.get;
  if (get === undefined) return;
  Object.defineProperty(request, 'query', {
    ...descriptor,
    get(this: unknown) {
      const value = get.call(this) as unknown;
      return typeof value === 'object' && value !== null ? watchedQuery(value) : value;
    },
  });
}

/** `req.host` where Express 5 would answer with the port. */
export function checkHost(request: object): void {
  const v5Host = Object.getOwnPropertyDescriptor(proxyMembers, 'host')!.get!;
  checkReads(request, 'host', (req, value) => {
    const v5 = v5Host.call(req) as string | undefined;
    if (v5 !== undefined && v5 !== value) record('host-port', `req.host is ${show(value)} here, ${show(v5)} on Express 5`);
  });
}

/**
 * The read of an empty `req.body` at `site`: a finding, or listed apart
 * when it changes nothing on Express 5 (guarded in the source, after a check
 * of this request in the same file, or inside a dependency).
 */
function noteBodyRead(detail: string, checks: Map<string, number>): void {
  const site = callSite('caller');
  if (site === undefined) return;
  if (site.dependency !== undefined) {
    record('body-empty', detail, { noChange: `read inside the dependency ${site.dependency}, not the app's code` }, site);
    return;
  }
  const guard = guardOf(site);
  if (guard?.how === 'check' && !checks.has(site.file)) checks.set(site.file, site.line);
  const checkedAt = checks.get(site.file);
  const noChange = guard?.reason ?? (checkedAt !== undefined && checkedAt < site.line ? `after the check of req.body at line ${checkedAt}` : undefined);
  record('body-empty', detail, noChange === undefined ? {} : { noChange }, site);
}

/** After a v4 body parser that read nothing, `req.body` is `{}` only on Express 4: its reads are noted. */
function watchEmptyBody(req: Req): void {
  const empty = req.body;
  const detail = `${req.method ?? 'GET'} with ${req.headers['content-type'] === undefined ? 'no body' : `Content-Type ${req.headers['content-type']}`}: req.body is {} here, undefined on Express 5`;
  // Files where this request's body was checked (`if (!req.body)`), and the line: later reads there are guarded.
  const checks = new Map<string, number>();
  Object.defineProperty(req, 'body', {
    configurable: true,
    enumerable: true,
    get() {
      if (outermost()) {
        try {
          noteBodyRead(detail, checks);
        } catch {
          // Noting never breaks the read.
        }
      }
      return empty;
    },
    set(this: Req, value: unknown) {
      Object.defineProperty(this, 'body', { value, writable: true, enumerable: true, configurable: true });
    },
  });
}

function watchedParser(parse: Middleware): Middleware {
  return named(parse.name, function bodyParser(req: Req, res: ServerResponse, next: Next) {
    const before = req.body;
    parse(req, res, (err?: unknown) => {
      if (err === undefined && before === undefined && !req._body && typeof req.body === 'object' && req.body !== null && Object.keys(req.body).length === 0) watchEmptyBody(req);
      next(err);
    });
  });
}

/** The body parser factories: their parsers' empty `req.body`, and `urlencoded()` without `extended`. */
export function checkBodyParsers(factory: Record<string, unknown>): void {
  for (const name of ['json', 'urlencoded', 'raw', 'text']) {
    const make = factory[name] as (options?: unknown) => Middleware;
    factory[name] = named(make.name, function (options?: unknown) {
      if (name === 'urlencoded' && (options as { extended?: unknown } | null | undefined)?.extended === undefined) {
        record('urlencoded-extended', `express.urlencoded(${options === undefined ? '' : '{…}'})`);
      }
      return watchedParser(make(options));
    });
  }
}

/** A handler's promise that rejects: the place is where the reason was made. */
export function checkRejections(): void {
  watchRejections((reason) => {
    const site = siteIn((reason as { stack?: unknown } | null)?.stack as string | undefined, 'app');
    const what = reason instanceof Error ? `${reason.name}: ${reason.message}` : show(reason);
    record('promise-rejected', `a handler's promise rejected with ${what.length > 120 ? `${what.slice(0, 120)}…` : what}`, {}, site);
  });
}
