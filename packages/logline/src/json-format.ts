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

function text(value: TokenValue): string | null {
  return value === undefined || value === null || value === '' || value === '-' ? null : String(value);
}

function num(value: TokenValue): number | null {
  if (value === undefined || value === null || value === '' || value === '-') return null;
  const n = Number(value);
  return Number.isFinite(n) ? n : null;
}

export const jsonFormat: FormatFn = (tokens, req, res) =>
  escapeJson(JSON.stringify({
    date: text(valueOf(tokens, 'date', req, res, 'iso')),
    'remote-addr': text(valueOf(tokens, 'remote-addr', req, res)),
    'remote-user': text(valueOf(tokens, 'remote-user', req, res)),
    method: text(valueOf(tokens, 'method', req, res)),
    url: text(valueOf(tokens, 'url', req, res)),
    'http-version': text(valueOf(tokens, 'http-version', req, res)),
    status: num(valueOf(tokens, 'status', req, res)),
    'content-length': num(valueOf(tokens, 'res', req, res, 'content-length')),
    referrer: text(valueOf(tokens, 'referrer', req, res)),
    'user-agent': text(valueOf(tokens, 'user-agent', req, res)),
    'response-time': num(valueOf(tokens, 'response-time', req, res)),
    'total-time': num(valueOf(tokens, 'total-time', req, res)),
  }));
