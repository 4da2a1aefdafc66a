// OpenTelemetry spans for trestle apps, from trestle's diagnostics channels:
// nothing is patched. Spans, attributes, parents and the HTTP server span's
// route are those @opentelemetry/instrumentation-express gives an Express app.
import { tracingChannel, type TracingChannel } from 'node:diagnostics_channel';
import type { AsyncLocalStorage } from 'node:async_hooks';
import { type Context, context, diag, type Span, SpanStatusCode, trace } from '@opentelemetry/api';
import { getRPCMetadata, RPCType } from '@opentelemetry/core';
import { InstrumentationBase, safeExecuteInTheMiddle } from '@opentelemetry/instrumentation';
import { constructedRoute, isIgnored, layerMetadata, matchedRoute } from './route';
import type { LayerRun, TrestleInstrumentationConfig } from './types';
import { PACKAGE_NAME, PACKAGE_VERSION } from './version';

/** The channel trestle publishes layer runs on (`tracing:trestle.layer:*`). */
export const LAYER_CHANNEL = 'trestle.layer';

/** What this instrumentation keeps on a layer run it made a span for. */
interface RunSpan {
  span: Span | undefined;
  /** The context the layer was entered in: the next layer gets its span back as parent. */
  parent: Context;
}
const kRunSpan = Symbol('trestle-otel.span');
type TracedRun = LayerRun & { [kRunSpan]?: RunSpan };
/** On the request: the span of the route whose handlers are running. */
const kRouteSpan = Symbol('trestle-otel.routeSpan');
type TracedRequest = { [kRouteSpan]?: Span | undefined };

/** What an OpenTelemetry context manager's `attach` gives back (`@opentelemetry/api` 1.10 names it ContextManagementToken). */
interface ContextToken {
  dispose(): void;
  [Symbol.dispose]?(): void;
}
/** `context.attach` (`@opentelemetry/api` >= 1.10) or a context manager's `attach` (context-async-hooks 2.x has it). */
interface Attaching {
  attach?(ctx: Context): ContextToken;
}

/** A token that lacks `Symbol.dispose`, made disposable for node. */
class ContextScope {
  constructor(private readonly token: ContextToken) {}
  [Symbol.dispose](): void {
    this.token.dispose();
  }
}

const noScope = { [Symbol.dispose]: (): void => {} };
let warnedNoAttach = false;

/**
 * Enters `ctx` until the scope is disposed. The public `context.attach` first;
 * with an older @opentelemetry/api, the registered manager's own `attach`
 * (the API keeps the manager behind `_getContextManager`, there since 1.0).
 * Without either the layer still gets its span, but the code it runs does not
 * see it as active: said once through diag.
 */
function attachContext(ctx: Context): { [Symbol.dispose](): void } {
  const api = context as unknown as Attaching & { _getContextManager?(): Attaching };
  const attaching = typeof api.attach === 'function' ? api : api._getContextManager?.();
  if (typeof attaching?.attach !== 'function') {
    if (!warnedNoAttach) diag.warn('trestle instrumentation: the context manager has no attach(); layer spans will not be the active span on this node');
    warnedNoAttach = true;
    return noScope;
  }
  const token = attaching.attach(ctx);
  return typeof token[Symbol.dispose] === 'function' ? (token as Required<ContextToken>) : new ContextScope(token);
}

/**
 * The store bound to trestle's channels. `runStores` enters it in one of two
 * ways, by node version: up to node 25 it calls `store.run(value, fn)`, which
 * runs `fn` in an OpenTelemetry context through the public API (so it works
 * with whichever context manager the application registered); from node 26 it
 * calls `store.withScope(value)` before `fn` and disposes the scope after.
 * A real AsyncLocalStorage of ours would not do: `context.active()` reads the
 * context manager's storage, not ours.
 */
const contextStore = {
  run: (ctx: Context, fn: () => unknown) => context.with(ctx, fn),
  withScope: attachContext,
} as unknown as AsyncLocalStorage<Context>;

function traced(kind: LayerRun['kind']): boolean {
  return kind === 'middleware' || kind === 'router' || kind === 'route';
}

function errorAndMessage(err: unknown): [Error | string, string] {
  return err instanceof Error ? [err, err.message] : [String(err), String(err)];
}

export class TrestleInstrumentation extends InstrumentationBase<TrestleInstrumentationConfig> {
  // Set in enable(), which the base class's constructor calls: no field initialisers.
  declare private channel: TracingChannel<Context, TracedRun> | undefined;
  declare private handlers: { start(run: TracedRun): Context; next(run: TracedRun): Context; error(run: TracedRun): void; over(run: TracedRun): void } | undefined;

  constructor(config: TrestleInstrumentationConfig = {}) {
    super(PACKAGE_NAME, PACKAGE_VERSION, config);
  }

  /** No module to hook: trestle announces its layer runs itself. */
  protected init(): [] {
    return [];
  }

  override enable(): void {
    super.enable();
    if (this.handlers !== undefined) return;
    this.channel = tracingChannel<Context, TracedRun>(LAYER_CHANNEL);
    this.handlers = {
      start: (run) => this.onStart(run),
      next: (run) => this.onNext(run),
      error: (run) => this.onError(run),
      over: (run) => this.onOver(run),
    };
    this.channel.start.bindStore(contextStore, this.handlers.start);
    this.channel.asyncStart.bindStore(contextStore, this.handlers.next);
    this.channel.asyncStart.subscribe(this.handlers.over as (message: unknown) => void);
    this.channel.error.subscribe(this.handlers.error as (message: unknown) => void);
  }

  override disable(): void {
    super.disable();
    const { channel, handlers } = this;
    if (channel === undefined || handlers === undefined) return;
    channel.start.unbindStore(contextStore);
    channel.asyncStart.unbindStore(contextStore);
    channel.asyncStart.unsubscribe(handlers.over as (message: unknown) => void);
    channel.error.unsubscribe(handlers.error as (message: unknown) => void);
    this.handlers = undefined;
  }

  /** A layer starts: the context it runs in (with its span, if it gets one). Never throws: node would make that an uncaught exception. */
  private onStart(run: TracedRun): Context {
    const active = context.active();
    if (!traced(run.kind)) return this.innerContext(run, active);
    try {
      return this.startSpan(run, active);
    } catch (err) {
      diag.error('trestle instrumentation: could not start a layer span', err);
      return active;
    }
  }

  /**
   * A route's handlers run in the route's span, however the previous one
   * called `next`: a body parser calls it from the request stream's events,
   * whose context is the server span's.
   */
  private innerContext(run: TracedRun, active: Context): Context {
    if (run.kind !== 'handler' && !(run.kind === 'error_handler' && run.routePath !== undefined)) return active;
    const span = (run.req as TracedRequest)[kRouteSpan];
    return span === undefined ? active : trace.setSpan(active, span);
  }

  private startSpan(run: TracedRun, active: Context): Context {
    if (run.kind === 'route') (run.req as TracedRequest)[kRouteSpan] = undefined;
    const route = constructedRoute(run);
    const matched = matchedRoute(run, route);
    const rpc = getRPCMetadata(active);
    if (rpc?.type === RPCType.HTTP) rpc.route = matched;
    const metadata = layerMetadata(run, route);
    const config = this.getConfig();
    if (isIgnored(metadata.name, metadata.type, config)) return active;
    if (trace.getSpan(active) === undefined) return active;
    const info = { request: run.req, layerType: metadata.type, route };
    const span = this.tracer.startSpan(this.spanName(info, metadata.name), {
      attributes: matched === undefined ? metadata.attributes : { 'http.route': matched, ...metadata.attributes },
    });
    const { requestHook } = config;
    if (requestHook) {
      safeExecuteInTheMiddle(
        () => requestHook(span, info),
        (e) => e && diag.error('trestle instrumentation: request hook failed', e),
        true,
      );
    }
    // A router's span ends at once and its layers get their own: as the Express instrumentation does.
    if (metadata.type === 'router') {
      span.end();
      run[kRunSpan] = { span: undefined, parent: active };
      return active;
    }
    run[kRunSpan] = { span, parent: active };
    if (run.kind === 'route') (run.req as TracedRequest)[kRouteSpan] = span;
    return trace.setSpan(active, span);
  }

  private spanName(info: { request: unknown; layerType: LayerRun['kind'] | string; route: string }, defaultName: string): string {
    const { spanNameHook } = this.getConfig();
    if (typeof spanNameHook !== 'function') return defaultName;
    try {
      return spanNameHook(info as Parameters<typeof spanNameHook>[0], defaultName) ?? defaultName;
    } catch (err) {
      diag.error('trestle instrumentation: error calling span name rewrite hook', err);
      return defaultName;
    }
  }

  /** The layer called `next`: the rest of the walk runs with the layer's parent span, other context values kept. */
  private onNext(run: TracedRun): Context {
    const active = context.active();
    const parentSpan = run[kRunSpan] === undefined ? undefined : trace.getSpan(run[kRunSpan].parent);
    return parentSpan === undefined ? active : trace.setSpan(active, parentSpan);
  }

  private onError(run: TracedRun): void {
    const span = run[kRunSpan]?.span;
    if (span === undefined || !span.isRecording()) return;
    const [error, message] = errorAndMessage(run.error);
    span.recordException(error);
    span.setStatus({ code: SpanStatusCode.ERROR, message });
  }

  /** The layer's part is over (next called, promise settled, or response finished). */
  private onOver(run: TracedRun): void {
    const state = run[kRunSpan];
    if (state?.span === undefined) return;
    state.span.end();
    state.span = undefined;
  }
}
