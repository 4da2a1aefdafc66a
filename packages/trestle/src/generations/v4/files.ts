// Files as Express 4 sends them: `send` 0.19 with its `mime` 1.x (charsets
// written `UTF-8`, `.js` as `application/javascript`), Content-Disposition
// by content-disposition 0.5 (the filename always quoted), and the
// lower-case `res.sendfile` with its own path rules. The old packages are
// loaded on first use: an app that sends no file never loads them, and the
// v5 entry never does.
/// <reference path="../../types/vendor-content-disposition-v0.d.ts" />
/// <reference path="../../types/vendor-send-v0.d.ts" />
import { refuseOnPlatform } from '../../app/platform-seam';
import { basename } from 'node:path';
import { checkHeaders, type HeadersListener, makeFileMembers, passOn, pipeFile, type SendFn } from '../../response/files';
import type { ResponseState } from '../../response/members';
import { makeServeStatic } from '../../middleware/static';
import { boundedMemo } from '../../memo';
import { lazy } from '../../lazy';
import type { SendFileOptions } from '../../types';

/** send 0.19, Express 4's. */
export const loadSendV0 = lazy(() => require('send-v0') as typeof import('send-v0'));
const contentDispositionV0 = lazy(() => require('content-disposition-v0') as typeof import('content-disposition-v0'));

/** Content-Disposition as content-disposition 0.5 writes it, for the last segment of `path`. */
export function contentDispositionV4(path?: string): string {
  return contentDispositionV0()(path === undefined ? undefined : basename(path));
}

/** sendFile and download as Express 4 answers them, files typed by `typeFile` when given (legacy). */
export function v4FileParts(typeFile?: HeadersListener) {
  // Express 4's sendFile left ETags to send (on) whatever the `etag` setting says.
  return makeFileMembers({ send: loadSendV0 as unknown as () => SendFn, contentDisposition: contentDispositionV4, etagFromSetting: false, typeFile });
}

const fileMembers = v4FileParts();

/** `res.type(x)`'s MIME type: an extension or a name looked up in mime 1.x, a full type as given. */
export const mimeTypeV4 = boundedMemo((type: string) => (type.indexOf('/') === -1 ? loadSendV0().mime.lookup(type) : type));

type Done = (err?: unknown) => void;

/**
 * The lower-case `sendfile`: the path as given (relative to the working
 * directory, URL-encoded names decoded, `..` refused with a 403 unless
 * `root` is set), a directory's `index.html` when it ends in `/`. Express 4
 * sets `options.headers` on the file's answer; Express 3 knew no such option
 * (`withHeaders` false) and typed files its own way (`typeFile`).
 */
export function makeSendfile(withHeaders: boolean, typeFile?: HeadersListener) {
  return function sendfile(this: ResponseState, path: string, options?: SendFileOptions | Done, callback?: Done): void {
    refuseOnPlatform('res.sendfile()', 'disk');
    let opts: SendFileOptions = {};
    let done = callback;
    if (typeof options === 'function') done = options;
    else if (options) opts = options;
    const headers = withHeaders ? opts.headers : undefined;
    checkHeaders(headers);
    const req = this.req;
    const next = req.next!;
    const file = loadSendV0()(req as never, path, opts as never) as never;
    pipeFile(this, file, headers, done ?? ((err) => passOn(err, next)), typeFile);
  };
}

export const v4FileMembers = {
  sendFile: fileMembers.sendFile,
  download: fileMembers.download,

  /** `res.type()` with mime 1.x's table; `set` adds the charset. */
  type(this: ResponseState, type: string): ResponseState {
    return this.set('Content-Type', mimeTypeV4(type));
  },

  sendfile: makeSendfile(true),
};

/**
 * `trestle.static` sending with send 0.19 and its default for `dotfiles`
 * (`/.well-known/x` served, `/.env` not); `trestle.static.mime` is its
 * mime 1.x object, as serve-static 1.x exports it.
 */
export function staticV4(typeFile?: HeadersListener): PropertyDescriptor {
  const serveStatic = makeServeStatic(loadSendV0 as never, undefined, typeFile);
  Object.defineProperty(serveStatic, 'mime', {
    configurable: true,
    enumerable: true,
    get: () => loadSendV0().mime,
  });
  return { configurable: true, enumerable: true, writable: true, value: serveStatic };
}
