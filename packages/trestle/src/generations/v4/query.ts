// `trestle.query(options)`, the middleware Express 4 exported: it parses the
// query string with `qs` (or the function given) into `req.query`, unless
// something already set one. Express 4's app ran its own query layer first,
// so in an app `req.query` is always set and this middleware leaves it
// alone (with `query parser` off, it stays `{}`); it parses only for
// requests no app prepared (a router mounted on a plain server). trestle
// parses `req.query` on first read, and reads that the same way.
import type { IncomingMessage, ServerResponse } from 'node:http';
import type * as qs from 'qs';
import { compileQueryParser, emptyQuery, type QueryParserFn } from '../../app/settings';
import { lazy } from '../../lazy';
import { getSearch } from '../../router/url';

// qs is loaded when an app asks for query(), not by require('trestle/v4').
const qsModule = lazy(() => require('qs') as typeof import('qs'));

type QueryParser = (str: string | null, options?: qs.IParseOptions) => unknown;
type Req = IncomingMessage & { query?: unknown };

/** `qs.parse` with prototype keys allowed: what Express 4's query layer parsed with when given no parser. */
export function parseQs(str: string | null): Record<string, unknown> {
  return qsModule().parse(str ?? '', { allowPrototypes: true }) as Record<string, unknown>;
}

/** `query parser` in Express 4: `false` is a parser answering `{}`, not the absence of one. */
export function compileQueryParserV4(value: unknown): QueryParserFn | undefined {
  return value === false ? emptyQuery : compileQueryParser(value);
}

export function query(options?: qs.IParseOptions | QueryParser) {
  let parse: QueryParser = (str, parseOptions) => qsModule().parse(str ?? '', parseOptions);
  let opts: qs.IParseOptions | undefined = { ...(options as qs.IParseOptions | undefined) };
  if (typeof options === 'function') {
    parse = options;
    opts = undefined;
  }
  if (opts !== undefined && opts.allowPrototypes === undefined) opts.allowPrototypes = true;
  return function query(req: Req, _res: ServerResponse, next: (err?: unknown) => void): void {
    if (!req.query) req.query = parse(getSearch(req.url ?? ''), opts);
    next();
  };
}
