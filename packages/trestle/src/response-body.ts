// The members that write a body: send, json, jsonp, sendStatus. send() and
// json() are the framework's hottest paths: they read only the headers and
// settings the call needs and use precomputed header values.
import statuses from 'statuses';
import { APPLICATION_JSON, setCharset, TEXT_HTML } from './response-headers';
import type { ResponseState } from './response-state';
import { compileETag, type EtagFn } from './settings';

// The built-in ETag functions hash a string as its UTF-8 bytes, so send()
// hands them the string itself; any other function gets a Buffer.
const builtinETags = new Set<unknown>([compileETag('weak'), compileETag('strong')]);

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
    let chunk = body;
    switch (typeof chunk) {
      case 'string':
        if (this.getHeader('Content-Type') === undefined) this.setHeader('Content-Type', TEXT_HTML);
        break;
      case 'boolean':
      case 'number':
      case 'object':
        if (chunk === null) {
          chunk = '';
        } else if (ArrayBuffer.isView(chunk)) {
          if (this.getHeader('Content-Type') === undefined) this.setHeader('Content-Type', 'application/octet-stream');
          if (!Buffer.isBuffer(chunk)) chunk = Buffer.from(chunk as Uint8Array);
        } else {
          return this.json(chunk);
        }
        break;
    }

    let encoding: BufferEncoding | undefined;
    if (typeof chunk === 'string') {
      encoding = 'utf8';
      const type = this.getHeader('Content-Type');
      if (typeof type === 'string') this.setHeader('Content-Type', setCharset(type));
    }

    const etagFn = this.app.settings['etag fn'] as EtagFn | undefined;
    const generateETag = typeof etagFn === 'function' && this.getHeader('ETag') === undefined;
    let length: number | undefined;
    if (chunk !== undefined) {
      if (Buffer.isBuffer(chunk)) {
        length = chunk.length;
      } else if (!generateETag || builtinETags.has(etagFn)) {
        // Measured, not copied: node encodes the string as it writes it.
        length = Buffer.byteLength(chunk as string, encoding);
      } else {
        chunk = Buffer.from(chunk as string, encoding);
        encoding = undefined;
        length = (chunk as Buffer).length;
      }
      this.setHeader('Content-Length', length);
    }
    if (generateETag && length !== undefined) {
      const tag = etagFn(chunk as string | Buffer, encoding);
      if (tag) this.setHeader('ETag', tag);
    }

    const req = this.req;
    if (req.fresh) this.statusCode = 304;
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
    if (this.getHeader('Content-Type') === undefined) this.setHeader('Content-Type', APPLICATION_JSON);
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
    if (this.getHeader('Content-Type') === undefined) {
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
