/// <reference path="../types/vendor-path-to-regexp-v0.d.ts" />
// Checked, not guessed: a v4 path and its Express 5 form are run over the
// same sample paths, the v4 one as Express 4's Layer runs it (path-to-regexp
// 0.1, its `fast_slash`/`fast_star`, params decoded and unmatched ones kept
// as `undefined`), the v5 one through the v5 compiler (path-to-regexp 8, or
// a RegExp run as given), and their answers compared.
import type pathToRegexp from 'path-to-regexp-v0';
import { decodeParam, type Params, type PathOptions } from '../router/path/compiled';
import { makeV4Regexp } from '../router/path/v4';
import { compileV5Path } from '../router/path/v5';
import { samplePaths } from './samples';

/** How a path is matched: Express's layer options (routes: `end: true`; `use` mounts: `end: false, strict: false`). */
export type MatchOptions = PathOptions;

/** A v4 parameter under its Express 5 name; `join`: v5 gives an array of segments, `join('/')` is v4's string. */
export interface ParamRename {
  v4: string | number;
  v5: string | number;
  join?: boolean;
}

/** One generation's answer for one sample path. */
export interface Outcome {
  matched: boolean;
  /** What a mount consumed (only compared for `end: false`). */
  path?: string;
  /** Parameters by their v4 names (v5's renamed back; wildcard arrays joined with '/'). */
  params?: Record<string, unknown>;
  /** A status error (400 for malformed percent-encoding). */
  error?: number;
}

export interface Counterexample {
  url: string;
  v4: Outcome;
  v5: Outcome;
}

export interface Verification {
  /** Every sample got the same answer from both (match or not, params, and for mounts what was consumed). */
  equivalent: boolean;
  /** Sample paths tried, and how many of them the v4 path matched. */
  samples: number;
  matched: number;
  /** Up to five samples where the answers differ. */
  counterexamples: Counterexample[];
}

export const ROUTE_OPTIONS: MatchOptions = { end: true, strict: false, sensitive: false };

const v4Regexp = makeV4Regexp('/');

type Matcher = (url: string) => Outcome;

function settle(run: () => Outcome): Outcome {
  try {
    return run();
  } catch (err) {
    return { matched: true, error: (err as { status?: number }).status ?? 500 };
  }
}

/** The v4 path as Express 4's Layer matches it, and its regular expression. */
export function v4Matcher(path: string, options: MatchOptions): { regexp: RegExp; keys: pathToRegexp.Key[]; match: Matcher } {
  const keys: pathToRegexp.Key[] = [];
  const regexp = v4Regexp(path, options, keys);
  const { fast_slash: fastSlash, fast_star: fastStar } = regexp as RegExp & { fast_slash: boolean; fast_star: boolean };
  const match = (url: string): Outcome => settle(() => {
    if (fastSlash) return { matched: true, path: '', params: {} };
    if (fastStar) return { matched: true, path: url, params: { 0: decodeParam(url) } };
    const m = regexp.exec(url);
    if (m === null) return { matched: false };
    const params: Params = {};
    for (let i = 1; i < m.length; i++) {
      const name = keys[i - 1]!.name;
      const value = m[i] === undefined ? undefined : decodeParam(m[i]!);
      if (value !== undefined || !Object.hasOwn(params, name)) params[name] = value;
    }
    return { matched: true, path: m[0], params };
  });
  return { regexp, keys, match };
}

/** The v5 path through the v5 compiler; throws path-to-regexp 8's error for a path it rejects. */
export function v5Matcher(path: string | RegExp, options: MatchOptions, renames: ParamRename[] = []): { regexp: RegExp | undefined; match: Matcher } {
  const compiled = compileV5Path(path, options);
  const back = new Map(renames.map((r) => [String(r.v5), r]));
  const match = (url: string): Outcome => settle(() => {
    const m = compiled.match(url);
    if (m === null) return { matched: false };
    const params: Params = {};
    for (const [name, value] of Object.entries(m.params)) {
      const rename = back.get(name);
      const joined = Array.isArray(value) ? value.join('/') : value;
      params[rename === undefined ? name : rename.v4] = joined;
    }
    return { matched: true, path: m.path, params };
  });
  return { regexp: compiled.regexp, match };
}

/** Params as compared: unmatched ones (v4 lists them as `undefined`) and empty wildcards left out. */
function normal(params: Record<string, unknown> | undefined, joins: Set<string>): string {
  const kept = Object.entries(params ?? {})
    .filter(([k, v]) => v !== undefined && !(v === '' && joins.has(k)))
    .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
  return JSON.stringify(kept);
}

/**
 * What a mount hands on: its `req.baseUrl` (one trailing '/' dropped) and the
 * `req.url` the mounted handler sees ('/' added in front when missing). The
 * leading run of slashes is read as one: Express 4's mounts take a '/' that
 * another '/' follows (`/a//x` hands on `/x`, Express 5's `//x`), which is
 * true of every mount path alike, so it is said once in the docs, not per path.
 */
function handedOn(url: string, consumed: string): string {
  const base = consumed.endsWith('/') ? consumed.slice(0, -1) : consumed;
  const rest = url.slice(consumed.length).replace(/^\/*/, '/');
  return `${base} ${rest}`;
}

function same(url: string, a: Outcome, b: Outcome, options: MatchOptions, joins: Set<string>): boolean {
  if (a.matched !== b.matched || a.error !== b.error) return false;
  if (!a.matched || a.error !== undefined) return true;
  if (!options.end && handedOn(url, a.path!) !== handedOn(url, b.path!)) return false;
  return normal(a.params, joins) === normal(b.params, joins);
}

/**
 * Runs `v4Path` (Express 4) and `v5Path` (Express 5) over samples drawn from
 * both and their near misses. Throws path-to-regexp 8's error when Express 5
 * rejects `v5Path`.
 */
export function verifyPath(v4Path: string, v5Path: string | RegExp, options: MatchOptions = ROUTE_OPTIONS, renames: ParamRename[] = []): Verification {
  const v4 = v4Matcher(v4Path, options);
  const v5 = v5Matcher(v5Path, options, renames);
  const joins = new Set(renames.filter((r) => r.join === true).map((r) => String(r.v4)));
  const patterns = v5.regexp === undefined ? [v4.regexp] : [v4.regexp, v5.regexp];
  const staticText = typeof v5Path === 'string' ? [v5Path] : [];
  const longest = maxSampleLength(v4.regexp);
  const drawn = [...samplePaths(patterns), ...staticText.flatMap((p) => samplePaths([literal(p)]))];
  const samples = [...new Set(drawn.filter((url) => url.length <= longest))];
  const counterexamples: Counterexample[] = [];
  let matched = 0;
  for (const url of samples) {
    const a = v4.match(url);
    const b = v5.match(url);
    if (a.matched) matched++;
    if (!same(url, a, b, options, joins) && counterexamples.length < 5) counterexamples.push({ url, v4: a, v5: b });
  }
  return { equivalent: counterexamples.length === 0, samples: samples.length, matched, counterexamples };
}

/**
 * A group repeated by `+`, `*` or `{}` (`/:id(\\d+)+`, `:a-:b+c`) nests
 * quantifiers, so Express 4's own regular expression backtracks
 * exponentially on long paths that almost match: samples stay short there.
 */
function maxSampleLength(regexp: RegExp): number {
  return /\)[*+{]/.test(regexp.source) ? 24 : 96;
}

/** A static v5 path as a pattern to sample (its text verbatim). */
function literal(path: string): RegExp {
  return new RegExp(path.replace(/[.*+?^${}()|[\]\\]/g, '\\$&'));
}
