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
import { definedToken, registeredTokensOf, tokens as registeredTokens } from './tokens.js';
import type { FormatFn, TokenCallback, TokenValue } from './types.js';

/** A string field: null when missing, else a JSON string; `plain` text needs no escaping (registeredTokensOf). */
function text(value: TokenValue, plain: boolean): string {
  if (value === undefined || value === null || value === '' || value === '-') return 'null';
  const str = String(value);
  // Most values need no escaping at all: quoting them is all JSON.stringify would do.
  return plain || JSON_PLAIN.test(str) ? '"' + str + '"' : escapeJson(JSON.stringify(str));
}

/** A number field: null when missing or not a finite number. */
function num(value: TokenValue): string {
  if (value === undefined || value === null || value === '' || value === '-') return 'null';
  if (typeof value === 'string' && SHORTEST_NUMBER.test(value)) return value;
  const n = Number(value);
  // For a finite number, String() and JSON.stringify() write the same text.
  return Number.isFinite(n) ? String(n) : 'null';
}

/**
 * Text that already is what String(Number(text)) gives back, as the
 * durations' toFixed text mostly is (`0.004`, `12.345`) and statuses are:
 * no leading zero, no trailing decimal zero, at most 12 integer digits and
 * 3 decimals. 15 significant digits at most survive a double unchanged, and
 * such a number is written without an exponent. It skips the two
 * conversions, a fifth of a json line.
 */
const SHORTEST_NUMBER = /^(?:0|[1-9]\d{0,11})(?:\.\d{0,2}[1-9])?$/;

/** Printable ASCII without `"` and `\`: such a string is its own JSON body. */
const JSON_PLAIN = /^[\x20\x21\x23-\x5b\x5d-\x7e]*$/;

interface Field {
  /** What comes before the value: `{` or the separator, and the quoted key. */
  key: string;
  token: string;
  arg: string | undefined;
  numeric: boolean;
}

type FieldSpec = [name: string, numeric: boolean, token?: string, arg?: string];

// The fields in their fixed order.
const FIELDS: readonly Field[] = (
  [
    ['date', false, 'date', 'iso'],
    ['remote-addr', false],
    ['remote-user', false],
    ['method', false],
    ['url', false],
    ['http-version', false],
    ['status', true],
    ['content-length', true, 'res', 'content-length'],
    ['referrer', false],
    ['user-agent', false],
    ['response-time', true],
    ['total-time', true],
  ] as FieldSpec[]
).map(([name, numeric, token = name, arg], i) => ({ key: (i === 0 ? '{' : ',') + JSON.stringify(name) + ':', token, arg, numeric }));

// The registry's tokens behind the fields, and whether their text needs escaping.
const registeredOf = registeredTokensOf(FIELDS.map((f) => f.token));

function fieldText(fn: TokenCallback | undefined, isPlain: boolean, f: Field, req: Parameters<FormatFn>[1], res: Parameters<FormatFn>[2]): string {
  const value = typeof fn === 'function' ? callToken(fn, req, res, f.arg) : undefined;
  return f.numeric ? num(value) : text(value, isPlain);
}

// The line is written field by field, in a fixed order: JSON.stringify of a
// fresh twelve-key object was the largest share of a json-logged request.
export const jsonFormat: FormatFn = (tokens, req, res) => {
  const registered = tokens === registeredTokens;
  const { fns, plain } = registeredOf();
  let line = '';
  for (let i = 0; i < FIELDS.length; i++) {
    const f = FIELDS[i] as Field;
    const value = registered
      ? fieldText(fns[i], plain[i] as boolean, f, req, res)
      : fieldText(definedToken(tokens, f.token), false, f, req, res);
    line += f.key + value;
  }
  return line + '}';
};
