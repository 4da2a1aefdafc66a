// `trestle.static(root, options)`: the files under `root`. `send` does the
// file work (safe path resolution, conditional GET, ranges, caching headers);
// this layer decides what reaches it (GET and HEAD), turns directories into
// redirects, and chooses between `next()` and `next(err)` (`fallthrough`).
//
// Listeners are module-level functions that find their request through the
// send stream, so serving a file creates no closures of ours.
import { refuseOnPlatform } from '../app/platform-seam';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { resolve } from 'node:path';
import encodeUrl from 'encodeurl';
import escapeHtml from 'escape-html';
import type { SendOptions, SendStream } from 'send';
import { lazy } from '../lazy';
import { getPathname, getProtohost } from '../router/url';
import type { StaticOptions } from '../types';
import { optionsObject } from './options';
import { createError } from '../errors';
import type { HeadersListener } from '../response/files';

type Next = (err?: unknown) => void;
type Req = IncomingMessage & { originalUrl?: string };

interface Serving {
  req: Req;
  next: Next;
  /** Client errors become `next(err)`: always without fallthrough, and once a file was found. */
  forwardError: boolean;
}

const kServing = Symbol('trestle.static');
type Stream = SendStream & { [kServing]: Serving };

// Apps create static() at start-up but may never serve a file: send (and
// its mime database) is loaded with the first GET or HEAD that reaches it.
const send = lazy(() => require('send') as typeof import('send'));

/** What serves the files: the `send` package's function (v4 gives send 0.19's, with mime 1.x types). */
export type SendFn = (req: IncomingMessage, path: string, options?: SendOptions) => SendStream;

/** v5's sender: the `send` package, loaded with the first file served. */
const sendLazily: SendFn = (req, path, options) => send()(req, path, options);

/**
 * `trestle.static` sending with `getSend()`, asked once per `static()` call.
 * `dotfiles` is the option's default: `undefined` leaves it to send 0.19's
 * own rule (a file named with a dot is ignored, one inside a dot-directory
 * served), which is Express 4's documented default.
 */
export function makeServeStatic(getSend: () => SendFn, dotfiles: StaticOptions['dotfiles'], typeFile?: HeadersListener) {
  return function serveStaticFactory(root: string, options?: StaticOptions | null) {
    return createServeStatic(getSend(), root, options, dotfiles, typeFile);
  };
}

/** Express 5's: any path with a segment starting with a dot is ignored. */
export function serveStatic(root: string, options?: StaticOptions | null) {
  return createServeStatic(sendLazily, root, options, 'ignore');
}

/** `typeFile` types a file neither the app nor `setHeaders` typed, when not as send would (legacy). */
function createServeStatic(sendFile: SendFn, root: string, options: StaticOptions | null | undefined, dotfiles: StaticOptions['dotfiles'], typeFile?: HeadersListener) {
  if (!root) throw createError(TypeError, 'TRESTLE_ERR_MISSING_ARG', 'root path required');
  if (typeof root !== 'string') throw createError(TypeError, 'TRESTLE_ERR_INVALID_ARG_TYPE', 'root path must be a string');
  refuseOnPlatform('trestle.static()', 'disk');
  const opts = optionsObject(options);
  const fallthrough = opts.fallthrough !== false;
  const onDirectory = opts.redirect !== false ? redirectToSlash : directoryNotFound;
  const setHeaders = opts.setHeaders;
  if (setHeaders !== undefined && setHeaders !== null && typeof setHeaders !== 'function') {
    throw createError(TypeError, 'TRESTLE_ERR_INVALID_OPTION', 'option setHeaders must be function');
  }
  const sendOptions: SendOptions = {
    acceptRanges: opts.acceptRanges,
    cacheControl: opts.cacheControl,
    dotfiles: opts.dotfiles ?? dotfiles,
    etag: opts.etag,
    extensions: opts.extensions,
    immutable: opts.immutable,
    index: opts.index,
    lastModified: opts.lastModified,
    maxAge: opts.maxAge ?? 0,
    root: resolve(root),
  };

  return function serveStatic(req: Req, res: ServerResponse, next: Next): void {
    if (req.method !== 'GET' && req.method !== 'HEAD') {
      if (fallthrough) {
        next();
        return;
      }
      res.statusCode = 405;
      res.setHeader('Allow', 'GET, HEAD');
      res.setHeader('Content-Length', '0');
      res.end();
      return;
    }
    let path = getPathname(req.url!);
    // At the mount point itself (`/static`, no slash) send must see "" to redirect to `/static/`.
    if (path === '/' && !getPathname(req.originalUrl ?? req.url!).endsWith('/')) path = '';
    const stream = sendFile(req, path, sendOptions) as Stream;
    stream[kServing] = { req, next, forwardError: !fallthrough };
    stream.on('directory', onDirectory);
    if (setHeaders) stream.on('headers', setHeaders);
    if (typeFile) stream.on('headers', typeFile);
    if (fallthrough) stream.on('file', fileFound);
    stream.on('error', forward);
    stream.pipe(res);
  };
}

function fileFound(this: Stream): void {
  this[kServing].forwardError = true;
}

function forward(this: Stream, err: { statusCode?: number }): void {
  const serving = this[kServing];
  if (serving.forwardError || !((err.statusCode ?? 500) < 500)) serving.next(err);
  else serving.next();
}

function directoryNotFound(this: Stream): void {
  this.error(404);
}

/** `/docs` is a directory: 301 to `/docs/`, keeping the query string. */
function redirectToSlash(this: Stream, res: ServerResponse): void {
  if (this.hasTrailingSlash()) {
    this.error(404);
    return;
  }
  const url = this[kServing].req.originalUrl ?? this[kServing].req.url!;
  const q = url.indexOf('?');
  // Leading slashes collapse to one: `//evil.example/` must not become a protocol-relative Location.
  // An absolute-form request (`GET http://host/docs`) keeps its scheme and host.
  const pathname = getPathname(url).replace(/^\/\/+/, '/');
  const location = encodeUrl(`${getProtohost(url)}${pathname}/${q === -1 ? '' : url.slice(q)}`);
  const doc = htmlDocument('Redirecting', `Redirecting to ${escapeHtml(location)}`);
  res.statusCode = 301;
  res.setHeader('Content-Type', 'text/html; charset=UTF-8');
  res.setHeader('Content-Length', Buffer.byteLength(doc));
  res.setHeader('Content-Security-Policy', "default-src 'none'");
  res.setHeader('X-Content-Type-Options', 'nosniff');
  res.setHeader('Location', location);
  res.end(doc);
}

function htmlDocument(title: string, body: string): string {
  return `<!DOCTYPE html>\n<html lang="en">\n<head>\n<meta charset="utf-8">\n<title>${title}</title>\n</head>\n<body>\n<pre>${body}</pre>\n</body>\n</html>\n`;
}
