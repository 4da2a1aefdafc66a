// The application: what `trestle()` returns, in every generation.
import type { EventEmitter } from 'node:events';
import type * as http from 'node:http';
import type { Http2ServerRequest, Http2ServerResponse } from 'node:http2';
import './express-global';
import type { ApplicationOf, DefaultLocals, Generation, LocalsRecord, RequestOf, ResponseOf } from './generation';
import type { NextFunction } from './handlers';
import type { FetchContext, FetchOptions } from './options';
import type { ApplicationLifecycle } from './lifecycle';
import type { Locals } from './response';
import type { RouteMatcher, Router, RouterMethods } from './router';
import type { EngineCallback, RenderCallback, SettingName, SettingOf, ViewInstance } from './settings';

/** The variables every template of an app sees; also callable to merge an object in. */
export type AppLocals<L extends LocalsRecord = DefaultLocals> = L &
  Locals & {
    /** The app's settings, as templates see them. */
    settings: Record<string, unknown>;
  } & ((obj: Record<string, unknown>) => AppLocals<L>);

/** `app.get(name)` reads a setting; `app.get(path, ...handlers)` routes. */
export interface AppGet<This, G extends Generation = 'v5'> extends RouteMatcher<This, G> {
  <const K extends string>(name: K): SettingOf<K>;
}

/** What the application of every generation has: all but `app.router`, which each generation answers differently. */
export interface ApplicationCore<L extends LocalsRecord = DefaultLocals, G extends Generation = 'v5'>
  extends EventEmitter,
    RouterMethods<G>,
    ApplicationLifecycle,
    Express.Application {
  /**
   * The request listener of node's HTTP/1.1 and HTTP/2 servers:
   * `http.createServer(app)`, `http2.createSecureServer(options, app)`. One
   * signature taking either, as TypeScript infers from the last overload only.
   */
  (req: http.IncomingMessage | Http2ServerRequest, res: http.ServerResponse | Http2ServerResponse, next?: NextFunction): void;
  /** With one argument, read a setting; with a path and handlers, route GET (and HEAD). */
  get: AppGet<this, G>;
  /** Sets a setting; `etag`, `query parser` and `trust proxy` are compiled here, and an invalid value is a TypeError. */
  set<K extends string>(name: K, value: SettingOf<K>): this;
  /** With one argument, reads a setting, as `app.get(name)` does. */
  set<K extends string>(name: K): SettingOf<K>;
  /** Sets a setting to `true`. */
  enable(name: SettingName): this;
  /** Sets a setting to `false`. */
  disable(name: SettingName): this;
  /** Whether a setting is truthy. */
  enabled(name: SettingName): boolean;
  /** Whether a setting is falsy. */
  disabled(name: SettingName): boolean;
  /** Registers the template engine for an extension (with or without its dot). */
  engine(ext: string, fn: EngineCallback): this;
  /** Renders a view with `app.locals`, without a response: `callback(err, html)`. */
  render(name: string, callback: RenderCallback): void;
  /** Renders a view with `app.locals` and `options` (which win), without a response. */
  render(name: string, options: object, callback: RenderCallback): void;
  /** Creates an `http.Server` for the app and listens as `server.listen()` does; the callback also hears of a listen error. */
  listen(port?: number, hostname?: string, backlog?: number, callback?: (err?: Error) => void): http.Server;
  /** Listens on `port` and `hostname`. */
  listen(port?: number, hostname?: string, callback?: (err?: Error) => void): http.Server;
  /** Listens on `port` (a free one when omitted or 0). */
  listen(port?: number, callback?: (err?: Error) => void): http.Server;
  /** Listens on a Unix socket or Windows pipe path. */
  listen(path: string, callback?: (err?: Error) => void): http.Server;
  /** Listens on a handle (a server, a socket, `{ fd }`) or with a `server.listen()` options object. */
  listen(handle: unknown, listeningListener?: (err?: Error) => void): http.Server;
  /** The absolute mount path of this app. */
  path(): string;
  /**
   * Answers a WHATWG `Request` with a `Response`, running the app as over a
   * socket. Bound to the app: `export default { fetch: app.fetch }`,
   * `Bun.serve({ fetch: app.fetch })` and `Deno.serve(app.fetch)` work.
   * `options.remoteAddress` is the client's address (Deno's handler info and
   * Bun's server, passed there, say it too).
   */
  fetch(request: Request, options?: FetchOptions): Promise<Response>;
  /** As a Cloudflare Worker's runtime calls it: `fetch(request, env, ctx)`; `req.cloudflare` holds `env` and `ctx`. */
  fetch(request: Request, env: unknown, ctx: FetchContext): Promise<Response>;
  /** Runs a request through the app's router, then `callback`, or the final handler (the 404 and error pages). */
  handle(req: http.IncomingMessage, res: http.ServerResponse, callback?: NextFunction): void;
  /** Variables every view of the app sees, `settings` among them; callable to merge an object in. */
  locals: AppLocals<L>;
  /** The settings by name; a mounted app inherits those of its parent it did not set. */
  settings: Record<string, unknown>;
  /** The registered template engines, by extension with its dot. */
  engines: Record<string, EngineCallback>;
  /** The path or paths the app was mounted on; `/` when it is not mounted. */
  mountpath: string | string[];
  /** The app this one was mounted on. */
  parent?: ApplicationOf<G>;
  /** The prototype of this app's `req`: members added here reach the requests of this app and its sub-apps only. */
  request: RequestOf<G>;
  /** The prototype of this app's `res`: members added here reach the responses of this app and its sub-apps only. */
  response: ResponseOf<G>;
  /** Compiled views by name, kept when `view cache` is on. */
  cache: Record<string, ViewInstance>;
  /** `mount` is emitted with the parent app when this app is mounted with `parent.use()`. */
  on(event: 'mount', listener: (parent: ApplicationOf<G>) => void): this;
  /** Adds a listener, as on any `EventEmitter`. */
  on(event: string | symbol, listener: (...args: never[]) => void): this;
  /** `mount`, once: called with the parent app when this app is mounted. */
  once(event: 'mount', listener: (parent: ApplicationOf<G>) => void): this;
  /** Adds a one-time listener, as on any `EventEmitter`. */
  once(event: string | symbol, listener: (...args: never[]) => void): this;
  /** Sets up a new app's settings, locals and engines; `trestle()` calls it. */
  init(): void;
}

/** An application: a request handler function with settings, routing and views. */
export interface Application<L extends LocalsRecord = DefaultLocals, G extends Generation = 'v5'> extends ApplicationCore<L, G> {
  /** The application router, created on first use. */
  readonly router: Router<G>;
}
