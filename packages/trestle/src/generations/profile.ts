// What the core may ask a generation: the interface only. Each generation's
// values live beside this file (v5.ts, v4/, legacy/) and are imported only by
// that generation's entry, so `require('trestle')` loads nothing that only v4
// or legacy need. To see how the generations differ, read those modules.
import type { FinalPage } from '../app/final-handler';
import type { EtagFn, QueryParserFn } from '../app/settings';
import type { UrlencodedDefaults } from '../middleware/urlencoded';
import type { RouterProfile } from '../router/router';

/** A body-parser factory (`json`, `urlencoded`, `raw`, `text`). */
export type ParserFactory = (options?: never) => unknown;

export interface Profile {
  /** What the router reads: the path syntax, mount separators, OPTIONS answer, `param(fn)`. */
  router: RouterProfile;
  /** Defaults of settings that differ (`query parser`), and how `etag` compiles when not as Express 4 and 5 do. */
  settings: {
    queryParser: 'simple' | 'extended';
    /** The `etag fn` for an `etag` value (legacy: Express 3's MD5 tags). */
    compileETag?: (value: unknown) => EtagFn | undefined;
    /** The `query parser fn` for a `query parser` value, when not as Express 5 compiles it (v4: `false` is a function answering `{}`). */
    compileQueryParser?: (value: unknown) => QueryParserFn | undefined;
    /** What parses `req.query` while `query parser fn` is unset; without it, `req.query` is `{}` (v5). */
    unsetQuery?: QueryParserFn;
  };
  /** What the built-in body parsers do differently. */
  bodyParsers: {
    /** Wraps each parser factory (v4: `req.body` is at least `{}` after a parser ran). */
    wrap<F extends ParserFactory>(make: F): F;
    /** `urlencoded()` without `extended`: its default, and the warning v4 prints. */
    urlencoded: UrlencodedDefaults;
  };
  /**
   * How `res.send` writes a string body. `buffer` (Express 4 and 5): as a
   * Buffer when it is tagged or 1,000 characters long, so node writes the
   * head apart, in latin1, and a custom `etag fn` gets the Buffer. `string`
   * (Express 3): always as the string, so node writes the head with it, in
   * UTF-8, and the `etag fn` gets the string.
   */
  stringBodies: 'buffer' | 'string';
  /** The final handler's 404 and error page, when not Express 5's and 4's. */
  finalPage?: FinalPage;
  /** Members this generation adds to, or answers differently on, the core's objects. */
  overrides: {
    request: PropertyDescriptorMap;
    response: PropertyDescriptorMap;
    application: PropertyDescriptorMap;
    /** Members of the factory itself (`trestle.bodyParser`, ...). */
    factory: PropertyDescriptorMap;
  };
}
