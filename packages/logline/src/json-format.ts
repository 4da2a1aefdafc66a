// The `json` predefined format: one JSON object per line, for log pipelines.
// Values come from the tokens handed to the format (so redefining a token
// changes its field too) and are typed: numbers as numbers, a missing value
// (undefined, null, '' or '-') as null. Strings are JSON-escaped only: the
// tokens are called as defined, not through the escaping wrappers format
// functions get, so a field holds what the client sent. JSON.stringify
// escapes C0, `"` and `\`; escapeJson adds DEL, C1 and U+2028/U+2029. A
// line is one line, and JSON.parse gives back the values.
import { callToken } from './compile.js';
import { escapeJson } from './escape.js';
import { definedToken } from './tokens.js';
import type { FormatFn, LoglineRequest, LoglineResponse, TokenIndexer, TokenValue } from './types.js';

function valueOf(
  tokens: TokenIndexer,
  name: string,
  req: LoglineRequest,
  res: LoglineResponse,
  arg?: string,
): TokenValue {
  const fn = definedToken(tokens, name);
  return typeof fn === 'function' ? callToken(fn, req, res, arg) : undefined;
}

/** A string field: null when missing, else a JSON string. */
function text(value: TokenValue): string {
  if (value === undefined || value === null || value === '' || value === '-') return 'null';
  const str = String(value);
  // Most values need no escaping at all: quoting them is all JSON.stringify would do.
  return JSON_PLAIN.test(str) ? '"' + str + '"' : escapeJson(JSON.stringify(str));
}

/** A number field: null when missing or not a finite number. */
function num(value: TokenValue): string {
  if (value === undefined || value === null || value === '' || value === '-') return 'null';
  const n = Number(value);
  // For a finite number, String() and JSON.stringify() write the same text.
  return Number.isFinite(n) ? String(n) : 'null';
}

/** Printable ASCII without `"` and `\`: such a string is its own JSON body. */
const JSON_PLAIN = /^[\x20\x21\x23-\x5b\x5d-\x7e]*$/;

// The line is written field by field, in a fixed order: JSON.stringify of a
// fresh twelve-key object was the largest share of a json-logged request.
export const jsonFormat: FormatFn = (tokens, req, res) =>
  '{"date":' + text(valueOf(tokens, 'date', req, res, 'iso')) +
  ',"remote-addr":' + text(valueOf(tokens, 'remote-addr', req, res)) +
  ',"remote-user":' + text(valueOf(tokens, 'remote-user', req, res)) +
  ',"method":' + text(valueOf(tokens, 'method', req, res)) +
  ',"url":' + text(valueOf(tokens, 'url', req, res)) +
  ',"http-version":' + text(valueOf(tokens, 'http-version', req, res)) +
  ',"status":' + num(valueOf(tokens, 'status', req, res)) +
  ',"content-length":' + num(valueOf(tokens, 'res', req, res, 'content-length')) +
  ',"referrer":' + text(valueOf(tokens, 'referrer', req, res)) +
  ',"user-agent":' + text(valueOf(tokens, 'user-agent', req, res)) +
  ',"response-time":' + num(valueOf(tokens, 'response-time', req, res)) +
  ',"total-time":' + num(valueOf(tokens, 'total-time', req, res)) +
  '}';
