// Which answers go back base64-encoded. Lambda's result carries the body as a
// string: text is sent as it is, anything else as base64 with
// `isBase64Encoded`, or its bytes would be mangled on the way.
import { createError } from '../../errors';
import type { BinarySetting } from './types';

/** Decides one answer: its Content-Type, its headers, its bytes. */
export type BinaryRule = (contentType: string, headers: Headers, body: Uint8Array) => boolean;

/** Types that are text besides `text/*`, `*+json` and `*+xml`. */
const TEXT_TYPES = new Set(['application/json', 'application/javascript', 'application/ecmascript', 'application/x-javascript', 'application/xml', 'application/x-www-form-urlencoded', 'application/graphql']);

const utf8 = new TextDecoder('utf-8', { fatal: true });

/** The media type without parameters, lower-cased. */
function mediaType(contentType: string): string {
  const semi = contentType.indexOf(';');
  return (semi < 0 ? contentType : contentType.slice(0, semi)).trim().toLowerCase();
}

function isText(type: string): boolean {
  return type.startsWith('text/') || TEXT_TYPES.has(type) || type.endsWith('+json') || type.endsWith('+xml');
}

/** Valid UTF-8: an answer without a Content-Type is text when its bytes are. */
function isUtf8(body: Uint8Array): boolean {
  try {
    utf8.decode(body);
    return true;
  } catch {
    return false;
  }
}

/**
 * The default: compressed (any Content-Encoding but identity) is binary;
 * text, JSON, XML, JavaScript and forms are text; a body without a type is
 * text if it is valid UTF-8; every other type is binary.
 */
export function defaultBinary(contentType: string, headers: Headers, body: Uint8Array): boolean {
  const encoding = headers.get('content-encoding');
  if (encoding !== null && encoding.trim().toLowerCase() !== 'identity') return true;
  if (contentType === '') return !isUtf8(body);
  return !isText(mediaType(contentType));
}

/** A type or glob (`image/*`, `application/vnd.*`, `*\/*`) as a test of a media type. */
function matcher(pattern: string): (type: string) => boolean {
  const p = pattern.trim().toLowerCase();
  if (!p.includes('*')) return (type) => type === p;
  const re = new RegExp(`^${p.split('*').map((part) => part.replace(/[.+?^${}()|[\]\\/]/g, '\\$&')).join('.*')}$`);
  return (type) => re.test(type);
}

/** The rule for `options.binary`: the default, the default plus listed types, or the user's function. */
export function binaryRule(setting: BinarySetting | undefined): BinaryRule {
  if (setting === undefined) return defaultBinary;
  if (typeof setting === 'function') return (contentType, headers) => setting(contentType, headers) === true;
  if (!Array.isArray(setting) || setting.some((s) => typeof s !== 'string')) {
    throw createError(TypeError, 'TRESTLE_ERR_INVALID_OPTION', 'lambda(): option binary must be an array of media types or a function');
  }
  const tests = setting.map(matcher);
  return (contentType, headers, body) => {
    const type = mediaType(contentType);
    return tests.some((test) => test(type)) || defaultBinary(contentType, headers, body);
  };
}
