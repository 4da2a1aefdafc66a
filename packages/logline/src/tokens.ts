// The token registry and the built-in tokens. Tokens return undefined for
// "no value"; format strings show that as `-`, the json format as null.
//
// Each token is kept twice: as defined, and wrapped so that a string it
// returns comes out escaped (escape.ts). Format functions and the factory's
// members get the wrapped ones, as morgan's tokens escape their values; the
// formats logline runs itself call the defined ones and escape once, for the
// line (compile.ts) or for JSON (json-format.ts).
import { currentDate } from './dates.js';
import { escapeText } from './escape.js';
import { msToHeaders, msToNow } from './exchange.js';
import type { LoglineRequest, LoglineResponse, TokenCallback, TokenIndexer, TokenValue } from './types.js';

/**
 * Every defined token by name, escaping: what format functions receive. No
 * prototype, so a format string naming `:constructor` or `:toString` finds
 * no token rather than an Object method.
 */
export const tokens: TokenIndexer = Object.create(null) as TokenIndexer;

/** The same tokens as they were defined, returning raw values. */
const definedTokens: TokenIndexer = Object.create(null) as TokenIndexer;

/** The defined callback behind each escaping one, for tokens objects that mix them. */
const definedBehind = new WeakMap<TokenCallback, TokenCallback>();

/** `fn`, returning its strings escaped. Made once per definition, not per call. */
function escaping(fn: TokenCallback): TokenCallback {
  const escaped = function (this: unknown): TokenValue {
    // `arguments` hands on exactly what the caller gave: a token called with
    // two arguments still gets two. Other values (numbers, a Date) are
    // returned as they are, as morgan does; compiled formats escape their text.
    const value = Reflect.apply(fn, this, arguments) as TokenValue;
    return typeof value === 'string' ? escapeText(value) : value;
  };
  definedBehind.set(escaped, fn);
  return escaped;
}

/**
 * The token `name` of a tokens object as it was defined, so that its value
 * is escaped once: from logline's own registry, or from any object a format
 * is called with (which may hold logline's escaping tokens, as `{ ...tokens }`
 * does). Not always a function: such objects are the app's.
 */
export function definedToken(from: TokenIndexer, name: string): TokenCallback | undefined {
  if (from === tokens) return definedTokens[name];
  const fn = from[name];
  return (typeof fn === 'function' && definedBehind.get(fn)) || fn;
}

/** Counts definitions, so compiled formats know when their looked-up tokens are stale. */
export const registry = { version: 0 };

/** Defines a token, or replaces the one of the same name. */
export function defineToken(name: string, fn: TokenCallback): void {
  if (typeof name !== 'string' || name === '') {
    throw new TypeError('logline.token: argument name must be a non-empty string');
  }
  if (typeof fn !== 'function') {
    throw new TypeError('logline.token: argument fn must be a function');
  }
  definedTokens[name] = fn;
  tokens[name] = escaping(fn);
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
  // morgan shows no user when the password holds a line break: the same here,
  // so that lines stay morgan's for the same request.
  if (colon === -1 || PASSWORD_LINE_BREAK.test(decoded.slice(colon + 1))) return undefined;
  return decoded.slice(0, colon);
}

const PASSWORD_LINE_BREAK = /[\n\r\u2028\u2029]/;

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
  'response-time': (req, res, digits) => milliseconds(msToHeaders(req, res), digits),
  status: (req, res) => (headersSent(res) ? String(res.statusCode) : undefined),
  'total-time': (req, res, digits) => milliseconds(msToNow(req, res), digits),
  url: (req) => req.originalUrl || req.url,
  'user-agent': (req) => header(req, 'user-agent'),
};

for (const name of Object.keys(builtIns)) defineToken(name, builtIns[name] as TokenCallback);

/**
 * The built-in tokens whose text is logline's own and never holds a
 * character to escape: dates (digits, letters, `/:-+.,` and spaces), the pid
 * and the durations (toFixed). Lines skip the escape test for them (a regular
 * expression run per value, the largest cost of a token).
 */
const plainTokens = new Set<TokenCallback>(
  ['date', 'pid', 'response-time', 'total-time'].map((name) => builtIns[name] as TokenCallback),
);

/** The registry's tokens of some names, and whether each one's text needs no escaping. */
export interface RegisteredTokens {
  fns: Array<TokenCallback | undefined>;
  plain: boolean[];
}

/**
 * The registry's tokens for `names` (a format's, in order), looked up again
 * only when the registry changed: a line reads them by index, not by name.
 */
export function registeredTokensOf(names: readonly string[]): () => RegisteredTokens {
  let current: RegisteredTokens = { fns: [], plain: [] };
  let version = -1;
  return () => {
    if (version !== registry.version) {
      const fns = names.map((name) => definedToken(tokens, name));
      current = { fns, plain: fns.map((fn) => fn !== undefined && plainTokens.has(fn)) };
      version = registry.version;
    }
    return current;
  };
}
