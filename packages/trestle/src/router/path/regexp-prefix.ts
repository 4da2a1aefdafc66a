// The literal text every match of a user's regular expression starts with,
// read from its source, so that the layer index (../layer-index.ts) need not
// test a regular-expression route against paths it can never match. The
// index may offer a layer that then fails to match, never leave out one that
// would: so whenever a piece of the source is not understood, the prefix ends
// before it.

/** Characters with a meaning of their own outside a class. */
const METACHARACTERS = '.*+?()[]{}|^$\\';

/** Quantifiers that make the character before them optional (`+` does not). */
const OPTIONAL_AFTER = '*?{';

const isAsciiLetter = (c: string): boolean => /^[A-Za-z]$/.test(c);

/**
 * The character an escape stands for when that is certain: an escaped ASCII
 * punctuation character (`\/`, `\.`, `\-`) is itself in every mode; escapes
 * of letters and digits are classes, assertions or back-references.
 */
function escapedLiteral(c: string | undefined): string | undefined {
  if (c === undefined || c.charCodeAt(0) > 127 || /[A-Za-z0-9]/.test(c)) return undefined;
  return c;
}

/**
 * Does `source` have a `|` outside every group and class? Then `^` anchors
 * only the first alternative. With the `v` flag classes nest.
 */
function hasTopLevelAlternation(source: string, nestedClasses: boolean): boolean {
  let groups = 0;
  let classes = 0;
  for (let i = 0; i < source.length; i++) {
    const c = source[i];
    if (c === '\\') i++;
    else if (classes > 0) {
      if (c === ']') classes--;
      else if (c === '[' && nestedClasses) classes++;
    } else if (c === '[') classes++;
    else if (c === '(') groups++;
    else if (c === ')') groups--;
    else if (c === '|' && groups === 0) return true;
  }
  return false;
}

/**
 * Does a path character other than `c` itself (or its other ASCII case)
 * match `c` under the `i` flag? With `u` or `v` case folding is Unicode's:
 * U+017F (long s) folds to `s` and U+212A (Kelvin sign) to `k`, which the
 * index, folding ASCII only, would not follow. Without them no character
 * beyond ASCII matches an ASCII one.
 */
function foldsBeyondAscii(c: string, unicode: boolean): boolean {
  return unicode && /[ks]/i.test(c);
}

/**
 * What every match of `regexp` starts with; '' when nothing is certain. Only
 * an expression anchored with `^` has one. `m` lets `^` match after a line
 * break; `g` and `y` make exec start at `lastIndex`, which only a call that
 * fails resets, so every call must be made as Express makes it. Under `i`
 * a case-sensitive router's index compares exactly, so the prefix stops at
 * the first letter; a case-insensitive router's folds ASCII case, so there
 * the prefix is lower case (for an expression without `i`, that offers a
 * few layers more, never fewer).
 */
export function regexpPrefix(regexp: RegExp, sensitive: boolean): string {
  // A subclass, or an own `exec`, may match what its source does not say.
  if (Object.getPrototypeOf(regexp) !== RegExp.prototype || Object.hasOwn(regexp, 'exec')) return '';
  const { source, flags } = regexp;
  if (source[0] !== '^' || /[gmy]/.test(flags) || hasTopLevelAlternation(source, flags.includes('v'))) return '';
  const ignoreCase = flags.includes('i');
  const unicode = flags.includes('u') || flags.includes('v');
  let prefix = '';
  for (let i = 1; i < source.length;) {
    const escaped = source[i] === '\\';
    const c = escaped ? escapedLiteral(source[i + 1]) : source[i]!;
    if (c === undefined || (!escaped && METACHARACTERS.includes(c)) || c.charCodeAt(0) > 127) break;
    if (ignoreCase && (sensitive ? isAsciiLetter(c) : foldsBeyondAscii(c, unicode))) break;
    i += escaped ? 2 : 1;
    if (i < source.length && OPTIONAL_AFTER.includes(source[i]!)) break;
    prefix += c;
  }
  return sensitive ? prefix : prefix.toLowerCase();
}
