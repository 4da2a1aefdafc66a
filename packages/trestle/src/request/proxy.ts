// The request properties that depend on who is asking: the client address,
// the scheme and the host. Each one trusts the `X-Forwarded-*` headers only
// as far as the compiled `trust proxy fn` setting allows, and each is a lazy
// getter: a request that never reads them pays nothing.
import { isIP } from 'node:net';
import type { IncomingMessage } from 'node:http';
import { TRUST_NONE, type TrustFn } from '../app/settings';
import { lazy } from '../lazy';

/** Loaded when a proxy is trusted, or `req.ips` read: with no proxy the socket's address is the answer. */
const proxyaddr = lazy(() => require('proxy-addr') as typeof import('proxy-addr'));

/** What these members read from the request. */
interface ProxyState {
  headers: Record<string, string | string[] | undefined>;
  socket: { remoteAddress?: string | undefined; encrypted?: boolean };
  app: { settings: Record<string, unknown> };
}

function trustOf(req: ProxyState): TrustFn {
  return req.app.settings['trust proxy fn'] as TrustFn;
}

/** Does the setting trust the peer that sent us this request? */
function peerTrusted(req: ProxyState): boolean {
  return trustOf(req)(req.socket.remoteAddress as string, 0);
}

/**
 * The first value of a forwarded header. Node joins a repeated
 * `X-Forwarded-*` header with `, `, so this also takes the first occurrence.
 */
function firstValue(value: string): string {
  const comma = value.indexOf(',');
  return comma === -1 ? value.trim() : value.slice(0, comma).trim();
}

function headerOf(req: ProxyState, name: string): string | undefined {
  const value = req.headers[name];
  return Array.isArray(value) ? value.join(', ') : value;
}

/**
 * The host and port the client asked for. A trusted peer's
 * `X-Forwarded-Host` wins over `Host`; an empty first value there gives
 * `undefined`, as in Express 5.
 */
function hostOf(req: ProxyState): string | undefined {
  let value = headerOf(req, 'x-forwarded-host');
  if (!value || !peerTrusted(req)) value = headerOf(req, 'host');
  else value = firstValue(value);
  return value || undefined;
}

/** `host` without its port; an IPv6 literal keeps its brackets. */
function hostnameOf(host: string): string {
  const from = host.charCodeAt(0) === 91 /* [ */ ? host.indexOf(']') + 1 : 0;
  const colon = host.indexOf(':', from);
  return colon === -1 ? host : host.slice(0, colon);
}

export const proxyMembers = {
  /** `http` or `https`; a trusted peer's `X-Forwarded-Proto` (first value) wins. */
  get protocol(): string {
    const self = this as unknown as ProxyState;
    const own = self.socket.encrypted ? 'https' : 'http';
    if (!peerTrusted(self)) return own;
    const forwarded = headerOf(self, 'x-forwarded-proto');
    return forwarded ? firstValue(forwarded) : own;
  },

  get secure(): boolean {
    return (this as unknown as { protocol: string }).protocol === 'https';
  },

  /** The client address: the socket's, or the nearest untrusted forwarded one. */
  get ip(): string | undefined {
    const self = this as unknown as ProxyState;
    const trust = trustOf(self);
    // Trusting no proxy, the answer is the socket's: no need to parse X-Forwarded-For.
    if (trust === TRUST_NONE) return self.socket.remoteAddress;
    return proxyaddr()(self as unknown as IncomingMessage, trust);
  },

  /** Forwarded addresses up to the first untrusted one, client first; `[]` when none are trusted. */
  get ips(): string[] {
    const self = this as unknown as ProxyState;
    const addrs = proxyaddr().all(self as unknown as IncomingMessage, trustOf(self));
    // `all` lists the socket address first and the client last.
    addrs.reverse();
    addrs.pop();
    return addrs;
  },

  /** v5: the host with its port, from `Host` (or a trusted `X-Forwarded-Host`). */
  get host(): string | undefined {
    return hostOf(this as unknown as ProxyState);
  },

  get hostname(): string | undefined {
    const host = hostOf(this as unknown as ProxyState);
    return host === undefined ? undefined : hostnameOf(host);
  },

  /**
   * Labels of the host name left of the last `subdomain offset` ones,
   * nearest first. An IP address counts as one label, so with the default
   * offset it has no subdomains.
   */
  get subdomains(): string[] {
    const self = this as unknown as ProxyState;
    const host = hostOf(self);
    if (host === undefined) return [];
    const hostname = hostnameOf(host);
    if (hostname === '') return [];
    const offset = self.app.settings['subdomain offset'] as number;
    const labels = hostname.charCodeAt(0) === 91 /* [ */ || isIP(hostname) !== 0 ? [hostname] : hostname.split('.').reverse();
    return labels.slice(offset);
  },
};
