// The members that write a body: send, json, jsonp, sendStatus. send() and
// json() are the framework's hottest paths: they read only the headers and
// settings the call needs and use precomputed header values.
// `Buffer` imported, not the global: node's global is a getter, called on every use.
import { Buffer } from 'node:buffer';
import * as crypto from 'node:crypto';
import statuses from 'statuses';
import { peekContentType, peekETag, peekTransferEncoding, putContentLength, putContentType, putETag } from './header-store';
import { APPLICATION_JSON, setCharset, TEXT_HTML } from './headers';
import type { ResponseState } from './state';
import { compileETag, type EtagFn } from '../app/settings';

// The built-in `etag` setting functions. send() computes their result itself
// (same value as the etag package: length in hex and the first 27 base64
// characters of the SHA-1) with crypto's one-shot hash, about twice as fast
// on the hottest path. Any other function gets a Buffer, as in Express.
const WEAK_ETAG = compileETag('weak');
const STRONG_ETAG = compileETag('strong');
const oneShotHash = (crypto as { hash?: (algorithm: string, data: string | Buffer, encoding: 'base64') => string }).hash;

/**
 * The etag package's value for `body` (`length` bytes). A string goes to the
 * hash as it is (node encodes it to UTF-8 in C++, cheaper than making a
 * Buffer of it first). Only the last body is remembered (below), not a map
 * of them: a map of short bodies kept each one alive past a young collection
 * where bodies differ per answer, which grew the young generation and the
 * RSS (208 MB against 86 without ETags on Node 24, docs/PERFORMANCE.md).
 */
function builtinETag(body: string | Buffer, length: number, weak: boolean): string {
  if (typeof body === 'string' && body === last.body && weak === last.weak) return last.tag;
  const tag = hashETag(body, length, weak);
  if (typeof body === 'string' && body.length <= LAST_BODY_MAX) {
    last.body = body;
    last.weak = weak;
    last.tag = tag;
  }
  return tag;
}

/**
 * The last string body hashed, and its tag: an app answering the same body
 * again (a health check, a constant JSON document) skips the hash, for the
 * cost of one string comparison when the body differs. One body, not a map
 * of them: it keeps nothing alive but that one string (at most 16 KiB).
 */
const LAST_BODY_MAX = 16384;
const last = { body: '', weak: true, tag: hashETag('', 0, true) };

function hashETag(body: string | Buffer, length: number, weak: boolean): string {
  const digest = oneShotHash ? oneShotHash('sha1', body, 'base64') : crypto.createHash('sha1').update(body).digest('base64');
  // One expression: V8 builds one string, where a template then a `W/` prefix made two.
  return (weak ? 'W/"' : '"') + length.toString(16) + '-' + digest.substring(0, 27) + '"';
}

/** A string body's Content-Type: HTML when unset, else the type set with charset=utf-8. */
function utf8ContentType(res: ResponseState): void {
  const type = peekContentType(res);
  if (!type) {
    putContentType(res, TEXT_HTML);
  } else if (type !== TEXT_HTML && type !== APPLICATION_JSON && typeof type === 'string') {
    // The two values send() and json() set themselves are final already.
    const withCharset = setCharset(type);
    if (withCharset !== type) res.setHeader('Content-Type', withCharset);
  }
}

/** JSON the way the `json replacer`, `json spaces` and `json escape` settings say. */
export function stringifyJson(value: unknown, settings: Record<string, unknown>): string | undefined {
  const replacer = settings['json replacer'] as Parameters<typeof JSON.stringify>[1];
  const spaces = settings['json spaces'] as string | number | undefined;
  let json = replacer || spaces ? JSON.stringify(value, replacer as never, spaces) : JSON.stringify(value);
  if (settings['json escape'] && typeof json === 'string') {
    // Keeps the JSON safe to embed in HTML: no tag or entity can start in it.
    json = json.replace(/[<>&]/g, escapeHtmlChar);
  }
  return json;
}

function escapeHtmlChar(c: string): string {
  return c === '<' ? '\\u003c' : c === '>' ? '\\u003e' : '\\u0026';
}

/** Keeps only what a JavaScript identifier path may hold: letters, digits, `_`, `$`, `.`, `[`, `]`. */
const UNSAFE_CALLBACK = /[^[\]\w$.]/g;

export const bodyMembers = {
  /**
   * Sends a string (HTML unless a type is set), a Buffer or typed array
   * (octet-stream unless a type is set), null (empty), or anything else as
   * JSON. Sets Content-Length and, per the `etag` setting, ETag; answers 304
   * when the client's copy is fresh; no body for HEAD, 204, 205 and 304.
   */
  send(this: ResponseState, body?: unknown): ResponseState {
    let chunk = body as string | Buffer | undefined;
    let encoding: BufferEncoding | undefined;
    switch (typeof body) {
      case 'string':
        encoding = 'utf8';
        utf8ContentType(this);
        break;
      case 'boolean':
      case 'number':
      case 'object':
        if (body === null) {
          chunk = '';
        } else if (ArrayBuffer.isView(body)) {
          if (!this.getHeader('Content-Type')) this.setHeader('Content-Type', 'application/octet-stream');
          chunk = Buffer.isBuffer(body) ? body : Buffer.from(body as Uint8Array);
        } else {
          return this.json(body);
        }
        break;
    }

    if (chunk !== undefined) {
      const etagFn = this.app.settings['etag fn'] as EtagFn | undefined;
      const generateETag = etagFn !== undefined && !peekETag(this);
      const stringBodies = typeof chunk === 'string' ? (this.app._framework?.profile.stringBodies ?? 'buffer') : undefined;
      let length: number;
      if (typeof chunk !== 'string') {
        length = chunk.length;
      } else if (generateETag && stringBodies === 'buffer' && etagFn !== WEAK_ETAG && etagFn !== STRONG_ETAG) {
        chunk = Buffer.from(chunk, encoding);
        encoding = undefined;
        length = chunk.length;
      } else {
        // Measured, not copied: node encodes the string as it writes it.
        length = Buffer.byteLength(chunk, encoding);
      }
      // A string, as Express leaves it: res.get('Content-Length') is '4', not 4.
      // Not beside a Transfer-Encoding the app set: a client refuses both.
      if (!peekTransferEncoding(this)) putContentLength(this, String(length));
      if (generateETag) {
        if (etagFn === WEAK_ETAG || etagFn === STRONG_ETAG) {
          putETag(this, builtinETag(chunk, length, etagFn === WEAK_ETAG));
        } else {
          const tag = etagFn(chunk, encoding);
          if (tag) this.setHeader('ETag', tag);
        }
      }
      if (typeof chunk === 'string' && stringBodies === 'buffer' && (generateETag || chunk.length >= 1000)) {
        // Express 4 and 5 sent this string as a Buffer, so node wrote the
        // head apart, in latin1: a header value `café` goes out as the byte
        // E9, where a string body would take it into its UTF-8. A string as
        // long in bytes as in characters is ASCII, the same in latin1: sent
        // as latin1 it keeps head and body in one write (a Buffer costs a
        // second one, ~10% of a hello world).
        if (length === chunk.length) {
          encoding = 'latin1';
        } else {
          chunk = Buffer.from(chunk, encoding);
          encoding = undefined;
        }
      }
    }

    const req = this.req;
    // Without a conditional header nothing can be fresh: skip the check.
    const headers = req.headers;
    if ((headers['if-none-match'] !== undefined || headers['if-modified-since'] !== undefined) && req.fresh) this.statusCode = 304;
    const status = this.statusCode;
    if (status === 204 || status === 304) {
      this.removeHeader('Content-Type');
      this.removeHeader('Content-Length');
      this.removeHeader('Transfer-Encoding');
      chunk = '';
    } else if (status === 205) {
      this.setHeader('Content-Length', '0');
      this.removeHeader('Transfer-Encoding');
      chunk = '';
    }

    if (req.method === 'HEAD') this.end();
    else this.end(chunk, encoding);
    return this;
  },

  /** Sends `value` as JSON per the app's json settings. */
  json(this: ResponseState, value?: unknown): ResponseState {
    const body = stringifyJson(value, this.app.settings);
    if (!peekContentType(this)) putContentType(this, APPLICATION_JSON);
    return this.send(body);
  },

  /**
   * JSON, or with a callback in the query (`jsonp callback name`) a script
   * calling it: `/**\/ typeof cb === 'function' && cb(json);`. The name is
   * stripped to identifier characters, and nosniff keeps browsers from
   * reading the answer as anything but script.
   */
  jsonp(this: ResponseState, value?: unknown): ResponseState {
    const settings = this.app.settings;
    let body = stringifyJson(value, settings);
    let callback = (this.req.query as Record<string, unknown> | undefined)?.[settings['jsonp callback name'] as string];
    if (!this.getHeader('Content-Type')) {
      this.setHeader('X-Content-Type-Options', 'nosniff');
      this.setHeader('Content-Type', APPLICATION_JSON);
    }
    if (Array.isArray(callback)) callback = callback[0];
    if (typeof callback === 'string' && callback.length !== 0) {
      this.setHeader('X-Content-Type-Options', 'nosniff');
      this.setHeader('Content-Type', 'text/javascript; charset=utf-8');
      const name = callback.replace(UNSAFE_CALLBACK, '');
      // U+2028/U+2029 are valid in JSON but end a line in older JavaScript.
      const args = body === undefined ? '' : body.replace(/\u2028/g, '\\u2028').replace(/\u2029/g, '\\u2029');
      body = `/**/ typeof ${name} === 'function' && ${name}(${args});`;
    }
    return this.send(body);
  },

  /** Sets the status and sends its message as plain text. */
  sendStatus(this: ResponseState, code: number): ResponseState {
    const body = statuses.message[code] || String(code);
    this.status(code);
    this.type('txt');
    return this.send(body);
  },
};
