// A route path in OpenAPI's form (`/users/{id}`), translated from the
// generation's syntax: v5's (path-to-regexp 8: `:name`, `{...}` optional,
// `*name`) or v4's (path-to-regexp 0.1: `:name`, `:name?`, `:name(re)`, `*`,
// and raw regular-expression source between them). OpenAPI has no optional
// part of a path, so a path with optional parts becomes one OpenAPI path per
// combination; a wildcard becomes a parameter whose value may hold '/'
// (OpenAPI cannot say so: it is marked on the parameter).
import { parse } from 'path-to-regexp';

/** One OpenAPI path a route path stands for, with what its parameters are. */
export interface OpenApiPath {
  path: string;
  /** The parameters in `path`, in order; `wildcard` for those that may span '/'. */
  params: Array<{ name: string; wildcard: boolean }>;
}

export type Translation = { paths: OpenApiPath[] } | { reason: string };

/** More than this many combinations of optional parts is not listed (2^n grows fast). */
const MAX_VARIANTS = 16;

type Piece = { text: string } | { name: string; wildcard: boolean };
type Variant = Piece[];

/** Translates one path piece (a mount path or a route path) written in `syntax`. */
export function translatePart(part: string | RegExp, syntax: 'v5' | 'v4'): { variants: Variant[] } | { reason: string } {
  if (part instanceof RegExp) return { reason: 'a regular expression' };
  try {
    return syntax === 'v5' ? v5Variants(part) : v4Variants(part);
  } catch (err) {
    return { reason: `the path does not parse: ${(err as Error).message}` };
  }
}

/** The OpenAPI paths of a whole route: each piece translated, the combinations joined. */
export function translatePath(parts: Array<string | RegExp>, syntax: 'v5' | 'v4'): Translation {
  let combined: Variant[] = [[]];
  for (const part of parts) {
    const t = translatePart(part, syntax);
    if ('reason' in t) return t;
    const next: Variant[] = [];
    for (const head of combined) for (const tail of t.variants) next.push(joinPieces(head, tail));
    if (next.length > MAX_VARIANTS) return { reason: `more than ${MAX_VARIANTS} combinations of optional parts` };
    combined = next;
  }
  const paths = new Map<string, OpenApiPath>();
  for (const variant of combined) {
    const out = render(variant);
    if ('reason' in out) return out;
    if (!paths.has(out.path)) paths.set(out.path, out);
  }
  return { paths: [...paths.values()] };
}

/** A mount's pieces then a route's, the texts where they meet merged with one '/'. */
function joinPieces(head: Variant, tail: Variant): Variant {
  const last = head[head.length - 1];
  const first = tail[0];
  if (last === undefined || first === undefined || !('text' in first) || !('text' in last)) return [...head, ...tail];
  const text = last.text.endsWith('/') && first.text.startsWith('/') ? first.text.slice(1) : first.text;
  return [...head.slice(0, -1), { text: last.text + text }, ...tail.slice(1)];
}

function render(variant: Variant): OpenApiPath | { reason: string } {
  let path = '';
  const params: OpenApiPath['params'] = [];
  for (const piece of variant) {
    if ('text' in piece) {
      if (/[{}]/.test(piece.text)) return { reason: "a literal '{' or '}', which OpenAPI reads as a parameter" };
      path += piece.text;
    } else {
      if (params.some((p) => p.name === piece.name)) return { reason: `the parameter ${piece.name} appears twice` };
      path += `{${piece.name}}`;
      params.push({ name: piece.name, wildcard: piece.wildcard });
    }
  }
  if (!path.startsWith('/')) path = '/' + path;
  // Without strict routing `/users/` is `/users` (and a route '/' under a mount is the mount path).
  if (path.length > 1 && path.endsWith('/')) path = path.slice(0, -1);
  return { path, params };
}

interface V5Token {
  type: string;
  value?: string;
  name?: string;
  tokens?: V5Token[];
}

/** v5: text, `:param`, `*wildcard`, and `{...}` groups, each group present or not. */
function v5Variants(path: string): { variants: Variant[] } {
  return { variants: tokenVariants(parse(path).tokens as V5Token[]) };
}

function tokenVariants(tokens: V5Token[]): Variant[] {
  let variants: Variant[] = [[]];
  for (const token of tokens) {
    let options: Variant[];
    if (token.type === 'text') options = [[{ text: token.value! }]];
    else if (token.type === 'param') options = [[{ name: token.name!, wildcard: false }]];
    else if (token.type === 'wildcard') options = [[{ name: token.name!, wildcard: true }]];
    else options = [[], ...tokenVariants(token.tokens ?? [])];
    const next: Variant[] = [];
    for (const head of variants) for (const tail of options) next.push(append(head, tail));
    if (next.length > MAX_VARIANTS) throw new Error(`more than ${MAX_VARIANTS} combinations of optional parts`);
    variants = next;
  }
  return variants;
}

/** Concatenates pieces, merging adjacent texts. */
function append(head: Variant, tail: Variant): Variant {
  const out = head.slice();
  for (const piece of tail) {
    const last = out[out.length - 1];
    if ('text' in piece && last !== undefined && 'text' in last) out[out.length - 1] = { text: last.text + piece.text };
    else out.push(piece);
  }
  return out;
}

/**
 * v4 (path-to-regexp 0.1): `[/.]:name(re)?` parameters (the `?` makes the
 * separator before it optional too), `*` as a numbered wildcard; any other
 * regular-expression character between them is not a path OpenAPI can say.
 */
const V4_PARAM = /^([/.])?:(\w+)(\((?:\\.|[^\\()])*\))?(\?)?/;
const V4_SPECIAL = /[()[\]+?{}|^$\\]/;

function v4Variants(path: string): { variants: Variant[] } | { reason: string } {
  let variants: Variant[] = [[]];
  let unnamed = 0;
  let text = '';
  const push = (options: Variant[]): void => {
    const next: Variant[] = [];
    for (const head of variants) for (const tail of options) next.push(append(head, tail));
    variants = next;
  };
  for (let i = 0; i < path.length;) {
    const param = V4_PARAM.exec(path.slice(i));
    if (param !== null) {
      if (text !== '') push([[{ text }]]);
      text = '';
      const [whole, sep = '', name, , optional] = param;
      const present: Variant = sep === '' ? [{ name: name!, wildcard: false }] : [{ text: sep }, { name: name!, wildcard: false }];
      push(optional ? [[], present] : [present]);
      if (variants.length > MAX_VARIANTS) return { reason: `more than ${MAX_VARIANTS} combinations of optional parts` };
      i += whole.length;
      continue;
    }
    const c = path[i]!;
    if (c === '*') {
      if (text !== '') push([[{ text }]]);
      text = '';
      push([[{ name: String(unnamed++), wildcard: true }]]);
    } else if (V4_SPECIAL.test(c)) {
      return { reason: `the character '${c}', which path-to-regexp 0.1 reads as regular-expression source` };
    } else {
      text += c;
    }
    i++;
  }
  if (text !== '') push([[{ text }]]);
  return { variants };
}
