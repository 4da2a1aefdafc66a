/// <reference path="../../types/vendor-path-to-regexp-v0.d.ts" />
// The v4 (and legacy) path syntax: `:name`, `:name?`, `:id(\\d+)`, `*` as an
// unnamed wildcard in `req.params[0]`, compiled with path-to-regexp 0.1, the
// package Express 4 itself relies on. Outside parameters a v4 path is raw
// regular-expression source, so only paths free of its metacharacters take
// the string-comparison route.
import pathToRegexp from 'path-to-regexp-v0';
import { type CompiledPath, literalPrefix, type Params, type PathCompiler, type PathOptions, type PathKey, regexpPath, type SlashRule, staticPath, userRegexpPath } from './compiled';

const SPECIAL = /[:*?()+[\]{}\\^$|]/;

function plainParams(): Params {
  return {};
}

/** A path as Express 4 compiles it; `keys` receives its parameters. */
export type V4Regexp = (path: string | RegExp | Array<string | RegExp>, options: PathOptions, keys?: pathToRegexp.Key[]) => RegExp;

/**
 * Express 4's regular expression for a path (path-to-regexp 0.1), flagged
 * as Express 4 flags a layer's: `fast_slash` for `use('/')`, `fast_star`
 * for `*`. Tools parse its source to recover mount paths.
 */
export function makeV4Regexp(separators: string): V4Regexp {
  return (path, options, keys = []) => {
    let regexp = pathToRegexp(path, keys, { end: options.end, strict: options.strict, sensitive: options.sensitive });
    if (!options.end && separators !== '/') {
      // Legacy mount paths also continue with '.': `/apple` serves `/apple.html`.
      regexp = new RegExp(regexp.source.replace(/\(\?=\/\|\$\)$/, '(?=[/.]|$)'), regexp.flags);
    }
    return Object.assign(regexp, { fast_slash: path === '/' && !options.end, fast_star: path === '*' });
  };
}

/** path-to-regexp 0.1 makes one trailing '/' of a path optional: "/" serves "/" alone, "//" also "/". */
function loosen(path: string): string {
  return path.endsWith('/') ? path.slice(0, -1) : path;
}

/**
 * The v4 compiler; `separators` lists what may follow a mount path, and
 * `mountTakesSlash` says mount paths match as path-to-regexp 0.1 writes
 * them (Express 4; Express 3 mounted by prefix, see SlashRule).
 */
export function makeV4Compiler(separators: string, mountTakesSlash = false): PathCompiler {
  const compile = makeV4Regexp(separators);
  const slashes: SlashRule = { separators, loosen, mountTakesSlash };
  return (path, options): CompiledPath => {
    if (path instanceof RegExp) return userRegexpPath(path, plainParams, options.sensitive, true);
    if (!SPECIAL.test(path)) return staticPath(path, options, plainParams, slashes);
    const keys: pathToRegexp.Key[] = [];
    const regexp = compile(path, options, keys);
    const pathKeys: PathKey[] = keys.map((k) => ({ name: k.name, optional: k.optional, offset: k.offset }));
    return regexpPath(regexp, pathKeys, plainParams, true, v4Prefix(path, options.sensitive));
  };
}

/**
 * What a v4 path's matches must start with. Before `:name`, path-to-regexp
 * 0.1 takes a `/`, a `.` or `/.` into the parameter's optional group, and
 * writes `/.` there as `./` (format first), so all of them are left out. The
 * character before `?` or `{` (raw regular-expression quantifiers in a v4
 * path) may be optional too; `|` anywhere makes the path an alternation with
 * no common prefix.
 */
function v4Prefix(path: string, sensitive: boolean): string {
  if (path.includes('|')) return '';
  let prefix = literalPrefix(path, SPECIAL, sensitive);
  const next = path[prefix.length];
  if (next === ':') {
    if (prefix.endsWith('.')) prefix = prefix.slice(0, -1);
    if (prefix.endsWith('/')) prefix = prefix.slice(0, -1);
  } else if ((next === '?' || next === '{') && prefix.length !== 0) {
    prefix = prefix.slice(0, -1);
  }
  return prefix;
}
