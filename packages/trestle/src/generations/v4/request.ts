// Request members of the generations before v5 that differ from the core's:
// v4's deprecated aliases (`req.host` without port, the singular accepts*,
// `req.param`), and legacy's `req.accepted*` lists and return values.
import depd from 'depd';
import type { IncomingMessage } from 'node:http';
import { convertedMethod, negotiationMembers } from '../../request/negotiation';

// depd finds the user's call site from the module that created it: one per module.
const deprecate = depd('trestle');

interface ParamSources {
  params?: Record<string, unknown>;
  body?: unknown;
  query?: unknown;
  hostname?: string | undefined;
  headers: IncomingMessage['headers'];
}

/** `req.param(name, default)`: params, then body, then query. */
function lookupParam(req: ParamSources, name: string, defaultValue?: unknown): unknown {
  const params = req.params ?? {};
  const body = (req.body ?? {}) as Record<string, unknown>;
  const query = (req.query ?? {}) as Record<string, unknown>;
  if (params[name] != null && Object.prototype.hasOwnProperty.call(params, name)) return params[name];
  if (body[name] != null) return body[name];
  if (query[name] != null) return query[name];
  return defaultValue;
}

function alias(name: string): PropertyDescriptor {
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

/** An entry of `req.accepted`: `text/html;level=1;q=0.8` read apart. */
export interface AcceptedType {
  value: string;
  quality: number;
  type: string;
  subtype: string;
  params: Record<string, string>;
}

/** Splits an Accept-style header into entries, best quality first, dropping q=0. */
function parseAcceptList(header: string | undefined): Array<{ value: string; quality: number; params: Record<string, string> }> {
  if (!header) return [];
  const entries = header.split(',').map((part, index) => {
    const [value = '', ...rest] = part.split(';').map((s) => s.trim());
    const entry = { value, quality: 1, params: {} as Record<string, string>, index };
    for (const p of rest) {
      const eq = p.indexOf('=');
      const key = (eq === -1 ? p : p.slice(0, eq)).trim();
      const val = eq === -1 ? '' : p.slice(eq + 1).trim();
      if (key === 'q') entry.quality = Number.parseFloat(val);
      else entry.params[key] = val;
    }
    return entry;
  });
  return entries
    .filter((e) => e.value !== '' && e.quality > 0)
    .sort((a, b) => b.quality - a.quality || a.index - b.index)
    .map(({ value, quality, params }) => ({ value, quality, params }));
}

export const legacyRequest: PropertyDescriptorMap = {
  host: {
    configurable: true,
    enumerable: true,
    get(this: ParamSources) {
      return this.hostname;
    },
  },
  accepts: convertedMethod(negotiationMembers.accepts, (r) => (r === false ? undefined : r)),
  is: convertedMethod(negotiationMembers.is, (r) => typeof r === 'string'),
  acceptsCharset: alias('acceptsCharsets'),
  acceptsEncoding: alias('acceptsEncodings'),
  acceptsLanguage: alias('acceptsLanguages'),
  param: {
    configurable: true,
    enumerable: true,
    writable: true,
    value: function param(this: ParamSources, name: string, defaultValue?: unknown) {
      return lookupParam(this, name, defaultValue);
    },
  },
  /** Media types the client accepts, best first, read apart into type and subtype. */
  accepted: {
    configurable: true,
    enumerable: true,
    get(this: ParamSources): AcceptedType[] {
      return parseAcceptList(this.headers.accept).map((e) => {
        const slash = e.value.indexOf('/');
        return { ...e, type: slash === -1 ? e.value : e.value.slice(0, slash), subtype: slash === -1 ? '' : e.value.slice(slash + 1) };
      });
    },
  },
  acceptedCharsets: {
    configurable: true,
    enumerable: true,
    get(this: ParamSources): string[] {
      return parseAcceptList(this.headers['accept-charset'] as string | undefined).map((e) => e.value);
    },
  },
  acceptedLanguages: {
    configurable: true,
    enumerable: true,
    get(this: ParamSources): string[] {
      return parseAcceptList(this.headers['accept-language']).map((e) => e.value);
    },
  },
};
