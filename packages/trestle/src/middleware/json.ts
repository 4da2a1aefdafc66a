// `trestle.json()`: JSON bodies into `req.body`.
import type { JsonOptions } from '../types';
import { type CommonOptions, commonConfig, createParser, requestCharset, unsupportedCharset } from './body';
import { optionsObject } from './options';
import { createError } from '../errors';

/** JSON's own whitespace: space, tab, line feed, carriage return. */
function firstSignificant(body: string): number {
  for (let i = 0; i < body.length; i++) {
    const c = body.charCodeAt(i);
    if (c !== 0x20 && c !== 0x09 && c !== 0x0a && c !== 0x0d) return i;
  }
  return -1;
}

/**
 * The SyntaxError `JSON.parse` gives for an unexpected first token, as it
 * words it (the wording changes between V8 versions): parse the body with that
 * token swapped for `#`, which no JSON text starts with, then put it back.
 */
function strictError(body: string, at: number): SyntaxError {
  const token = body[at]!;
  try {
    JSON.parse(`${body.slice(0, at)}#${body.slice(at + 1)}`);
  } catch (err) {
    if (err instanceof SyntaxError) {
      const quoted = err.message.indexOf("'#'");
      if (quoted !== -1) {
        let message = `${err.message.slice(0, quoted)}'${token}'${err.message.slice(quoted + 3)}`;
        const inSnippet = message.indexOf('#', quoted + 3);
        if (inSnippet !== -1) message = message.slice(0, inSnippet) + token + message.slice(inSnippet + 1);
        err.message = message;
        return err;
      }
    }
  }
  return createError(SyntaxError, 'TRESTLE_ERR_ENTITY_PARSE_FAILED', `Unexpected token '${token}' in JSON at position ${at}`);
}

export function json(options?: JsonOptions | null): ReturnType<typeof createParser> {
  const opts = optionsObject(options);
  const common = commonConfig(opts as CommonOptions, 'application/json');
  const defaultCharset = (opts.defaultCharset || 'utf-8').toLowerCase();
  const strict = opts.strict !== false;
  const reviver = opts.reviver;
  return createParser('jsonParser', {
    ...common,
    charsetOf(req) {
      const charset = requestCharset(req) ?? defaultCharset;
      // JSON is Unicode: any utf-* that iconv-lite knows, nothing else.
      if (!charset.startsWith('utf-')) throw unsupportedCharset(charset);
      return charset;
    },
    parse(body: string) {
      if (body.length === 0) return {};
      if (strict) {
        const at = firstSignificant(body);
        if (at !== -1 && body[at] !== '{' && body[at] !== '[') throw strictError(body, at);
      }
      return JSON.parse(body, reviver);
    },
  });
}
