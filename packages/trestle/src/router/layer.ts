// A layer is one entry of a router's or a route's stack: a handler, and for
// router layers the path it answers to.
import type { CompiledPath, Params, PathKey, PathMatch } from './path/compiled';
import { settle } from './settle';
import { layerRuns } from '../observability/channels';
import { traceLayer } from '../observability/layer-run';
import { type StandIn, traceHandle } from '../observability/orchestrion';

// Read once per layer run: a module binding, not a property chain.
const runs = layerRuns;

/** A handler as the router sees it: loosely typed, since it calls any of them. */
export type AnyHandler = (...args: never[]) => unknown;
type Next = (err?: unknown) => void;
type Call3 = (req: unknown, res: unknown, next: Next) => unknown;
type Call4 = (err: unknown, req: unknown, res: unknown, next: Next) => unknown;

export class Layer {
  /** An own property (a class field), so an accessor put on a prototype (express-async-errors' `handle`) is not reached. */
  handle: AnyHandler;
  name: string;
  /** Set by the last successful `match`, read right after it (Express-style). */
  params: Params | undefined = undefined;
  path: string | undefined = undefined;
  keys: PathKey[];
  method: string | undefined = undefined;
  route: unknown = undefined;
  /** The compiled paths the layer matches with, one per path it was given. */
  matchers: CompiledPath[];
  /** Express 5's flag for `use('/')` layers; set by the v5 profile (see RouterShape.exposeLayer). */
  declare slash?: boolean;
  /** Express 4's path regular expression, with `fast_slash`/`fast_star`; set by the v4 profile. */
  declare regexp?: RegExp;
  /** `true` for `use('/')`: matches every path, consumes nothing. */
  readonly matchesAll: boolean;
  readonly isErrorHandler: boolean;
  /** A `use(fn)` middleware without a mount path: runs for every request that reaches it without an error. */
  readonly runsAlways: boolean;
  /** The Express module whose channels the generation's layers publish on (see layerClass); on the prototype. */
  declare readonly _standIn: StandIn | undefined;

  constructor(matchers: CompiledPath[], fn: AnyHandler, matchesAll = false) {
    this.handle = fn;
    this.name = fn.name || '<anonymous>';
    this.matchers = matchers;
    this.keys = matchers.length === 1 ? matchers[0]!.keys : matchers.flatMap((m) => m.keys);
    this.matchesAll = matchesAll;
    // Four declared parameters mark an error handler, as in Express.
    this.isErrorHandler = fn.length === 4;
    this.runsAlways = matchesAll && !this.isErrorHandler;
  }

  /** Matches `path`; throws a 400 error for malformed percent-encoding. */
  match(path: string): boolean {
    let found: PathMatch | null = null;
    for (let i = 0; i < this.matchers.length && found === null; i++) found = this.matchers[i]!.match(path);
    if (found === null) {
      this.params = undefined;
      this.path = undefined;
      return false;
    }
    this.params = found.params;
    this.path = found.path;
    return true;
  }

  handleError(err: unknown, req: unknown, res: unknown, next: Next): void {
    if (!this.isErrorHandler) {
      next(err);
      return;
    }
    if (runs.hasSubscribers) {
      traceLayer(this, true, err, req, res, next);
      return;
    }
    try {
      settle((this.handle as unknown as Call4)(err, req, res, next), next);
    } catch (thrown) {
      next(thrown);
    }
  }

  /**
   * Runs the handler for a request (error handlers pass it on). Published on
   * the generation's Express channel when someone listens, as Sentry 11's
   * rewrite of Express's own method publishes (observability/orchestrion.ts).
   */
  handleRequest(req: unknown, res: unknown, next: Next): void {
    const standIn = this._standIn;
    if (standIn !== undefined && standIn.handle.start.hasSubscribers) traceHandle(standIn.handle, this, req, res, next, runRequest);
    else runRequest(this, req, res, next);
  }
}

/** What `handleRequest` does: run the handler unless it is an error handler, a promise's rejection passed to `next`. */
function runRequest(layer: Layer, req: unknown, res: unknown, next: Next): void {
  if (layer.isErrorHandler) {
    next();
    return;
  }
  if (runs.hasSubscribers) {
    traceLayer(layer, false, undefined, req, res, next);
    return;
  }
  try {
    settle((layer.handle as unknown as Call3)(req, res, next), next);
  } catch (thrown) {
    next(thrown);
  }
}

/** What a generation's layers have beyond the core's. */
export interface LayerShape {
  /** The Express module whose diagnostics channels its layers and routers publish on, as Sentry 11 expects. */
  standIn?: StandIn | undefined;
  /** Members of its layers' prototype (Express 4's `handle_request`, `handle_error`). */
  layerMembers?: PropertyDescriptorMap | undefined;
}

// The core's own layers (the legacy route table's) publish on no Express channel.
Object.defineProperty(Layer.prototype, '_standIn', { value: undefined });

const classes = new WeakMap<LayerShape, typeof Layer>();

/**
 * The layer class of a generation, one per generation as each Express has
 * its own: what tools patch on `Layer.prototype` (Express 4's
 * `express/lib/router/layer`) reaches that generation's layers and no other.
 */
export function layerClass(shape: LayerShape): typeof Layer {
  let cls = classes.get(shape);
  if (cls === undefined) {
    // Named `Layer` as Express's is: tools read `layer.constructor.name`.
    cls = { Layer: class extends Layer {} }.Layer;
    Object.defineProperty(cls.prototype, '_standIn', { value: shape.standIn });
    if (shape.layerMembers !== undefined) Object.defineProperties(cls.prototype, shape.layerMembers);
    classes.set(shape, cls);
  }
  return cls;
}
