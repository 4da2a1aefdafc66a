// The token registry and the built-in tokens. Tokens return undefined for
// "no value"; format strings show that as `-`, the json format as null.
import { currentDate } from './dates.js';
import { msToFinish, msToHeaders } from './exchange.js';
import type { LoglineRequest, LoglineResponse, TokenCallback, TokenIndexer } from './types.js';

/**
 * Every defined token by name. No prototype, so a format string naming
 * `:constructor` or `:toString` finds no token rather than an Object method.
 */
export const tokens: TokenIndexer = Object.create(null) as TokenIndexer;

/**
 * Counts definitions, so compiled formats know when their looked-up tokens
 * are stale. `timingTaken` turns true once app code has taken a timing token
 * from the factory (`logger['response-time']`): it may call it anywhere, so
 * from then on every logger times its responses.
 */
export const registry = { version: 0, timingTaken: false };

/** Is this one of the tokens that read the exchange's timing? */
export function isTimingToken(name: string): boolean {
  return name === 'response-time' || name === 'total-time';
}

/** Called when app code takes `response-time` or `total-time` off the factory. */
export function takeTimingToken(): void {
  if (registry.timingTaken) return;
  registry.timingTaken = true;
  registry.version++;
}

/** Defines a token, or replaces the one of the same name. */
export function defineToken(name: string, fn: TokenCallback): void {
  if (typeof name !== 'string' || name === '') {
    throw new TypeError('logline.token: argument name must be a non-empty string');
  }
  if (typeof fn !== 'function') {
    throw new TypeError('logline.token: argument fn must be a function');
  }
  tokens[name] = fn;
  registry.version++;
}

/** Whether the response headers have gone out (custom responses may lack headersSent). */
export function headersSent(res: LoglineResponse): boolean {
  return typeof res.headersSent === 'boolean' ? res.headersSent : Boolean((res as { _header?: unknown })._header);
}

function joinHeader(value: string | number | string[] | undefined): string | number | undefined {
  return Array.isArray(value) ? value.join(', ') : value;
}

/** Digits for :response-time/:total-time; anything toFixed cannot take means the default 3. */
function digitsOf(arg: string | undefined): number {
  if (arg === undefined) return 3;
  const digits = Number(arg);
  return Number.isInteger(digits) && digits >= 0 && digits <= 100 ? digits : 3;
}

function milliseconds(ms: number | undefined, arg: string | undefined): string | undefined {
  return ms === undefined ? undefined : ms.toFixed(digitsOf(arg));
}

/** The user name of a `Basic` Authorization header, or undefined. */
export function basicAuthUser(header: string | undefined): string | undefined {
  if (header === undefined) return undefined;
  const value = header.trim();
  // The scheme is case-insensitive and followed by at least one space.
  if (value.length < 7 || value.slice(0, 6).toLowerCase() !== 'basic ') return undefined;
  const encoded = value.slice(6).trimStart();
  if (!isToken68(encoded)) return undefined;
  const decoded = Buffer.from(encoded, 'base64').toString();
  const colon = decoded.indexOf(':');
  return colon === -1 ? undefined : decoded.slice(0, colon);
}

// token68 (RFC 7235): letters, digits, - . _ ~ + / then optional trailing '='.
function isToken68(text: string): boolean {
  let i = 0;
  for (; i < text.length; i++) {
    const c = text.charCodeAt(i);
    const isAlnum = (c >= 48 && c <= 57) || (c >= 65 && c <= 90) || (c >= 97 && c <= 122);
    if (!isAlnum && c !== 45 && c !== 46 && c !== 95 && c !== 126 && c !== 43 && c !== 47) break;
  }
  if (i === 0) return false;
  while (i < text.length && text.charCodeAt(i) === 61) i++;
  return i === text.length;
}

function header(req: LoglineRequest, name: string): string | undefined {
  const value = req.headers[name];
  return Array.isArray(value) ? value.join(', ') : value;
}

const pid = String(process.pid);

const builtIns: Record<string, TokenCallback> = {
  date: (req, res, layout) => currentDate(layout),
  'http-version': (req) => req.httpVersion || req.httpVersionMajor + '.' + req.httpVersionMinor,
  method: (req) => req.method,
  pid: () => pid,
  referrer: (req) => header(req, 'referer') || header(req, 'referrer'),
  'remote-addr': (req) => req.ip || req._remoteAddress || req.socket?.remoteAddress,
  'remote-user': (req) => basicAuthUser(header(req, 'authorization')),
  req: (req, res, name) => (name === undefined ? undefined : header(req, name.toLowerCase())),
  res: (req, res, name) =>
    name === undefined || !headersSent(res) ? undefined : joinHeader(res.getHeader(name)),
  'response-time': (req, res, digits) => milliseconds(msToHeaders(res), digits),
  status: (req, res) => (headersSent(res) ? String(res.statusCode) : undefined),
  'total-time': (req, res, digits) => milliseconds(msToFinish(res), digits),
  url: (req) => req.originalUrl || req.url,
  'user-agent': (req) => header(req, 'user-agent'),
};

for (const name of Object.keys(builtIns)) defineToken(name, builtIns[name] as TokenCallback);

/**
 * Can the token of this name read the exchange's timing? The two timing
 * tokens can, and so can any token the app defined or replaced: it may call
 * them. The other built-ins cannot.
 */
export function tokenReadsTiming(name: string): boolean {
  const fn = tokens[name];
  if (fn === undefined) return false;
  if (isTimingToken(name)) return true;
  return !Object.hasOwn(builtIns, name) || fn !== builtIns[name];
}
