// res.sendFile and res.download: files streamed by the `send` package, which
// owns the security-sensitive parts (path traversal, dotfiles, ranges,
// conditional GET). This file connects its events to the callback or next().
import { refuseOnPlatform } from '../app/platform-seam';
import { validateHeaderName, validateHeaderValue, type ServerResponse } from 'node:http';
import { isAbsolute, resolve } from 'node:path';
import onFinished from 'on-finished';
import type { SendOptions, SendStream } from 'send';
import { lazy } from '../lazy';
import { contentDisposition } from './headers';
import type { Done, ResponseState } from './state';
import type { DownloadOptions, SendFileOptions } from '../types';
import { createError } from '../errors';

// Loaded with the first file sent (send and its mime database).
const send = lazy(() => require('send') as typeof import('send'));

type FileOptions = SendFileOptions & SendOptions;

/** What sends a file: the `send` package's function (v4 gives send 0.19's, with mime 1.x types). */
export type SendFn = (req: unknown, path: string, options?: SendOptions) => SendStream;

/** The file members as a generation answers them: its `send`, loaded on first use, and its Content-Disposition. */
export interface FileParts {
  send(): SendFn;
  contentDisposition(filename: string): string;
  /** Does the `etag` setting decide, when the call does not? (Express 4 left it to send: on.) */
  etagFromSetting: boolean;
  /** Types a file the app did not type, when not as send would (see typeUnlessSet). */
  typeFile?: HeadersListener;
}

/** A file's Content-Type by its path. */
export type TypeFor = (path: string) => string;

/** A listener for send's 'headers' event. */
export type HeadersListener = (res: ServerResponse, path: string) => void;

/**
 * Types the file by `typeFor` unless the answer has a Content-Type already
 * (the app's, or `setHeaders`'): send then leaves it as it is.
 */
export function typeUnlessSet(typeFor: TypeFor): HeadersListener {
  return (res, path) => {
    if (!res.getHeader('Content-Type')) res.setHeader('Content-Type', typeFor(path));
  };
}

/**
 * Refuses `headers` send would set too late to fail cleanly: it sets them
 * from an fs callback, where a throw would crash the process.
 */
export function checkHeaders(headers: SendFileOptions['headers']): void {
  if (headers == null) return;
  for (const name of Object.keys(headers)) {
    validateHeaderName(name);
    validateHeaderValue(name, headers[name] as string);
  }
}

/**
 * Pipes `file` to `res`; `done` hears once: nothing, the error, or
 * ECONNABORTED when the client left. `typeFile` (after `headers`) types a
 * file the app did not type, before send would.
 */
export function pipeFile(res: ResponseState, file: SendStream, headers: SendFileOptions['headers'], done: Done, typeFile?: HeadersListener): void {
  let finished = false;
  let streaming: boolean | undefined;
  const finish = (err?: unknown) => {
    if (finished) return;
    finished = true;
    done(err);
  };
  const aborted = () => finish(createError(Error, 'ECONNABORTED', 'Request aborted'));

  file.on('directory', () => finish(createError(Error, 'EISDIR', 'EISDIR, read')));
  file.on('error', finish);
  file.on('end', () => finish());
  file.on('file', () => {
    streaming = false;
  });
  file.on('stream', () => {
    streaming = true;
  });
  if (headers != null) {
    file.on('headers', (out: ServerResponse) => {
      for (const name of Object.keys(headers)) out.setHeader(name, headers[name]!);
    });
  }
  if (typeFile !== undefined) file.on('headers', typeFile);
  onFinished(res as unknown as ServerResponse, (err) => {
    if (err && (err as NodeJS.ErrnoException).code === 'ECONNRESET') return aborted();
    if (err) return finish(err);
    if (finished) return;
    // 'end' comes after 'finish' on some paths; a stream still open a tick later was cut off.
    setImmediate(() => {
      if (streaming !== false && !finished) aborted();
      else finish();
    });
  });
  file.pipe(res as unknown as ServerResponse);
}

/** Without a callback: a directory is next(), a client that left or a failed write nothing, any other error next(err). */
export function passOn(err: unknown, next: Done): void {
  if (!err) return;
  const e = err as NodeJS.ErrnoException;
  if (e.code === 'EISDIR') return next();
  if (e.code !== 'ECONNABORTED' && e.syscall !== 'write') next(err);
}

/** sendFile and download, sending with `parts`. */
export function makeFileMembers(parts: FileParts) {
  const members = {
    /**
     * Streams the file at `path` (absolute, or relative to `options.root`).
     * Errors (404, 403, 416, ...) go to the callback when given, else to
     * next(); a directory is next() without an error; a client that left is
     * not an error for next().
     */
    sendFile(this: ResponseState, path: string, options?: SendFileOptions | Done, callback?: Done): void {
      if (!path) throw createError(TypeError, 'TRESTLE_ERR_MISSING_ARG', 'path argument is required to res.sendFile');
      if (typeof path !== 'string') throw createError(TypeError, 'TRESTLE_ERR_INVALID_ARG_TYPE', 'path must be a string to res.sendFile');
      let opts: FileOptions = {};
      let done = callback;
      if (typeof options === 'function') done = options;
      else if (options) opts = options;
      if (!opts.root && !isAbsolute(path)) throw createError(TypeError, 'TRESTLE_ERR_INVALID_ARG_VALUE', 'path must be absolute or specify root to res.sendFile');
      refuseOnPlatform('res.sendFile()', 'disk');
      checkHeaders(opts.headers);
      const req = this.req;
      const next = req.next;
      // The `etag` setting decides unless the call says otherwise (Express 5 lets the setting win always).
      const sendOptions: FileOptions = { ...opts, etag: opts.etag ?? (parts.etagFromSetting ? Boolean(this.app.settings.etag) : true) };
      const file = parts.send()(req, encodeURI(path), sendOptions);
      pipeFile(this, file, opts.headers, (err) => {
        if (done) return done(err);
        if (!err) return;
        const e = err as NodeJS.ErrnoException;
        if (e.code === 'EISDIR') return next!();
        if (e.code !== 'ECONNABORTED' && e.syscall !== 'write') next!(err);
      }, parts.typeFile);
    },

    /**
     * Sends the file as an attachment named `filename` (default: its own
     * name). A Content-Disposition in `options.headers` is ignored.
     */
    download(this: ResponseState, path: string, filename?: unknown, options?: DownloadOptions | Done, callback?: Done): void {
      refuseOnPlatform('res.download()', 'disk');
      let done = callback;
      let name = filename as string | null | undefined;
      let opts = (options ?? null) as DownloadOptions | null;
      if (typeof filename === 'function') {
        done = filename as Done;
        name = null;
        opts = null;
      } else if (typeof options === 'function') {
        done = options;
        opts = null;
      }
      // download(path, options[, callback])
      if (typeof filename === 'object' && filename !== null && (typeof options === 'function' || options === undefined)) {
        name = null;
        opts = filename as DownloadOptions;
      }
      const headers: Record<string, string | number | string[]> = { 'Content-Disposition': parts.contentDisposition(name || path) };
      if (opts?.headers) {
        for (const key of Object.keys(opts.headers)) {
          if (key.toLowerCase() !== 'content-disposition') headers[key] = opts.headers[key]!;
        }
      }
      const fileOptions: DownloadOptions = { ...opts, headers };
      const fullPath = fileOptions.root ? path : resolve(path);
      // Through res.sendFile, which an app may wrap (Express 4 and 5); Express 3,
      // which types files its own way, sent downloads with its own sendfile.
      const sendFile = parts.typeFile === undefined ? this.sendFile : members.sendFile;
      sendFile.call(this, fullPath, fileOptions, done);
    },
  };
  return members;
}

export const sendFileMembers = makeFileMembers({ send: () => send() as SendFn, contentDisposition, etagFromSetting: true });
