// From an Express 4 path string to the Express 5 path that matches the same
// URLs: a v5 string where one can say it, else a RegExp made from the very
// regular expression Express 4 compiles (its groups named after the v4
// parameters). Every suggestion is verified on sample paths (verify.ts);
// the first candidate that holds is the one reported.
import { type MatchOptions, type ParamRename, ROUTE_OPTIONS, type Verification, v4Matcher, verifyPath } from './verify';

export interface Suggestion {
  /** The Express 5 path: a string, or a RegExp where no Express 5 string matches the same URLs. */
  path: string | RegExp;
  /** The path as written in code: `'/users{/:id}'` or `/^\/f\/(?<id>\d+)\/?$/i`. */
  code: string;
  /** The v4 parameters that change name or shape (`req.params[0]` → `req.params.path`). */
  renames: ParamRename[];
  /** What else the app's code must change, in words. */
  notes: string[];
  /** The check of this suggestion against the v4 path on sample paths. */
  verification: Verification;
}

export interface PathTranslation {
  v4Path: string;
  options: MatchOptions;
  /**
   * `none`: Express 5 matches the path as written exactly as Express 4 does;
   * `rejected`: Express 5 throws on it; `different`: it matches other URLs
   * (or gives other params) on Express 5.
   */
  change: 'none' | 'rejected' | 'different';
  /** Express 5's error for the path as written (`rejected`). */
  error?: string;
  /** The path as written, checked on Express 5 (absent when it is rejected). */
  asWritten?: Verification;
  /** The Express 5 form (absent when the change is `none`). */
  suggestion?: Suggestion;
}

/** path-to-regexp 0.1's tokens, as it reads a path: escapes, `[/][.]:name[(re)][*][?]`, `.`, `*`, `/(`. */
const TOKEN = /\\.|(\/)?(\.)?:(\w+)(\(.*?\))?(\*)?(\?)?|[.*]|\/\(/g;
/** Text a v4 path hands to the regular expression as is (so not a literal). */
const RAW_META = /[()[\]{}?+*|^$\\]/;
/** Characters a v5 path must escape to mean themselves. */
const V5_SPECIAL = /[{}()[\]+?!:*\\]/g;
const MATCHING_GROUP = /\\.|\((?:\?<(.*?)>)?(?!\?)/g;

function escapeV5(text: string): string {
  return text.replace(V5_SPECIAL, '\\$&');
}

/** A v5 parameter name: plain when it is an identifier, quoted otherwise (`:"1st"`). */
function v5Name(name: string): string {
  return /^[$_\p{ID_Start}][$\u200c\u200d\p{ID_Continue}]*$/u.test(name) ? name : JSON.stringify(name);
}

/** Literal v4 text, where a character followed by `?` is optional (`/colou?r` → `/colo{u}r`); undefined for other regexp syntax. */
function literalText(text: string): string | undefined {
  let out = '';
  for (let i = 0; i < text.length; i++) {
    const c = text[i]!;
    if (RAW_META.test(c)) return undefined;
    if (text[i + 1] === '?') {
      out += `{${escapeV5(c)}}`;
      i++;
    } else out += escapeV5(c);
  }
  return out;
}

interface StringForm {
  /** With `\u0000` where a wildcard goes, filled in per candidate. */
  template: string;
  wildcards: string[];
  renames: ParamRename[];
}

function wildcardName(taken: Set<string>): string {
  let name = 'path';
  for (let n = 2; taken.has(name); n++) name = `path${n}`;
  taken.add(name);
  return name;
}

/** The v4 path in v5 string syntax, or undefined when it holds what v5 strings cannot say (regexps, `+`, groups). */
function stringForm(path: string): StringForm | undefined {
  // A name used twice: Express 4 keeps the last value matched, which no v5 form promises.
  if (repeatedName(path) !== undefined) return undefined;
  const taken = new Set([...path.matchAll(/:(\w+)/g)].map((m) => m[1]!));
  const form: StringForm = { template: '', wildcards: [], renames: [] };
  let last = 0;
  let unnamed = 0;
  for (const m of path.matchAll(TOKEN)) {
    const text = literalText(path.slice(last, m.index));
    if (text === undefined) return undefined;
    form.template += text;
    last = m.index + m[0].length;
    const [whole, slash, format, key, capture, star, optional] = m;
    if (whole[0] === '\\') {
      if (/\w/.test(whole[1]!)) return undefined; // \d, \w...: a character class
      form.template += escapeV5(whole[1]!);
    } else if (whole === '.') {
      form.template += '.';
    } else if (whole === '*') {
      const name = wildcardName(taken);
      form.wildcards.push(name);
      form.renames.push({ v4: unnamed++, v5: name, join: true });
      form.template += '\u0000';
    } else if (key === undefined || capture !== undefined || star !== undefined || (slash !== undefined && format !== undefined)) {
      return undefined; // `/(`, `:id(\\d+)`, `:path*`, and `/.:x` (which v4 reads as "./x")
    } else {
      const ref = (slash ?? '') + (format ?? '') + ':' + v5Name(key);
      form.template += optional === undefined ? ref : `{${ref}}`;
    }
  }
  const tail = literalText(path.slice(last));
  if (tail === undefined) return undefined;
  form.template += tail;
  return form;
}

/** The candidates of a string form: each wildcard as `*name`, then as `{*name}` (which also matches nothing). */
function candidates(form: StringForm): string[] {
  const fill = (optional: boolean): string => {
    let k = 0;
    return form.template.replace(/\u0000/g, () => {
      const name = form.wildcards[k++]!;
      return optional ? `{*${name}}` : `*${name}`;
    });
  };
  return form.wildcards.length === 0 ? [fill(false)] : [fill(false), fill(true)];
}

/**
 * Express 4's own regular expression for the path, its parameter groups
 * named (`req.params.id`), unnamed ones left as `req.params[0]`. A name used
 * twice (`/:id/x/:id`) names its last group, the value Express 4 keeps; the
 * earlier ones stop capturing.
 */
export function regexpForm(path: string, options: MatchOptions): RegExp {
  const { regexp, keys } = v4Matcher(path, options);
  const last = new Map<string | number, number>();
  keys.forEach((key, i) => last.set(key.name, i));
  let k = 0;
  const source = regexp.source.replace(MATCHING_GROUP, (group: string, named: string | undefined) => {
    if (group[0] === '\\') return group;
    const index = k++;
    const name = keys[index]?.name;
    if (named !== undefined || typeof name !== 'string' || !/^[$_\p{ID_Start}][$\p{ID_Continue}]*$/u.test(name)) return group;
    return last.get(name) === index ? `(?<${name}>` : '(?:';
  });
  return new RegExp(source, regexp.flags);
}

function stringNotes(renames: ParamRename[], code: string): string[] {
  return renames.map((r) => {
    const name = String(r.v5);
    const optional = code.includes(`{*${name}}`);
    const joined = optional ? `(req.params.${name} ?? []).join('/')` : `req.params.${name}.join('/')`;
    return `req.params[${String(r.v4)}] becomes req.params.${name}, an array of the path's segments (decoded one by one): ${joined} is the v4 string`;
  });
}

const REGEXP_NOTE = 'Express 5 string paths take no regular expressions, repetition (+) or groups: this RegExp route is the one Express 4 compiled, so it matches the same URLs; its named groups fill req.params by name, unnamed ones stay req.params[0], [1]...';

function suggest(path: string, options: MatchOptions): Suggestion {
  const form = stringForm(path);
  let fallback: Suggestion | undefined;
  for (const candidate of form === undefined ? [] : candidates(form)) {
    let verification: Verification;
    try {
      verification = verifyPath(path, candidate, options, form!.renames);
    } catch {
      continue; // a form Express 5 rejects: not a candidate
    }
    const suggestion = { path: candidate, code: `'${candidate.replace(/\\/g, '\\\\').replace(/'/g, "\\'")}'`, renames: form!.renames, notes: stringNotes(form!.renames, candidate), verification };
    if (verification.equivalent) return suggestion;
    fallback ??= suggestion;
  }
  const regexp = regexpForm(path, options);
  const verification = verifyPath(path, regexp, options);
  if (!verification.equivalent && fallback !== undefined) return fallback;
  const notes = [REGEXP_NOTE];
  const twice = repeatedName(path);
  if (twice !== undefined) notes.push(`:${twice} is used twice: Express 4 keeps the last value matched (an earlier one when the last is absent), which no Express 5 path does; give each its own name`);
  return { path: regexp, code: String(regexp), renames: [], notes, verification };
}

function repeatedName(path: string): string | undefined {
  const seen = new Set<string>();
  for (const [, name] of path.matchAll(/:(\w+)/g)) {
    if (seen.has(name!)) return name;
    seen.add(name!);
  }
  return undefined;
}

/**
 * The Express 5 form of an Express 4 path string: whether Express 5 rejects
 * it or matches other URLs with it as written and, if so, the path (string or
 * RegExp) that matches the same URLs, verified on sample paths. `options` are
 * the layer's: routes `{ end: true, strict, sensitive }` (the app's strict and
 * case-sensitive routing), `use` mounts `{ end: false, strict: false, sensitive }`.
 * Throws Express 4's own error (a SyntaxError) for a path Express 4 rejects.
 */
export function translatePath(v4Path: string, options: Partial<MatchOptions> = {}): PathTranslation {
  const opts: MatchOptions = { ...ROUTE_OPTIONS, ...options };
  // A path Express 4 itself cannot compile throws its error here, as it would on Express 4.
  v4Matcher(v4Path, opts);
  let asWritten: Verification;
  try {
    asWritten = verifyPath(v4Path, v4Path, opts);
  } catch (err) {
    return { v4Path, options: opts, change: 'rejected', error: (err as Error).message, suggestion: suggest(v4Path, opts) };
  }
  if (asWritten.equivalent) return { v4Path, options: opts, change: 'none', asWritten };
  return { v4Path, options: opts, change: 'different', asWritten, suggestion: suggest(v4Path, opts) };
}
