// `trestle.query(options)`, the middleware Express 4 exported: it parses the
// query string with `qs` (or the function given) into `req.query`, unless
// something already set a non-empty one. Express 4 itself ran it for the
// `query parser` setting; trestle parses `req.query` on first read instead,
// so here the middleware only matters when that setting is off.
import type { IncomingMessage, ServerResponse } from 'node:http';
import type * as qs from 'qs';
import { lazy } from '../../lazy';
import { getSearch } from '../../router/url';

// qs is loaded when an app asks for query(), not by require('trestle/v4').
const qsModule = lazy(() => require('qs') as typeof import('qs'));

type QueryParser = (str: string, options?: qs.IParseOptions) => unknown;
type Req = IncomingMessage & { query?: unknown };

export function query(options?: qs.IParseOptions | QueryParser) {
  let parse: QueryParser = (str, parseOptions) => qsModule().parse(str, parseOptions);
  let opts: qs.IParseOptions | undefined = { ...(options as qs.IParseOptions | undefined) };
  if (typeof options === 'function') {
    parse = options;
    opts = undefined;
  }
  if (opts !== undefined && opts.allowPrototypes === undefined) opts.allowPrototypes = true;
  return function query(req: Req, _res: ServerResponse, next: (err?: unknown) => void): void {
    const current = req.query;
    if (!current || (typeof current === 'object' && Object.keys(current).length === 0)) req.query = parse(getSearch(req.url ?? ''), opts);
    next();
  };
}
