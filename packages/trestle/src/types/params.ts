// What a request's `params` and `query` hold. Route parameters are read from
// the path string at the type level: in the v5 path syntax `:name` is a
// string, `*name` an array of segments, and either inside `{...}` is
// optional (`\\` escapes the next character); the v4 syntax is read below.

/**
 * `req.query` as the query parsers give it: strings, arrays and nested
 * objects. The same shape as the `qs` package's `ParsedQs`, declared here so
 * that trestle's types need no other package's.
 */
export interface ParsedQs {
  [key: string]: undefined | string | ParsedQs | Array<string | ParsedQs>;
}

/** Route parameters when nothing more precise is known. */
export interface ParamsDictionary {
  [key: string]: string;
}

/** An object of `T` by name. */
export interface Dictionary<T> {
  [key: string]: T;
}

/** Route parameters by position, as a regular expression's captures give them. */
export interface ParamsFlatDictionary {
  [key: number]: string;
}

/** Route parameters by name or by position. */
export type Params = ParamsDictionary | ParamsFlatDictionary;

type Lower = 'a' | 'b' | 'c' | 'd' | 'e' | 'f' | 'g' | 'h' | 'i' | 'j' | 'k' | 'l' | 'm' | 'n' | 'o' | 'p' | 'q' | 'r' | 's' | 't' | 'u' | 'v' | 'w' | 'x' | 'y' | 'z';
type Digit = '0' | '1' | '2' | '3' | '4' | '5' | '6' | '7' | '8' | '9';
type IdentChar = Lower | Uppercase<Lower> | Digit | '_' | '$';

/** Reads an identifier (or a `"quoted name"`) from the front of S: [name, rest]. */
type ReadName<S extends string, N extends string = ''> = N extends ''
  ? S extends `"${infer Q}"${infer R}`
    ? [Q, R]
    : ReadIdent<S, N>
  : ReadIdent<S, N>;
type ReadIdent<S extends string, N extends string> = S extends `${infer C}${infer R}`
  ? C extends IdentChar
    ? ReadIdent<R, `${N}${C}`>
    : [N, S]
  : [N, S];

type Param<N extends string, V, Optional extends boolean> = N extends ''
  ? unknown
  : Optional extends true
    ? { [K in N]?: V }
    : { [K in N]: V };

type Pop<D extends unknown[]> = D extends [unknown, ...infer T] ? T : [];

/** Walks the path one character at a time, tracking `{}` depth for optionality. */
type Scan<S extends string, D extends unknown[] = [], Acc = unknown> = S extends `${infer C}${infer R}`
  ? C extends '\\'
    ? R extends `${string}${infer R2}`
      ? Scan<R2, D, Acc>
      : Acc
    : C extends '{'
      ? Scan<R, [...D, 0], Acc>
      : C extends '}'
        ? Scan<R, Pop<D>, Acc>
        : C extends ':' | '*'
          ? ReadName<R> extends [infer N extends string, infer Rest extends string]
            ? Scan<Rest, D, Acc & Param<N, C extends '*' ? string[] : string, D extends [] ? false : true>>
            : Acc
          : Scan<R, D, Acc>
  : Acc;

type Simplify<T> = { [K in keyof T]: T[K] } & {};

/** The parameters of a v5 route path: `'/users/:id'` gives `{ id: string }`. */
export type RouteParameters<Path extends string> = string extends Path ? ParamsDictionary : Simplify<Scan<Path>>;

/** The params type of a path argument. */
export type ParamsOf<Path extends string> = RouteParameters<Path>;

// ---- v4 / legacy syntax: `:name`, `:name?`, `:name(regex)`, `*` (numbered) ----

/** Skips a `(...)` group (with nesting) at the front of S. */
type SkipGroup<S extends string, D extends unknown[] = []> = S extends `${infer C}${infer R}`
  ? C extends '\\'
    ? R extends `${string}${infer R2}`
      ? SkipGroup<R2, D>
      : ''
    : C extends '('
      ? SkipGroup<R, [...D, 0]>
      : C extends ')'
        ? D extends [unknown]
          ? R
          : SkipGroup<R, Pop<D>>
        : SkipGroup<R, D>
  : '';

/** After a v4 name: an optional `(regex)`, then `?` (optional) or `*` (star). */
type V4Suffix<S extends string> = S extends `(${string}` ? V4Modifier<SkipGroup<S>> : V4Modifier<S>;
type V4Modifier<S extends string> = S extends `?${infer R}` ? [true, R] : S extends `*${infer R}` ? [false, R] : [false, S];

type V4Scan<S extends string, Stars extends unknown[] = [], Acc = unknown> = S extends `${infer C}${infer R}`
  ? C extends '\\'
    ? R extends `${string}${infer R2}`
      ? V4Scan<R2, Stars, Acc>
      : Acc
    : C extends ':'
      ? ReadIdent<R, ''> extends [infer N extends string, infer Rest extends string]
        ? V4Suffix<Rest> extends [infer Opt extends boolean, infer After extends string]
          ? V4Scan<After, Stars, Acc & Param<N, string, Opt>>
          : Acc
        : Acc
      : C extends '*'
        ? V4Scan<R, [...Stars, 0], Acc & { [K in `${Stars['length']}`]: string }>
        : C extends '('
          ? V4Scan<SkipGroup<S>, [...Stars, 0], Acc & { [K in `${Stars['length']}`]: string }>
          : V4Scan<R, Stars, Acc>
  : Acc;

/** The parameters of a v4/legacy route path: `'/users/:id?'` gives `{ id?: string }`, `'*'` gives `{ 0: string }`. */
export type RouteParametersV4<Path extends string> = string extends Path ? ParamsDictionary : Simplify<V4Scan<Path>>;

/** The path syntaxes the generations speak: `v5`, and `v4` (which `legacy` speaks too). */
export type PathSyntax = 'v5' | 'v4';

/** The params type of a path argument for a generation (`v5`, `v4`, `legacy`): every one but v5 reads the v4 syntax. */
export type ParamsOfSyntax<Path extends string, G extends string> = G extends 'v5' ? RouteParameters<Path> : RouteParametersV4<Path>;
