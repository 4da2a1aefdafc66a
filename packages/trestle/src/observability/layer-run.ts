// A layer run as the `trestle.layer` tracing channel reports it. Only ever
// entered when someone subscribes (the router checks `hasSubscribers` first),
// so what is allocated here is what tracing costs, never what a request does.
//
// Events follow node's TracingChannel: `start` (with the channel's stores
// entered while the handler runs), `end` when the handler returns, `error`
// when it throws, rejects or passes an error on; `asyncStart`/`asyncEnd`
// bracket the moment its part is over: when it calls `next` (the stores
// bound to `asyncStart` are entered for the rest of the walk, so a tracer
// can give the next layer its own parent back), when its promise settles,
// or when the response finishes for a handler that answered.
import { registeredPath } from '../router/registered';
import { isThenable, rejectionError } from '../router/settle';
import { type LayerKind, type LayerRunContext, layerRuns } from './channels';

type Next = (err?: unknown) => void;
type Call = (ctx: LayerRunContext, next: Next) => unknown;

/** The joined mount path patterns of the layer running on a request (see `mountPath`). */
const kMountPath = Symbol('trestle.mountPath');
/** On a response: the runs waiting for it to close (one listener per response, whatever the nesting). */
const kWaiting = Symbol('trestle.waitingRuns');

/** The fields of a router or route layer read here. */
export interface TracedLayer {
  name: string;
  route: unknown;
  /** Empty for the handlers of a route (they match nothing themselves). */
  matchers: readonly unknown[];
  handle: (...args: never[]) => unknown;
}

interface RunState {
  ctx: LayerRunContext;
  out: Next;
  done: boolean;
  /** The request's mount path to put back when the run is over, if the run changed it. */
  mountBefore: string | undefined;
  next: Next;
}

/** A path as Express users write it in a route name: regular expressions as their source, arrays joined by commas. */
export function pathPattern(path: unknown): string {
  if (Array.isArray(path)) return path.map(pathPattern).join(',');
  if (typeof path === 'string') return path;
  if (path instanceof RegExp || typeof path === 'number') return String(path);
  return '';
}

function joinPaths(base: string, path: string): string {
  if (path === '/' || path.length === 0) return base;
  return base.endsWith('/') && path[0] === '/' ? base + path.slice(1) : base + path;
}

/** The path a `use()` layer was added with, as a string ('/' when none was noted). */
function useLayerPath(layer: object): string {
  const path = registeredPath(layer);
  return path === undefined ? '/' : pathPattern(path);
}

function mountOf(req: unknown): string {
  return ((req as Record<symbol, string | undefined>)[kMountPath]) ?? '';
}

function kindOf(layer: TracedLayer, isErrorRun: boolean): LayerKind {
  if (isErrorRun) return 'error_handler';
  if (layer.route !== undefined) return 'route';
  if (layer.matchers.length === 0) return 'handler';
  return layer.name === 'router' ? 'router' : 'middleware';
}

function context(req: unknown, res: unknown, layer: unknown, name: string, kind: LayerKind, layerPath: string | undefined, routePath: string | undefined): LayerRunContext {
  return { req, res, layer, name, kind, mountPath: mountOf(req), layerPath, routePath, handledError: undefined, paramName: undefined, paramValue: undefined, error: undefined, result: undefined };
}

function callRequestHandler(ctx: LayerRunContext, next: Next): unknown {
  return ((ctx.layer as TracedLayer).handle as (req: unknown, res: unknown, next: Next) => unknown)(ctx.req, ctx.res, next);
}

function callErrorHandler(ctx: LayerRunContext, next: Next): unknown {
  return ((ctx.layer as TracedLayer).handle as (err: unknown, req: unknown, res: unknown, next: Next) => unknown)(ctx.handledError, ctx.req, ctx.res, next);
}

/** Runs a router's or a route's layer (a request or an error handler) under the channels. */
export function traceLayer(layer: TracedLayer, isErrorRun: boolean, err: unknown, req: unknown, res: unknown, next: Next): void {
  const route = layer.route as { path?: unknown } | undefined;
  const inRoute = route === undefined && layer.matchers.length === 0;
  const layerPath = route !== undefined ? pathPattern(route.path) : inRoute ? undefined : useLayerPath(layer);
  const routePath = route !== undefined ? layerPath : inRoute ? pathPattern((req as { route?: { path?: unknown } }).route?.path) : undefined;
  const ctx = context(req, res, layer, layer.name, kindOf(layer, isErrorRun), layerPath, routePath);
  if (isErrorRun) ctx.handledError = err;
  // A middleware mounted on a path mounts whatever it runs there.
  const mountInside = route === undefined && layerPath !== undefined ? joinPaths(ctx.mountPath, layerPath) : undefined;
  runTraced(ctx, next, isErrorRun ? callErrorHandler : callRequestHandler, mountInside);
}

/** Runs a param trigger under the channels. */
export function traceParam(fn: (...args: never[]) => unknown, name: string, value: unknown, req: unknown, res: unknown, next: Next, call: Call): void {
  const ctx = context(req, res, fn, fn.name || '<anonymous>', 'param', undefined, undefined);
  ctx.paramName = name;
  ctx.paramValue = value;
  runTraced(ctx, next, call, undefined);
}

/** Runs a legacy route record (its callbacks, through `call`) under the channels, as a route layer. */
export function traceRoute(record: { path: unknown }, req: unknown, res: unknown, next: Next, call: Call): void {
  const path = pathPattern(record.path);
  runTraced(context(req, res, record, 'route', 'route', path, path), next, call, undefined);
}

function runTraced(ctx: LayerRunContext, out: Next, call: Call, mountInside: string | undefined): void {
  const state: RunState = { ctx, out, done: false, mountBefore: undefined, next: out };
  state.next = (err?: unknown) => finish(state, err);
  if (mountInside !== undefined && mountInside !== ctx.mountPath) {
    state.mountBefore = ctx.mountPath;
    (ctx.req as Record<symbol, string>)[kMountPath] = mountInside;
  }
  layerRuns.start.runStores(ctx, start, undefined, state, call);
}

function start(state: RunState, call: Call): void {
  const ctx = state.ctx;
  let ret: unknown;
  try {
    ret = call(ctx, state.next);
  } catch (thrown) {
    fail(ctx, thrown);
    layerRuns.end.publish(ctx);
    finish(state, thrown);
    return;
  }
  ctx.result = ret;
  layerRuns.end.publish(ctx);
  if (state.done) return;
  if (isThenable(ret)) {
    ret.then(
      (value) => {
        if (state.done) return;
        ctx.result = value;
        complete(state);
      },
      (reason: unknown) => finish(state, rejectionError(reason)),
    );
    return;
  }
  const res = ctx.res as Response | null;
  if (res !== null && typeof res === 'object' && typeof res.once === 'function') waitForClose(res, state);
}

interface Response {
  once(event: 'close', listener: (this: Response) => void): unknown;
  [kWaiting]?: RunState[] | undefined;
}

/**
 * The run ends when the response closes (node emits 'close' once it has
 * finished, or when the connection is lost before). One listener per
 * response however many runs wait: nested routers would otherwise pass
 * node's listener limit. (on-finished was tried: under pipelining its
 * per-call socket listeners kept requests alive.)
 */
function waitForClose(res: Response, state: RunState): void {
  let waiting = res[kWaiting];
  if (waiting === undefined) {
    waiting = res[kWaiting] = [];
    res.once('close', completeWaiting);
  }
  waiting.push(state);
}

/** Innermost first, as the runs nest. */
function completeWaiting(this: Response): void {
  const waiting = this[kWaiting]!;
  this[kWaiting] = undefined;
  for (let i = waiting.length - 1; i >= 0; i--) complete(waiting[i]!);
}

/** Reports an error once, however many ways it arrives (thrown, then passed on). */
function fail(ctx: LayerRunContext, err: unknown): void {
  if (ctx.error === err) return;
  ctx.error = err;
  layerRuns.error.publish(ctx);
}

function leave(state: RunState): void {
  state.done = true;
  if (state.mountBefore !== undefined) (state.ctx.req as Record<symbol, string>)[kMountPath] = state.mountBefore;
}

/** The handler called `next` (or failed): the run is over and the walk goes on. */
function finish(state: RunState, err: unknown): void {
  if (state.done) {
    state.out(err);
    return;
  }
  leave(state);
  if (err && err !== 'route' && err !== 'router') fail(state.ctx, err);
  layerRuns.asyncStart.runStores(state.ctx, goOn, undefined, state, err);
}

function goOn(state: RunState, err: unknown): void {
  try {
    state.out(err);
  } finally {
    layerRuns.asyncEnd.publish(state.ctx);
  }
}

/** The handler's part is over without `next`: its promise resolved, or the response finished. */
function complete(state: RunState): void {
  if (state.done) return;
  leave(state);
  layerRuns.asyncStart.publish(state.ctx);
  layerRuns.asyncEnd.publish(state.ctx);
}
