/// <reference path="../../types/vendor-path-to-regexp-v0.d.ts" />
// The v4 (and legacy) path syntax: `:name`, `:name?`, `:id(\\d+)`, `*` as an
// unnamed wildcard in `req.params[0]`, compiled with path-to-regexp 0.1, the
// package Express 4 itself relies on. Outside parameters a v4 path is raw
// regular-expression source, so only paths free of its metacharacters take
// the string-comparison route.
import pathToRegexp from 'path-to-regexp-v0';
import { type CompiledPath, literalPrefix, type Params, type PathCompiler, type PathKey, regexpPath, staticPath, userRegexpPath } from './compiled';

const SPECIAL = /[:*?()+[\]{}\\^$|]/;

function plainParams(): Params {
  return {};
}

/** The v4 compiler; `separators` lists what may follow a mount path. */
export function makeV4Compiler(separators: string): PathCompiler {
  return (path, options): CompiledPath => {
    if (path instanceof RegExp) return userRegexpPath(path, plainParams, true);
    if (!SPECIAL.test(path)) return staticPath(path, options, plainParams, separators);
    const keys: pathToRegexp.Key[] = [];
    let regexp = pathToRegexp(path, keys, { end: options.end, strict: options.strict, sensitive: options.sensitive });
    if (!options.end && separators !== '/') {
      // Legacy mount paths also continue with '.': `/apple` serves `/apple.html`.
      regexp = new RegExp(regexp.source.replace(/\(\?=\/\|\$\)$/, '(?=[/.]|$)'), regexp.flags);
    }
    const pathKeys: PathKey[] = keys.map((k) => ({ name: k.name, optional: k.optional }));
    return regexpPath(regexp, pathKeys, plainParams, true, v4Prefix(path, options.sensitive));
  };
}

/**
 * What a v4 path's matches must start with. The character before `:name`
 * (`/` or `.`) and before `?` may be optional, so it is left out; `|`
 * anywhere makes the path an alternation with no common prefix.
 */
function v4Prefix(path: string, sensitive: boolean): string {
  if (path.includes('|')) return '';
  let prefix = literalPrefix(path, SPECIAL, sensitive);
  const next = path[prefix.length];
  if ((next === ':' || next === '?') && prefix.length !== 0) prefix = prefix.slice(0, -1);
  return prefix;
}
