// The diagnostics channels Sentry 11 listens on for Express. Sentry no longer
// patches Express: its load hook (orchestrion) rewrites two methods of the
// files it knows as they load, so they publish on tracing channels:
// `Layer.prototype.handle_request` of `express/lib/router/layer.js` (Express
// 4) or `handleRequest` of `router/lib/layer.js` (Express 5) on
// `orchestrion:<module>:handle`, and `Router.prototype.route`/`use` on
// `orchestrion:<module>:register`. Trestle has neither file, so it publishes
// the same events itself, with the same context objects, from the same
// methods: a v5 layer as `router`, a v4 layer as `express` (the generation's
// profile names its channels). Nobody listening costs one `hasSubscribers`
// check per layer run. Sentry subscribes only once it has seen one of those
// modules load; `announceStandIn` tells it trestle stands in for them.
import type { TracingChannel } from 'node:diagnostics_channel';
import { namedTracingChannel } from '../platforms/diagnostics';

/** The module trestle stands in for, and its two channels. */
export interface StandIn {
  module: 'express' | 'router';
  handle: TracingChannel<unknown, HandleContext>;
  register: TracingChannel<unknown, RegisterContext>;
}

/**
 * What orchestrion's wrapper publishes for a call: its arguments (for
 * `handle`, `[req, res, next]` with `next` the wrapper's own), the object
 * it was called on (the layer, or the router), and, once known, `error` or
 * `result` (absent until then: subscribers test `'result' in ctx`).
 */
export interface HandleContext {
  arguments: unknown[];
  self: unknown;
  moduleVersion: string | undefined;
  error?: unknown;
  result?: unknown;
}
export type RegisterContext = HandleContext;

type Next = (err?: unknown) => void;

function standIn(module: StandIn['module']): StandIn {
  return {
    module,
    handle: namedTracingChannel<HandleContext>(`orchestrion:${module}:handle`),
    register: namedTracingChannel<RegisterContext>(`orchestrion:${module}:register`),
  };
}

/** Express 4's `express/lib/router/*`, for trestle/v4. */
export const expressStandIn = standIn('express');
/** Express 5's `router` package, for trestle. */
export const routerStandIn = standIn('router');

/**
 * Runs a layer's `handle_request`/`handleRequest` body as orchestrion's
 * callback wrapper does: `start` with the subscribers' stores entered,
 * `next` replaced by one that publishes `error` (for any truthy argument,
 * `'route'` included) and runs the rest of the walk between `asyncStart`
 * (stores entered) and `asyncEnd`, and `end` when the method returns.
 */
export function traceHandle<L>(channel: StandIn['handle'], layer: L, req: unknown, res: unknown, next: Next, run: (layer: L, req: unknown, res: unknown, next: Next) => void): void {
  const ctx: HandleContext = { arguments: [req, res, next], self: layer, moduleVersion: undefined };
  const wrappedNext = (err?: unknown, result?: unknown): void => {
    if (err) {
      ctx.error = err;
      channel.error.publish(ctx);
    } else {
      ctx.result = result;
    }
    channel.asyncStart.runStores(ctx, () => {
      try {
        next(err);
      } finally {
        channel.asyncEnd.publish(ctx);
      }
    });
  };
  ctx.arguments[2] = wrappedNext;
  publishCall(channel, ctx, () => run(layer, req, res, wrappedNext));
}

/** Runs `router.use(...)`/`router.route(path)` as orchestrion's synchronous wrapper does: `start`, then `end` with the result. */
export function traceRegister<R, T>(channel: StandIn['register'], router: R, args: unknown[], run: (router: R, args: unknown[]) => T): T {
  const ctx: RegisterContext = { arguments: args, self: router, moduleVersion: undefined };
  return publishCall(channel, ctx, () => (ctx.result = run(router, args)));
}

/** `call` between `start` (the subscribers' stores entered) and `end`; a throw is published on `error` and rethrown. */
function publishCall<T>(channel: StandIn['handle'], ctx: HandleContext, call: () => T): T {
  return channel.start.runStores(ctx, () => {
    try {
      return call();
    } catch (err) {
      ctx.error = err;
      channel.error.publish(ctx);
      throw err;
    } finally {
      channel.end.publish(ctx);
    }
  });
}

/**
 * What trestle reads of Sentry's globals: its orchestrion marker, and its
 * client's event hook. Another package's state, read because no other way
 * exists: Sentry's public `getClient()` lives in `@sentry/core`, which
 * trestle does not depend on and cannot resolve for sure (the app may
 * bundle it, or hold several copies); the versioned carrier on
 * `globalThis.__SENTRY__` is what every copy of `@sentry/core` itself reads
 * to find the client, so it is the one place all of them agree on. Read
 * only, when an app is made, and only once Sentry marked its injection set
 * up; sentry11.test.ts checks it against the real Sentry 11 on every Node.
 */
interface SentryGlobals {
  __SENTRY_ORCHESTRION__?: object;
  __SENTRY__?: { version?: string } & Record<string, { defaultCurrentScope?: { getClient?(): { emit?(hook: string, ...args: unknown[]): void } | undefined } } | string | undefined>;
}

const announced = new Set<string>();

/**
 * Tells Sentry 11 that trestle stands in for `express` or `router`, as its
 * load hook or bundler plugin does when that module loads: the event
 * `orchestrion.module-injected` on Sentry's client, after which its Express
 * integration subscribes to the channels above. Called when an app is
 * created; does nothing (and is tried again at the next app) until Sentry
 * has set up its injection and its client, and nothing at all without Sentry.
 */
export function announceStandIn(standInOf: StandIn | undefined): void {
  if (standInOf === undefined || announced.has(standInOf.module)) return;
  const globals = globalThis as SentryGlobals;
  if (globals.__SENTRY_ORCHESTRION__ === undefined) return;
  const carrier = globals.__SENTRY__;
  const hub = carrier?.version === undefined ? undefined : carrier[carrier.version];
  const client = typeof hub === 'object' ? hub.defaultCurrentScope?.getClient?.() : undefined;
  if (typeof client?.emit !== 'function') return;
  announced.add(standInOf.module);
  client.emit('orchestrion.module-injected', standInOf.module);
}
