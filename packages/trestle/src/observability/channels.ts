// The diagnostics channels trestle publishes (node:diagnostics_channel), so
// tracers, APMs and loggers see each layer run without patching anything.
// Their names are public contract (docs/observability.md): renaming one is a
// breaking change. Each channel object is made once, here; publishers ask
// `hasSubscribers` before building anything, so nobody listening costs one
// check per layer run and no allocation.
import type { TracingChannel } from 'node:diagnostics_channel';
import { namedChannel, namedTracingChannel } from '../platforms/diagnostics';

/** What a layer is to its router, as a subscriber needs to name it. */
export type LayerKind = 'middleware' | 'router' | 'route' | 'handler' | 'error_handler' | 'param';

/** The context object of one layer run, published on every `trestle.layer` channel. */
export interface LayerRunContext {
  req: unknown;
  res: unknown;
  /** The layer (or, in the legacy generation, the route record) being run. */
  layer: unknown;
  /** The layer's name: its handler function's name, `<anonymous>`, `router`, `bound dispatch`... */
  name: string;
  kind: LayerKind;
  /** The path patterns the layer's router is mounted under, joined: '' at the app's root, `/api/:version` in a router mounted there. */
  mountPath: string;
  /** The path the layer was added with (`use('/users', ...)`, a route's path); '/' for `use(fn)`; undefined inside a route. */
  layerPath: string | undefined;
  /** The path of the route the layer belongs to (routes and their handlers). */
  routePath: string | undefined;
  /** For an error handler: the error it is given. */
  handledError?: unknown;
  /** For a param trigger: the parameter's name and value. */
  paramName?: string;
  paramValue?: unknown;
  /** Set when the run failed (thrown, rejected, or passed to `next`), before `error` is published. */
  error?: unknown;
  /** What the handler returned (or its promise resolved to). */
  result?: unknown;
}

/** Published when an app takes a request it answers itself (as a server's listener). */
export interface RequestStartMessage {
  req: unknown;
  res: unknown;
  app: unknown;
}

/** Published when a request reaches the final handler: no layer answered (404), or an error nobody handled. */
export interface RequestFinalMessage extends RequestStartMessage {
  /** The unhandled error; undefined for a 404. */
  error: unknown;
  /** The status the final handler answers with. */
  status: number;
}

export const LAYER_CHANNEL = 'trestle.layer';
export const REQUEST_START_CHANNEL = 'trestle.request.start';
export const REQUEST_FINAL_CHANNEL = 'trestle.request.final';

/** A TracingChannel as node 20.13+ has it (the types of node 20 lack `hasSubscribers`). */
export type LayerChannel = TracingChannel<unknown, LayerRunContext> & { readonly hasSubscribers: boolean };

/** `tracing:trestle.layer:start|end|asyncStart|asyncEnd|error`, around each layer run. */
export const layerRuns: LayerChannel = namedTracingChannel<LayerRunContext>(LAYER_CHANNEL);
export const requestStart = namedChannel<RequestStartMessage>(REQUEST_START_CHANNEL);
export const requestFinal = namedChannel<RequestFinalMessage>(REQUEST_FINAL_CHANNEL);
