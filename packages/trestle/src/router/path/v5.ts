// The v5 path syntax (`:name`, `{:name}`, `*name`, `{*name}`), compiled with
// path-to-regexp 8, the package Express 5 itself relies on for it, so that
// every edge of the syntax (and every syntax error) is the one users know.
import { pathToRegexp } from 'path-to-regexp';
import { type CompiledPath, literalPrefix, type Params, type PathCompiler, type PathKey, regexpPath, type SlashRule, staticPath, userRegexpPath } from './compiled';

const SPECIAL = /[{}()[\]+?!:*\\]/;

function nullParams(): Params {
  return Object.create(null) as Params;
}

function plainParams(): Params {
  return {};
}

/**
 * Express 5's router strips a path's trailing slashes but leaves "/" whole,
 * and path-to-regexp 8 then allows one more: "/" also serves "//".
 */
function loosen(path: string): string {
  return path === '/' ? path : path.replace(/\/+$/, '');
}

const SLASHES: SlashRule = { separators: '/', loosen, mountTakesSlash: false };

export const compileV5Path: PathCompiler = (path, options): CompiledPath => {
  if (path instanceof RegExp) return userRegexpPath(path, plainParams, options.sensitive);
  if (!SPECIAL.test(path)) return staticPath(path, options, nullParams, SLASHES);
  // Without strict routing, trailing slashes of the pattern are loosened away.
  const pattern = options.strict ? path : loosen(path);
  const { regexp, keys } = pathToRegexp(pattern, {
    end: options.end,
    sensitive: options.sensitive,
    trailing: !options.strict,
  });
  const pathKeys: PathKey[] = keys.map((k) => ({
    name: k.name,
    optional: false,
    wildcard: k.type === 'wildcard',
  }));
  markOptional(pattern, pathKeys);
  return regexpPath(regexp, pathKeys, nullParams, false, literalPrefix(pattern, SPECIAL, options.sensitive));
};

/** Keys written inside `{...}` are optional; path-to-regexp does not say so. */
function markOptional(pattern: string, keys: PathKey[]): void {
  let depth = 0;
  let k = 0;
  for (let i = 0; i < pattern.length && k < keys.length; i++) {
    const c = pattern[i];
    if (c === '\\') i++;
    else if (c === '{') depth++;
    else if (c === '}') depth--;
    else if (c === ':' || c === '*') keys[k++]!.optional = depth > 0;
  }
}
