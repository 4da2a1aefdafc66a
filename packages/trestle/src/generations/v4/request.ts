// Request members of Express 4 that differ from the core's: the deprecated
// aliases (`req.host` without port, the singular accepts*) and `req.param`.
import depd from 'depd';
import type { IncomingMessage } from 'node:http';
import { negotiationMembers } from '../../request/negotiation';

// depd finds the user's call site from the module that created it: one per module.
const deprecate = depd('trestle');

export interface ParamSources {
  params?: Record<string, unknown>;
  body?: unknown;
  query?: unknown;
  hostname?: string | undefined;
  headers: IncomingMessage['headers'];
}

/** `req.param(name, default)`: params, then body, then query. */
export function lookupParam(req: ParamSources, name: string, defaultValue?: unknown): unknown {
  const params = req.params ?? {};
  const body = (req.body ?? {}) as Record<string, unknown>;
  const query = (req.query ?? {}) as Record<string, unknown>;
  if (params[name] != null && Object.prototype.hasOwnProperty.call(params, name)) return params[name];
  if (body[name] != null) return body[name];
  if (query[name] != null) return query[name];
  return defaultValue;
}

export function alias(name: string): PropertyDescriptor {
  return Object.getOwnPropertyDescriptor(negotiationMembers, name)!;
}

function deprecatedAlias(name: string, old: string): PropertyDescriptor {
  const method = alias(name).value as (...args: unknown[]) => unknown;
  return { configurable: true, enumerable: true, writable: true, value: deprecate.function(method, `req.${old}: Use ${name} instead`) };
}

export const v4Request: PropertyDescriptorMap = {
  host: {
    configurable: true,
    enumerable: true,
    get(this: ParamSources) {
      deprecate('req.host: Use req.hostname instead');
      return this.hostname;
    },
  },
  acceptsCharset: deprecatedAlias('acceptsCharsets', 'acceptsCharset'),
  acceptsEncoding: deprecatedAlias('acceptsEncodings', 'acceptsEncoding'),
  acceptsLanguage: deprecatedAlias('acceptsLanguages', 'acceptsLanguage'),
  param: {
    configurable: true,
    enumerable: true,
    writable: true,
    value: function param(this: ParamSources, name: string, defaultValue?: unknown) {
      deprecate(`req.param(${arguments.length === 1 ? 'name' : 'name, default'}): Use req.params, req.body, or req.query instead`);
      return lookupParam(this, name, defaultValue);
    },
  },
};
