// Application settings and views: what `app.set()` takes, and the view
// classes and template engines `app.render()` and `res.render()` use.
import type { ServerLimits } from './lifecycle';

/** Any value a setting may hold. */
export type SettingValue = unknown;

/** Receives the rendered HTML, or the error of the lookup, the engine or the template. */
export type RenderCallback = (err: Error | null, html?: string) => void;

/** A template engine callback: `(path, options, callback)`. */
export type EngineCallback = (path: string, options: object, callback: RenderCallback) => void;

/** A view class, for `app.set('view', MyView)`. */
export interface ViewConstructor {
  new (name: string, options: { defaultEngine: string | undefined; root: string | string[]; engines: Record<string, EngineCallback> }): ViewInstance;
}

/** A view as a {@link ViewConstructor} makes it for one name. */
export interface ViewInstance {
  /** The file found; falsy when the view does not exist (a lookup error). */
  path?: string | undefined;
  /** The name the view was looked up by. */
  name?: string;
  /** The directory or directories it was looked up in. */
  root?: string | string[];
  /** Renders the view with the merged locals. */
  render(options: object, callback: RenderCallback): void;
}

/**
 * A query-string parser: given the query string, or null when the URL has
 * none (as Express 4 and 5 call it). Declared as a method so that a parser
 * written for Express's types, `(str: string) => ...`, still type-checks.
 */
export type QueryParserFunction<R = object> = {
  /** Parses the query string (null when the URL has none) into `req.query`. */
  parse(str: string | null): R;
}['parse'];

/** Settings Express users read and write, with their value types. */
export interface KnownSettings {
  /** The environment mode; default `NODE_ENV`, else `'development'`. */
  env: string;
  /** Which peers to believe about `X-Forwarded-*`: `true`, a hop count, addresses or subnets (`'loopback'`, a comma list, an array), or `(addr, i) => boolean`. Default false. */
  'trust proxy': boolean | number | string | string[] | ((addr: string, i: number) => boolean);
  /** The query parameter that names the JSONP callback; default `'callback'`. */
  'jsonp callback name': string;
  /** The `JSON.stringify` replacer of `res.json()`. */
  'json replacer': ((this: unknown, key: string, value: unknown) => unknown) | Array<string | number> | null | undefined;
  /** The indentation of `res.json()`. */
  'json spaces': number | string | undefined;
  /** Escape `<`, `>` and `&` in JSON answers. Default false. */
  'json escape': boolean;
  /** `/Foo` and `/foo` differ; read when the app router is created. Default false. */
  'case sensitive routing': boolean;
  /** `/foo` and `/foo/` differ; read when the app router is created. Default false. */
  'strict routing': boolean;
  /** Keep looked-up views and let engines cache templates; default on when `env` is `production`. */
  'view cache': boolean;
  /** The extension a view name without one gets, such as `'ejs'`. */
  'view engine': string | undefined;
  /** The directory of views, or directories searched in order; default `views` in the working directory. */
  views: string | string[];
  /** How `req.query` is parsed: `'simple'` (node's `querystring`; v5's default), `'extended'` (`qs`; v4's default), `false` for `{}`, or a function, given the query string (null when the URL has none). */
  'query parser': boolean | 'simple' | 'extended' | QueryParserFunction;
  /** How many labels at the right of the host name `req.subdomains` leaves out; default 2. */
  'subdomain offset': number;
  /** The `ETag` `res.send()` computes: `'weak'` (default, or `true`), `'strong'`, `false` for none, or `(body, encoding) => tag`. */
  etag: boolean | 'weak' | 'strong' | ((body: Buffer | string, encoding?: BufferEncoding) => string | undefined);
  /** Send `X-Powered-By: Trestle`. Default on. */
  'x-powered-by': boolean;
  /** The app-wide request deadline: milliseconds or `'5s'`; `false` or 0 for none (default). See `trestle.deadline()`. */
  'request deadline': number | string | false;
  /** The limits `app.listen()` gives its server, over the production defaults; `false` keeps node's own. */
  'server limits': ServerLimits | boolean;
  /** The class views are looked up with; default the built-in one. */
  view: ViewConstructor;
}

/** A setting's name: a known one, or any other string. */
export type SettingName = keyof KnownSettings | (string & {});
/** A setting's value type: the known one for a known name, else `unknown`. */
export type SettingOf<K extends string> = K extends keyof KnownSettings ? KnownSettings[K] : unknown;
