// node:diagnostics_channel's channels with `hasSubscribers` as node has it:
// a boolean property, read before anything is built for subscribers. Other
// runtimes' copies of the module differ: workerd's (Cloudflare Workers) has
// it as a method, always truthy if read as a property, which would trace
// every layer run, and its tracing stores cannot run at a Worker's global
// scope (where `app.use()` is called). node before 20.13 has no
// TracingChannel#hasSubscribers at all. The observability modules take their
// channels from here, so they read one shape everywhere.
import { channel, tracingChannel, type Channel, type TracingChannel } from 'node:diagnostics_channel';

/** The five channels a TracingChannel publishes on. */
const PARTS = ['start', 'end', 'asyncStart', 'asyncEnd', 'error'] as const;

/**
 * A channel whose `hasSubscribers` is a method gets an own getter calling it
 * (once per channel, at load); true when it was one. Without the compatibility
 * flag `diagnostics_channel_has_subscribers_getter`, workerd's is a method.
 */
function asProperty(target: object): boolean {
  const method: unknown = (target as { hasSubscribers?: unknown }).hasSubscribers;
  if (typeof method !== 'function') return false;
  Object.defineProperty(target, 'hasSubscribers', { get: () => Boolean(method.call(target)) });
  return true;
}

/** `diagnostics_channel.channel(name)`, `hasSubscribers` a boolean. */
export function namedChannel<M>(name: string): Channel<M> {
  const made = channel(name);
  asProperty(made);
  return made as Channel<M>;
}

/** `diagnostics_channel.tracingChannel(name)`, `hasSubscribers` a boolean on it and on each of its channels. */
export function namedTracingChannel<C extends object>(name: string): TracingChannel<unknown, C> & { readonly hasSubscribers: boolean } {
  const made = tracingChannel(name) as TracingChannel<unknown, C> & { readonly hasSubscribers: boolean };
  const hasMethod = typeof (made as { hasSubscribers?: unknown }).hasSubscribers === 'function';
  let changed = false;
  for (const part of PARTS) changed = asProperty(made[part]) || changed;
  // Its own method (workerd) would call its channels' as methods: it is replaced by a getter reading them.
  if (changed || hasMethod || !('hasSubscribers' in made)) {
    Object.defineProperty(made, 'hasSubscribers', {
      // Read per layer run when nobody listens: plain reads, no callback made per call.
      get(this: TracingChannel<unknown, C>): boolean {
        return this.start.hasSubscribers || this.end.hasSubscribers || this.asyncStart.hasSubscribers || this.asyncEnd.hasSubscribers || this.error.hasSubscribers;
      },
    });
  }
  return made;
}
