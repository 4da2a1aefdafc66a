// Route parameters: param triggers (`router.param`), running them once per
// request and value, and merging a parent router's params (`mergeParams`).
// Shared by routers and the legacy route table.
import depd from 'depd';
import { settle } from './settle';
import { createError } from '../errors';
import { layerRuns } from '../observability/channels';
import { traceParam } from '../observability/layer-run';

// depd finds the user's call site from the module that created it: one per module.
const deprecate = depd('trestle');

type Next = (err?: unknown) => void;

/** What the triggers read and write on the request. */
interface RoutingRequest {
  params?: Record<string, unknown> | undefined;
}
export type ParamFn = (req: unknown, res: unknown, next: Next, value: unknown, name: string) => unknown;
/** v4's `router.param(fn)`: returns the param handler to use for `(name, arg)`. */
export type ParamFactory = (name: string, arg: unknown) => ParamFn | undefined;

export interface ParamCalled {
  error: unknown;
  match: unknown;
  value: unknown;
}

/** What holds param triggers: a router, or the legacy route table. */
export interface ParamRegistry {
  params: Record<string, ParamFn[]>;
  _params: ParamFactory[];
  /** May `param(fn)` redefine how param() behaves? (v4: with a deprecation warning) */
  profile: { paramFactories: boolean | 'deprecated'; shape: { paramError(name: string, fn: unknown): Error } };
  param(name: unknown, fn?: unknown): ParamRegistry;
}

/** `param(name, fn)`, `param([names], fn)`, or (v4/legacy) `param(factory)`. */
export function param(this: ParamRegistry, name: unknown, fn?: unknown): ParamRegistry {
  if (typeof name === 'function') {
    if (!this.profile.paramFactories) throw createError(TypeError, 'TRESTLE_ERR_INVALID_ARG_TYPE', 'argument name must be a string');
    if (this.profile.paramFactories === 'deprecated') deprecate('router.param(fn): Refactor to use path params');
    this._params.push(name as ParamFactory);
    return this;
  }
  if (Array.isArray(name)) {
    for (const n of name) this.param(n, fn);
    return this;
  }
  if (!name) throw createError(TypeError, 'TRESTLE_ERR_MISSING_ARG', 'argument name is required');
  if (typeof name !== 'string') throw createError(TypeError, 'TRESTLE_ERR_INVALID_ARG_TYPE', 'argument name must be a string');
  const key = name[0] === ':' ? name.slice(1) : name;
  let handler = fn;
  for (const factory of this._params) handler = factory(key, handler) ?? handler;
  if (typeof handler !== 'function') throw this.profile.shape.paramError(key, handler);
  (this.params[key] ??= []).push(handler as ParamFn);
  return this;
}

/** Do none of `keys` have triggers? Then params need no processing at all. */
export function paramsNotRegistered(params: Record<string, ParamFn[]>, keys: ReadonlyArray<{ name: string | number }>): boolean {
  for (const key of keys) if (params[key.name as string] !== undefined) return false;
  return true;
}

/**
 * Runs the param triggers for `keys`, in order. A trigger runs once per
 * request for a given value (`called` is per request); a repeated value
 * reuses the outcome. Shared by routers and the legacy route table.
 */
export function runParams(
  params: Record<string, ParamFn[]>,
  keys: ReadonlyArray<{ name: string | number }>,
  called: Record<string, ParamCalled>,
  req: RoutingRequest,
  res: unknown,
  done: Next,
): void {
  let i = 0;
  const nextParam = (err?: unknown): void => {
    if (err) return done(err);
    if (i >= keys.length) return done();
    const name = String(keys[i++]!.name);
    const value = (req.params as Record<string, unknown>)[name];
    const fns = params[name];
    if (fns === undefined || value === undefined) return nextParam();
    const prior = called[name];
    if (prior !== undefined && (prior.match === value || (prior.error && prior.error !== 'route'))) {
      (req.params as Record<string, unknown>)[name] = prior.value;
      return nextParam(prior.error);
    }
    const record: ParamCalled = { error: null, match: value, value };
    called[name] = record;
    runTriggers(fns, record, name, value, req, res, nextParam);
  };
  nextParam();
}

function runTriggers(fns: ParamFn[], record: ParamCalled, name: string, value: unknown, req: RoutingRequest, res: unknown, done: Next): void {
  let j = 0;
  const next = (err?: unknown): void => {
    record.value = (req.params as Record<string, unknown>)[name];
    if (err) {
      // The same failure reported twice (a wrapper that catches the trigger's
      // rejection, as express-async-errors does, beside the router's own catch) fails once.
      if (record.error === err) return;
      record.error = err;
      done(err);
      return;
    }
    const fn = fns[j++];
    if (fn === undefined) return done();
    if (layerRuns.hasSubscribers) return traceParam(fn, name, value, req, res, next, callTrigger);
    try {
      settle(fn(req, res, next, value, name), next);
    } catch (thrown) {
      next(thrown);
    }
  };
  next();
}

function callTrigger(ctx: { req: unknown; res: unknown; layer: unknown; paramName?: string; paramValue?: unknown }, next: Next): unknown {
  return (ctx.layer as ParamFn)(ctx.req, ctx.res, next, ctx.paramValue, ctx.paramName!);
}

/** Child params win; a child's numeric captures come after the parent's (`mergeParams`). */
export function mergeParams(params: Record<string, unknown>, parent: Record<string, unknown> | undefined): Record<string, unknown> {
  if (parent === undefined || parent === null || typeof parent !== 'object') return params;
  const merged = Object.getPrototypeOf(params) === null ? (Object.create(null) as Record<string, unknown>) : {};
  Object.assign(merged, parent);
  if (!(0 in params) || !(0 in parent)) return Object.assign(merged, params);
  let parentCount = 0;
  while (parentCount in parent) parentCount++;
  let count = 0;
  while (count in params) count++;
  const shifted: Record<string, unknown> = { ...params };
  // From the last capture down, so a moved capture is never overwritten or deleted.
  for (let i = count - 1; i >= 0; i--) {
    shifted[i + parentCount] = params[i];
    if (i < parentCount) delete shifted[i];
  }
  return Object.assign(merged, shifted);
}
