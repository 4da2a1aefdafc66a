// Format strings compile, once, into the literal text between tokens and the
// token references; a line is those parts joined. Nothing is evaluated as
// code (no eval, no Function constructor), so a strict CSP or
// --disallow-code-generation-from-strings does not stop logline.
//
// Every token's text is escaped as it joins the line (escape.ts), whatever
// tokens object the format is called with: a line is one line.
import { escapeText } from './escape.js';
import type {
  FormatFn,
  LoglineRequest,
  LoglineResponse,
  TokenCallback,
  TokenValue,
} from './types.js';
import { definedToken, registeredTokensOf, tokens as registeredTokens } from './tokens.js';

interface TokenRef {
  name: string;
  /** The bracket argument, if the format gave one. */
  arg: string | undefined;
  /** The reference as written, shown as-is when no such token is defined. */
  source: string;
}

/** A parsed format: `literals[i]`, token `refs[i]`, ..., and one last literal. */
export interface ParsedFormat {
  literals: string[];
  refs: TokenRef[];
}

// A token is a colon and at least two of [A-Za-z0-9_-], then an optional
// non-empty [argument]; the same reading morgan users' formats rely on.
const TOKEN_PATTERN = /:([-\w]{2,})(?:\[([^\]]+)\])?/g;

/**
 * The same text as V8's one shared copy of it, the copy property keys use.
 * A bracket argument is otherwise a slice of the format string, and tokens
 * look it up on every line: node's getHeader lowercases `content-length` and
 * looks the result up in its header object, which costs about twice as much
 * for a slice (the string table is searched each time).
 */
function shared(text: string): string {
  const holder: Record<string, true> = {};
  holder[text] = true;
  return Object.keys(holder)[0] as string;
}

export function parseFormat(format: string): ParsedFormat {
  const literals: string[] = [];
  const refs: TokenRef[] = [];
  let from = 0;
  for (const match of format.matchAll(TOKEN_PATTERN)) {
    const at = match.index as number;
    literals.push(format.slice(from, at));
    const arg = match[2];
    refs.push({ name: match[1] as string, arg: arg === undefined ? undefined : shared(arg), source: match[0] });
    from = at + match[0].length;
  }
  literals.push(format.slice(from));
  return { literals, refs };
}

/**
 * Calls a token. Without an argument it gets two arguments, not an explicit
 * undefined, so callbacks with default parameters behave.
 */
export function callToken(
  fn: TokenCallback,
  req: LoglineRequest,
  res: LoglineResponse,
  arg: string | undefined,
): TokenValue {
  return arg === undefined ? fn(req, res) : fn(req, res, arg);
}

/**
 * A token's text: its value escaped, `-` for a falsy value, or the reference
 * itself if undefined. `fn` is the token as defined, so this is the one escape;
 * `plain` says its text needs none (registeredTokensOf).
 */
function tokenText(
  fn: TokenCallback | undefined,
  plain: boolean,
  ref: TokenRef,
  req: LoglineRequest,
  res: LoglineResponse,
): string {
  if (typeof fn !== 'function') return ref.source;
  const value = callToken(fn, req, res, ref.arg);
  if (!value) return '-';
  return plain ? '' + value : escapeText('' + value);
}

/** Compiles a format string into a format function. */
export function compile(format: string): FormatFn {
  if (typeof format !== 'string') {
    throw new TypeError('logline.compile: argument format must be a string');
  }
  const { literals, refs } = parseFormat(format);
  const count = refs.length;
  const registeredOf = registeredTokensOf(refs.map((ref) => ref.name));
  const compiledFormat: FormatFn = (tokens, req, res) => {
    const registered = tokens === registeredTokens;
    const { fns, plain } = registeredOf();
    let line = literals[0] as string;
    for (let i = 0; i < count; i++) {
      const ref = refs[i] as TokenRef;
      const text = registered
        ? tokenText(fns[i], plain[i] as boolean, ref, req, res)
        : tokenText(definedToken(tokens, ref.name), false, ref, req, res);
      line += text + (literals[i + 1] as string);
    }
    return line;
  };
  return compiledFormat;
}
