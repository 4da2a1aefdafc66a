// Two members Express 4's factory still bundles: `express.query()`, the query
// string middleware, and `express.static.mime`, the `mime` 1.x table its
// static server (send 0.x) looks types up in. Loaded only by the v4 entry.
import { createRequire } from 'node:module';
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { StaticOptions } from '../../types';
import { serveStatic } from '../../middleware/static';

type Next = (err?: unknown) => void;
type QueryRequest = IncomingMessage & { query?: unknown };
type QueryParser = (str: string, options?: object) => unknown;
interface MimeTypesModule {
  types: Record<string, string>;
  extensions: Record<string, string[]>;
}

/**
 * `query(options)`: parses the query string into `req.query` when nothing has
 * yet (in an app the router already has, so it only calls `next()`): with
 * `qs` and `options` (prototype keys allowed unless said otherwise), or with
 * a parser function given instead of options.
 */
export function query(options?: Record<string, unknown> | QueryParser) {
  let parse: QueryParser;
  if (typeof options === 'function') {
    parse = options;
  } else {
    const opts = { allowPrototypes: true, ...options };
    // qs is loaded on first use: most apps never call query().
    parse = (str) => (require('qs') as { parse: QueryParser }).parse(str, opts);
  }
  return function query(req: QueryRequest, _res: ServerResponse, next: Next): void {
    if (!req.query) {
      const url = req.url ?? '';
      const start = url.indexOf('?');
      const hash = url.indexOf('#');
      req.query = parse(start === -1 ? '' : url.slice(start + 1, hash > start ? hash : undefined));
    }
    next();
  };
}

/** The mime-types tables a lookup can go through: trestle's (`res.type`, `sendFile`) and the static server's (send's own copy, if it has one). */
function mimeTables(): MimeTypesModule[] {
  const ours = require('mime-types') as MimeTypesModule;
  const sends = createRequire(require.resolve('send'))('mime-types') as MimeTypesModule;
  return sends === ours ? [ours] : [ours, sends];
}

/** The `mime` 1.x API Express 4 exposes as `express.static.mime`, over the mime-types tables. */
function createMime() {
  const tables = mimeTables();
  const types = tables[0]!.types;
  return {
    /** The media type of each extension. */
    types,
    /** The default extension of each media type. */
    get extensions(): Record<string, string> {
      const first: Record<string, string> = {};
      for (const [type, exts] of Object.entries(tables[0]!.extensions)) if (exts[0] !== undefined) first[type] = exts[0];
      return first;
    },
    /** The type `lookup` answers for an unknown extension. */
    default_type: 'application/octet-stream',
    /** Adds types: `{ 'text/x-foo': ['foo', 'fo'] }`; the first extension becomes the type's default. */
    define(map: Record<string, string[]>): void {
      for (const [type, exts] of Object.entries(map)) {
        for (const table of tables) {
          for (const ext of exts) table.types[ext] = type;
          table.extensions[type] ??= [...exts];
        }
      }
    },
    /** The type of a path or extension, else `fallback`, else `default_type`. */
    lookup(path: string, fallback?: string): string {
      const ext = path.replace(/^.*[./\\]/, '').toLowerCase();
      return types[ext] || fallback || this.default_type;
    },
    /** The default extension of a media type (parameters ignored). */
    extension(mimeType: string): string | undefined {
      const type = /^\s*([^;\s]*)(?:;|\s|$)/.exec(mimeType)?.[1]?.toLowerCase() ?? '';
      return tables[0]!.extensions[type]?.[0];
    },
    charsets: {
      /** `UTF-8` for text, JavaScript and JSON types, else `fallback`. */
      lookup(mimeType: string, fallback?: string): string | undefined {
        return /^text\/|^application\/(javascript|json)/.test(mimeType) ? 'UTF-8' : fallback;
      },
    },
  };
}

let mime: ReturnType<typeof createMime> | undefined;

/** `express.static` of Express 4: the static server, with the `mime` table as `static.mime` (built on first read). */
export const staticV4 = Object.defineProperty(
  function serveStaticV4(root: string, options?: StaticOptions) {
    return serveStatic(root, options);
  },
  'mime',
  {
    enumerable: true,
    get: () => (mime ??= createMime()),
  },
);
