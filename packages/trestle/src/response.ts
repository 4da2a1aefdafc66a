// The response prototype's own members, shared by every profile. Each app's
// `app.response` inherits from the profile's response object, which inherits
// from these and from node's ServerResponse.
import mime from 'mime-types';
import statuses from 'statuses';
import type { EtagFn } from './settings';

type HeaderInput = string | number | readonly string[] | boolean | null | undefined;

/** What the members below read from the response. */
export interface ResponseState {
  statusCode: number;
  req: { method?: string | undefined; fresh: boolean; next?: (err?: unknown) => void };
  app: {
    settings: Record<string, unknown>;
    render(name: string, options: object, cb: (err: Error | null, html?: string) => void): void;
  };
  headersSent: boolean;
  getHeader(name: string): number | string | string[] | undefined;
  setHeader(name: string, value: number | string | readonly string[]): unknown;
  removeHeader(name: string): void;
  end(chunk?: unknown, encoding?: BufferEncoding): unknown;
  set(field: string | Record<string, HeaderInput>, value?: HeaderInput): ResponseState;
  type(type: string): ResponseState;
  send(body?: unknown): ResponseState;
  status(code: number): ResponseState;
  locals: Record<string, unknown>;
}

// Content types the hot paths set, computed once instead of per response.
const TEXT_HTML = 'text/html; charset=utf-8';
const APPLICATION_JSON = 'application/json; charset=utf-8';
const knownTypes = new Map<string, string>([
  ['html', TEXT_HTML],
  ['json', APPLICATION_JSON],
  ['txt', 'text/plain; charset=utf-8'],
  ['bin', 'application/octet-stream'],
]);

/** `text/html` for `html`, `a/b` as given: the Content-Type for `res.type(x)`. */
export function contentTypeFor(type: string): string {
  const known = knownTypes.get(type);
  if (known !== undefined) return known;
  return type.indexOf('/') === -1 ? mime.contentType(type) || 'application/octet-stream' : type;
}

/** Sets (or replaces) the charset parameter of a Content-Type value. */
export function setCharset(type: string, charset: string): string {
  const semi = type.indexOf(';');
  if (semi === -1) return `${type}; charset=${charset}`;
  const params = type
    .slice(semi + 1)
    .split(';')
    .map((p) => p.trim())
    .filter((p) => p.length !== 0 && !/^charset=/i.test(p));
  params.push(`charset=${charset}`);
  return `${type.slice(0, semi)}; ${params.join('; ')}`;
}

/** JSON the way the `json replacer`, `json spaces` and `json escape` settings say. */
export function stringifyJson(value: unknown, settings: Record<string, unknown>): string | undefined {
  const replacer = settings['json replacer'] as Parameters<typeof JSON.stringify>[1];
  const spaces = settings['json spaces'] as string | number | undefined;
  let json = replacer || spaces ? JSON.stringify(value, replacer as never, spaces) : JSON.stringify(value);
  if (settings['json escape'] && typeof json === 'string') {
    // Keeps the JSON safe to embed in HTML: no tag or entity can start in it.
    json = json.replace(/[<>&]/g, (c) => (c === '<' ? '\\u003c' : c === '>' ? '\\u003e' : '\\u0026'));
  }
  return json;
}

function headerValue(value: HeaderInput): string | string[] {
  return Array.isArray(value) ? value.map(String) : String(value);
}

export const responseMembers = {
  /** Sets the status; an integer from 100 to 999, else a clear error. */
  status(this: ResponseState, code: number): ResponseState {
    if (!Number.isInteger(code)) {
      throw new TypeError(`Invalid status code: ${JSON.stringify(code)}. Status code must be an integer.`);
    }
    if (code < 100 || code > 999) {
      throw new RangeError(`Invalid status code: ${JSON.stringify(code)}. Status code must be greater than 99 and less than 1000.`);
    }
    this.statusCode = code;
    return this;
  },

  /** `set(name, value)` or `set({ name: value })`; Content-Type gains a charset. */
  set(this: ResponseState, field: string | Record<string, HeaderInput>, value?: HeaderInput): ResponseState {
    if (typeof field === 'string') {
      let v = headerValue(value);
      if (field.length === 12 && field.toLowerCase() === 'content-type') {
        if (Array.isArray(v)) throw new TypeError('Content-Type cannot be set to an Array');
        v = mime.contentType(v as string) || (v as string);
      }
      this.setHeader(field, v);
      return this;
    }
    for (const key of Object.keys(field)) this.set(key, field[key]);
    return this;
  },

  get(this: ResponseState, field: string): number | string | string[] | undefined {
    return this.getHeader(field);
  },

  /** `res.type('json')`, `res.type('html')`, `res.type('text/plain')`. */
  type(this: ResponseState, type: string): ResponseState {
    return this.set('Content-Type', contentTypeFor(type));
  },

  /**
   * Sends a string (HTML by default), a Buffer (octet-stream by default), or
   * anything else as JSON; sets Content-Length and ETag, answers 304 when the
   * client's copy is fresh, and sends no body for HEAD, 204 and 304.
   */
  send(this: ResponseState, body?: unknown): ResponseState {
    let chunk = body;
    let encoding: BufferEncoding | undefined;
    switch (typeof chunk) {
      case 'string':
        encoding = 'utf8';
        {
          const type = this.getHeader('Content-Type');
          if (type === undefined) this.setHeader('Content-Type', TEXT_HTML);
          else if (typeof type === 'string') this.setHeader('Content-Type', setCharset(type, 'utf-8'));
        }
        break;
      case 'boolean':
      case 'number':
      case 'object':
        if (chunk === null) {
          chunk = '';
        } else if (ArrayBuffer.isView(chunk)) {
          if (this.getHeader('Content-Type') === undefined) this.setHeader('Content-Type', 'application/octet-stream');
          if (!Buffer.isBuffer(chunk)) chunk = Buffer.from(chunk.buffer, chunk.byteOffset, chunk.byteLength);
        } else {
          return (this as unknown as { json(v: unknown): ResponseState }).json(chunk);
        }
        break;
    }

    const etagFn = this.app.settings['etag fn'] as EtagFn | undefined;
    const generateETag = etagFn !== undefined && this.getHeader('ETag') === undefined;
    let length: number | undefined;
    if (chunk !== undefined) {
      if (Buffer.isBuffer(chunk)) length = chunk.length;
      else {
        // A short string is measured, not copied: Node encodes it on write.
        length = Buffer.byteLength(chunk as string, encoding);
      }
      this.setHeader('Content-Length', length);
    }
    if (generateETag && length !== undefined) {
      const tag = etagFn(chunk as string | Buffer, encoding);
      if (tag) this.setHeader('ETag', tag);
    }

    if (this.req.fresh) this.statusCode = 304;
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

    if (this.req.method === 'HEAD') this.end();
    else this.end(chunk, encoding);
    return this;
  },

  /** Sends `value` as JSON per the app's json settings. */
  json(this: ResponseState, value?: unknown): ResponseState {
    const body = stringifyJson(value, this.app.settings);
    if (this.getHeader('Content-Type') === undefined) this.setHeader('Content-Type', APPLICATION_JSON);
    return this.send(body);
  },

  /** Sets the status and sends its message as plain text. */
  sendStatus(this: ResponseState, code: number): ResponseState {
    const body = statuses.message[code] || String(code);
    this.status(code);
    this.type('txt');
    return this.send(body);
  },

  /** Renders a view with app, response and call locals; sends it unless given a callback. */
  render(
    this: ResponseState,
    view: string,
    options?: Record<string, unknown> | ((err: Error | null, html?: string) => void),
    callback?: (err: Error | null, html?: string) => void,
  ): void {
    let opts: Record<string, unknown> = {};
    let done = callback;
    if (typeof options === 'function') done = options;
    else if (options) opts = options;
    opts._locals = this.locals;
    const req = this.req;
    done ??= (err, html) => {
      if (err) req.next!(err);
      else this.send(html);
    };
    this.app.render(view, opts, done);
  },

  /** Per-request view locals, created on first use. */
  get locals(): Record<string, unknown> {
    const value = Object.create(null) as Record<string, unknown>;
    Object.defineProperty(this, 'locals', { value, writable: true, enumerable: true, configurable: true });
    return value;
  },
  set locals(value: Record<string, unknown>) {
    Object.defineProperty(this, 'locals', { value, writable: true, enumerable: true, configurable: true });
  },
};

Object.defineProperty(responseMembers, 'header', Object.getOwnPropertyDescriptor(responseMembers, 'set')!);
Object.defineProperty(responseMembers, 'contentType', Object.getOwnPropertyDescriptor(responseMembers, 'type')!);
