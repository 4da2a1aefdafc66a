// The `json` predefined format: one JSON object per line, for log pipelines.
// Values come from the tokens handed to the format (so redefining a token
// changes its field too) and are typed: numbers as numbers, a missing value
// (undefined, null, '' or '-') as null. JSON.stringify escapes control
// characters, so a field can never break the one-line-per-request rule.
import { callToken } from './compile.js';
import type { FormatFn, LoglineRequest, LoglineResponse, TokenIndexer, TokenValue } from './types.js';

function valueOf(
  tokens: TokenIndexer,
  name: string,
  req: LoglineRequest,
  res: LoglineResponse,
  arg?: string,
): TokenValue {
  const fn = tokens[name];
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
  JSON.stringify({
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
  });
