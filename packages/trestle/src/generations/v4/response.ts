// The response forms of the generations before v5: status and body in
// either order (`res.send(404, 'x')`, `res.json(obj, 201)`), `res.send(404)`
// as a status, `res.redirect(url, status)`, `back` as the Referrer, and
// `res.sendfile`. v4 accepts them with a deprecation warning; legacy, where
// they were the documented API, without one. Also what these generations
// answered differently: the shorter redirect page, and files, types and
// Content-Disposition as send 0.19, mime 1.x and content-disposition 0.5
// wrote them (see files.ts).
import depd from 'depd';
import { extname } from 'node:path';
import statuses from 'statuses';
import { createError } from '../../errors';
import { responseMembers, type ResponseState } from '../../response/members';
import { makeRedirect } from '../../response/redirect';
import { contentDispositionV4, loadSendV0, v4FileMembers } from './files';

// depd finds the user's call site from the module that created it.
const deprecate = depd('trestle');

type Method = (this: ResponseState, ...args: unknown[]) => unknown;
const core = responseMembers as Record<string, Method>;

const redirectV4 = makeRedirect((message, href) => `<p>${message}. Redirecting to ${href}</p>`) as Method;

/** `res.attachment()` with Express 4's Content-Disposition. */
function attachment(this: ResponseState, filename?: string): ResponseState {
  if (filename) this.type(extname(filename));
  this.setHeader('Content-Disposition', contentDispositionV4(filename));
  return this;
}

type HeaderInput = string | number | readonly (string | number)[];

/**
 * `res.set` as Express 4 wrote a Content-Type: the value as given, plus the
 * charset mime 1.x knows for it when it names none (`'foobar'` stays
 * `foobar`, where v5 looks a bare word up as an extension and sends the
 * type as unset). Other headers as v5.
 */
function set(this: ResponseState, field: string | Record<string, HeaderInput>, value?: HeaderInput): ResponseState {
  if (typeof field !== 'string') {
    for (const key of Object.keys(field)) set.call(this, key, field[key]);
    return this;
  }
  if (field.toLowerCase() !== 'content-type') return core.set!.call(this, field, value) as ResponseState;
  if (Array.isArray(value)) throw createError(TypeError, 'TRESTLE_ERR_INVALID_ARG_TYPE', 'Content-Type cannot be set to an Array');
  let type = String(value);
  if (!/;\s*charset\s*=/.test(type)) {
    const charset = loadSendV0().mime.charsets.lookup(type.split(';')[0]!);
    if (charset) type += `; charset=${charset.toLowerCase()}`;
  }
  this.setHeader(field, type);
  return this;
}

function method(fn: Method): PropertyDescriptor {
  return { configurable: true, enumerable: true, writable: true, value: fn };
}

export function oldResponseForms(warn: boolean): PropertyDescriptorMap {
  const note = warn ? (message: string) => deprecate(message) : () => undefined;

  /**
   * `(status, value)` or `(value, status)`: sets the status, returns the
   * value. send() reads a number first as the status unless only the second
   * is a number; json() and jsonp() read a number second as the status
   * (`res.json(200, 201)` is 201 with the body 200), as Express 4 and 3 did.
   */
  function statusAndValue(res: ResponseState, name: string, a: unknown, b: unknown): unknown {
    const valueFirst = name === 'send' ? typeof a !== 'number' && typeof b === 'number' : typeof b === 'number';
    const noun = name === 'send' ? 'body' : 'obj';
    if (valueFirst) {
      note(`res.${name}(${noun}, status): Use res.status(status).${name}(${noun}) instead`);
      res.statusCode = b as number;
      return a;
    }
    note(`res.${name}(status, ${noun}): Use res.status(status).${name}(${noun}) instead`);
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
    /** Any code, as Express 4 stored it (node refuses an invalid one when it writes the head); a string or a fraction warns. */
    status: method(function status(this: ResponseState, code: unknown) {
      const n = code as number;
      if ((typeof code === 'string' || Math.floor(n) !== n) && n > 99 && n < 1000) {
        note(`res.status(${JSON.stringify(code)}): use res.status(${Math.floor(n)}) instead`);
      }
      this.statusCode = code as number;
      return this;
    }),
    /** No field: a warning and nothing else. */
    vary: method(function vary(this: ResponseState, field?: unknown) {
      if (!field || (Array.isArray(field) && field.length === 0)) {
        note('res.vary(): Provide a field name');
        return this;
      }
      return core.vary!.call(this, field);
    }),
    /** The options given win, `expires` and `maxAge` included (v5 always expires the cookie at once). */
    clearCookie: method(function clearCookie(this: ResponseState, name: unknown, options?: unknown) {
      const opts = options as Record<string, unknown> | undefined;
      if (opts?.maxAge) note('res.clearCookie: Passing "options.maxAge" is deprecated. In v5.0.0 of Express, this option will be ignored, as res.clearCookie will automatically set cookies to expire immediately. Please update your code to omit this option.');
      if (opts?.expires) note('res.clearCookie: Passing "options.expires" is deprecated. In v5.0.0 of Express, this option will be ignored, as res.clearCookie will automatically set cookies to expire immediately. Please update your code to omit this option.');
      return core.cookie!.call(this, name, '', { expires: new Date(1), path: '/', ...opts });
    }),
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
    set: method(set as Method),
    header: method(set as Method),
    attachment: method(attachment as Method),
    type: method(v4FileMembers.type as Method),
    contentType: method(v4FileMembers.type as Method),
    sendFile: method(v4FileMembers.sendFile as Method),
    download: method(v4FileMembers.download as Method),
    sendfile: method(function sendfile(this: ResponseState, ...args: unknown[]) {
      note('res.sendfile: Use res.sendFile instead');
      return (v4FileMembers.sendfile as Method).apply(this, args);
    }),
  };
}
