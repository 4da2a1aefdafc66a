// Request members of the generation before v4 (Express 3): `req.accepted*`
// lists, `req.accepts`/`req.is` answering `undefined`/booleans, `req.host`
// and `req.param` without deprecation warnings.
import { convertedMethod, negotiationMembers } from '../../request/negotiation';
import type { AcceptedType } from '../../types';
import { alias, lookupParam, type ParamSources } from '../v4/request';


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
  /** The Accept-Encoding entries as the client wrote them (Express 3 did not sort them), `[]` without the header. */
  acceptedEncodings: {
    configurable: true,
    enumerable: true,
    get(this: ParamSources): string[] {
      const accept = this.headers['accept-encoding'];
      return accept ? accept.trim().split(/ *, */) : [];
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
