// The response forms of the generations before v5: status and body in
// either order (`res.send(404, 'x')`, `res.json(obj, 201)`), `res.send(404)`
// as a status, `res.redirect(url, status)`, `back` as the Referrer, and
// `res.sendfile`. v4 accepts them with a deprecation warning; legacy, where
// they were the documented API, without one. Also what these generations
// answered differently: the shorter redirect page, and Content-Disposition as
// content-disposition 0.5 wrote it (ISO-8859-1 names kept as they are).
/// <reference path="../../types/vendor-content-disposition-v0.d.ts" />
import depd from 'depd';
import { basename, extname, isAbsolute, resolve } from 'node:path';
import statuses from 'statuses';
import { responseMembers, type ResponseState } from '../../response/members';
import { makeRedirect } from '../../response/redirect';

// depd finds the user's call site from the module that created it.
const deprecate = depd('trestle');

type Method = (this: ResponseState, ...args: unknown[]) => unknown;
const core = responseMembers as Record<string, Method>;

const redirectV4 = makeRedirect((message, href) => `<p>${message}. Redirecting to ${href}</p>`) as Method;

// Loaded on the first attachment() only: most apps never call it.
let contentDispositionV0: typeof import('content-disposition-v0') | undefined;

/** `res.attachment()` with Express 4's Content-Disposition. */
function attachment(this: ResponseState, filename?: string): ResponseState {
  contentDispositionV0 ??= require('content-disposition-v0') as typeof import('content-disposition-v0');
  if (filename) this.type(extname(filename));
  this.setHeader('Content-Disposition', contentDispositionV0(filename === undefined ? undefined : basename(filename)));
  return this;
}

function method(fn: Method): PropertyDescriptor {
  return { configurable: true, enumerable: true, writable: true, value: fn };
}

export function oldResponseForms(warn: boolean): PropertyDescriptorMap {
  const note = warn ? (message: string) => deprecate(message) : () => undefined;

  /** `(status, value)` or `(value, status)`: sets the status, returns the value. */
  function statusAndValue(res: ResponseState, name: string, a: unknown, b: unknown): unknown {
    if (typeof a !== 'number' && typeof b === 'number') {
      note(`res.${name}(obj, status): Use res.status(status).${name}(obj) instead`);
      res.statusCode = b;
      return a;
    }
    note(`res.${name}(status, obj): Use res.status(status).${name}(obj) instead`);
    res.statusCode = a as number;
    return b;
  }

  function location(this: ResponseState, url: unknown): unknown {
    if (url === 'back') {
      note('res.location("back"): use res.location(req.get("Referrer") || "/") and refer to https://dub.sh/security-redirect for best practices');
      const req = this.req as unknown as { get(name: string): string | undefined };
      return core.location!.call(this, req.get('Referrer') || '/');
    }
    return core.location!.call(this, url);
  }

  return {
    send: method(function send(this: ResponseState, ...args: unknown[]) {
      let body = args[0];
      if (args.length === 2) {
        body = statusAndValue(this, 'send', args[0], args[1]);
      } else if (typeof body === 'number') {
        // res.send(404) sends the status and its message as text.
        note('res.send(status): Use res.sendStatus(status) instead');
        if (this.getHeader('Content-Type') === undefined) this.type('txt');
        this.statusCode = body;
        body = statuses.message[body];
      }
      return core.send!.call(this, body);
    }),
    json: method(function json(this: ResponseState, ...args: unknown[]) {
      return core.json!.call(this, args.length === 2 ? statusAndValue(this, 'json', args[0], args[1]) : args[0]);
    }),
    jsonp: method(function jsonp(this: ResponseState, ...args: unknown[]) {
      return core.jsonp!.call(this, args.length === 2 ? statusAndValue(this, 'jsonp', args[0], args[1]) : args[0]);
    }),
    location: method(location),
    redirect: method(function redirect(this: ResponseState, ...args: unknown[]) {
      if (args.length === 2 && typeof args[0] !== 'number') {
        note('res.redirect(url, status): Use res.redirect(status, url) instead');
        return redirectV4.call(this, args[1], args[0]);
      }
      return redirectV4.apply(this, args);
    }),
    attachment: method(attachment as Method),
    /** The lower-case `sendfile`: relative paths are taken from the working directory. */
    sendfile: method(function sendfile(this: ResponseState, path: unknown, ...rest: unknown[]) {
      note('res.sendfile: Use res.sendFile instead');
      const options = rest[0];
      const hasRoot = typeof options === 'object' && options !== null && 'root' in options;
      const full = typeof path === 'string' && !hasRoot && !isAbsolute(path) ? resolve(path) : path;
      return core.sendFile!.call(this, full, ...rest);
    }),
  };
}
