// What every profile's path compiler produces: a matcher for one path. The
// router only ever calls `match`, so each generation can bring its own syntax.
import { withStatus } from '../../errors';
import { regexpPrefix } from './regexp-prefix';

/** Route parameters as matched: by name, or by capture index for regexps. */
export type Params = Record<string, unknown>;

export interface PathKey {
  name: string | number;
  optional: boolean;
  /** A v5 wildcard (`*name`): its value is split into segments. */
  wildcard?: boolean;
  /** v4: where path-to-regexp 0.1 placed it, which Express 4's keys carry (tools read layer keys as they are). */
  offset?: number;
}

export interface PathMatch {
  /** The part of the request path the pattern consumed. */
  path: string;
  params: Params;
}

export interface CompiledPath {
  keys: PathKey[];
  /**
   * Text every path this matches starts with (lower-cased when matching
   * ignores case); '' when nothing is certain. Routers index layers by it.
   */
  prefix: string;
  /**
   * Matches nothing but `prefix` itself, or it and one '/' (a route with no
   * parameters): an index need not offer the layer for longer paths.
   */
  exact: boolean;
  /** The regular expression, when the path needs one (static paths do not). */
  regexp: RegExp | undefined;
  /** Throws a 400 error when a parameter has malformed percent-encoding. */
  match(path: string): PathMatch | null;
}

export interface PathOptions {
  /** The whole path must match (routes) or only a prefix (middleware). */
  end: boolean;
  strict: boolean;
  sensitive: boolean;
}

export type PathCompiler = (path: string | RegExp, options: PathOptions) => CompiledPath;

/** Percent-decodes a parameter; malformed encoding is the client's fault (400). */
export function decodeParam(value: string): string {
  if (value.length === 0 || value.indexOf('%') === -1) return value;
  try {
    return decodeURIComponent(value);
  } catch (err) {
    // decodeURIComponent's URIError with Express's message and a status; no `expose`, as Express's router.
    const message = `Failed to decode param '${value}'`;
    throw withStatus(err, 400, 'TRESTLE_ERR_PARAM_DECODE_FAILED', { message }, false);
  }
}

/** How a generation reads a path's trailing slashes; its compiler passes it to `staticPath`. */
export interface SlashRule {
  /** What may continue a mount path's match ('/'; legacy also '.'). */
  separators: string;
  /**
   * Without strict routing, the text a path stands for; a route then also
   * takes one '/' after it. Express 5 strips every trailing '/' but keeps
   * "/" (so it also serves "//"); Express 4 strips one ("/" serves "/" only).
   */
  loosen(path: string): string;
  /**
   * A mount path also takes a '/' that only '/' or the end follows
   * (path-to-regexp 0.1's `\/?(?=\/|$)`): Express 4 mounted at "/m" hands
   * "/m//x" on as "/x".
   */
  mountTakesSlash: boolean;
}

/**
 * Matches a path that holds no parameters by plain string comparison, which
 * is what most routes are: no regular expression runs for them.
 */
export function staticPath(path: string, options: PathOptions, makeParams: () => Params, rule: SlashRule): CompiledPath {
  const { end, strict, sensitive } = options;
  const loose = strict ? path : rule.loosen(path);
  // '' and one '/' after it is "/" alone: request paths start with '/'.
  const takesSlash = !strict && loose.length !== 0;
  const pattern = sensitive ? loose || '/' : (loose || '/').toLowerCase();
  const len = pattern.length;
  const slashOnly = pattern === '/' && !end;
  const mountSlash = rule.mountTakesSlash && !strict;
  const { separators } = rule;

  function same(p: string, n: number): boolean {
    const head = n === p.length ? p : p.slice(0, n);
    return sensitive ? head === pattern : head.toLowerCase() === pattern;
  }

  function match(p: string): PathMatch | null {
    if (slashOnly) return { path: '', params: makeParams() };
    if (p.length < len || !same(p, len)) return null;
    if (end) {
      if (p.length === len || (takesSlash && p.length === len + 1 && p.charCodeAt(len) === 47)) {
        return { path: p, params: makeParams() };
      }
      return null;
    }
    if (mountSlash && p.charCodeAt(len) === 47 && (p.length === len + 1 || p.charCodeAt(len + 1) === 47)) {
      return { path: p.slice(0, len + 1), params: makeParams() };
    }
    if (p.length === len || separators.indexOf(p[len]!) !== -1 || pattern.endsWith('/')) {
      return { path: p.slice(0, len), params: makeParams() };
    }
    return null;
  }
  const prefix = slashOnly || !isAscii(pattern) ? '' : pattern;
  return { keys: [], prefix, exact: end && prefix.length !== 0, regexp: undefined, match };
}

/**
 * Matches with a regular expression and names its captures after `keys`.
 * `keepUnmatched` lists an optional parameter that did not match as
 * `undefined` (v4 does; v5 leaves it out).
 */
export function regexpPath(regexp: RegExp, keys: PathKey[], makeParams: () => Params, keepUnmatched = false, prefix = ''): CompiledPath {
  function match(p: string): PathMatch | null {
    const m = regexp.exec(p);
    if (m === null) return null;
    const params = makeParams();
    for (let i = 1; i < m.length; i++) {
      const key = keys[i - 1];
      const raw = m[i];
      if (key === undefined) continue;
      if (raw === undefined) {
        if (keepUnmatched && !(key.name in params)) params[key.name] = undefined;
        continue;
      }
      params[key.name] = key.wildcard ? raw.split('/').map(decodeParam) : decodeParam(raw);
    }
    return { path: m[0], params };
  }
  return { keys, prefix, exact: false, regexp, match };
}

/**
 * The keys of a user's regular expression: named groups by name, the others
 * by their index among the unnamed ones (`req.params[0]`, ...).
 */
export function regexpKeys(regexp: RegExp, withOffset = false): PathKey[] {
  const src = regexp.source;
  const keys: PathKey[] = [];
  let unnamed = 0;
  let inClass = false;
  for (let i = 0; i < src.length; i++) {
    const c = src[i];
    if (c === '\\') { i++; continue; }
    if (inClass) { if (c === ']') inClass = false; continue; }
    if (c === '[') { inClass = true; continue; }
    if (c !== '(') continue;
    let key: PathKey | undefined;
    if (src[i + 1] !== '?') {
      key = { name: unnamed++, optional: false };
    } else if (src[i + 2] === '<' && src[i + 3] !== '=' && src[i + 3] !== '!') {
      key = { name: src.slice(i + 3, src.indexOf('>', i)), optional: false };
    }
    // Express 4's offset of a capture is where its `(` is in the source.
    if (key !== undefined) keys.push(withOffset ? { ...key, offset: i } : key);
  }
  return keys;
}

/**
 * Compiles a user's regular expression path, run as given (unanchored unless
 * it says `^`); `sensitive` is the router's, for the prefix the index uses.
 * v4 keeps unmatched captures and gives keys their offset.
 */
export function userRegexpPath(regexp: RegExp, makeParams: () => Params, sensitive: boolean, v4 = false): CompiledPath {
  return regexpPath(regexp, regexpKeys(regexp, v4), makeParams, v4, regexpPrefix(regexp, sensitive));
}

function isAscii(text: string): boolean {
  for (let i = 0; i < text.length; i++) if (text.charCodeAt(i) > 127) return false;
  return true;
}

/**
 * The literal text before the first character of `special` in `pattern`, in
 * the case matching uses; '' when it holds anything but ASCII (case folding
 * of other characters is the regular expression's business).
 */
export function literalPrefix(pattern: string, special: RegExp, sensitive: boolean): string {
  const at = pattern.search(special);
  const head = at === -1 ? pattern : pattern.slice(0, at);
  if (!isAscii(head)) return '';
  return sensitive ? head : head.toLowerCase();
}
