// Content negotiation (res.format) and the members built on it: location
// and redirect. Negotiation is the `accepts` package's job.
import depd from 'depd';
import encodeUrl from 'encodeurl';
import escapeHtml from 'escape-html';
import statuses from 'statuses';
import type { IncomingMessage } from 'node:http';
import type { Done, ResponseState } from './state';
import { lazy } from '../lazy';

const deprecate = depd('trestle');
// Loaded with the first redirect or res.format (accepts and the mime database).
const accepts = lazy(() => require('accepts') as typeof import('accepts'));
const mime = lazy(() => require('mime-types') as typeof import('mime-types'));

type FormatHandler = (req: unknown, res: unknown, next: Done | undefined) => unknown;

/** The 406 `res.format` passes on: `types` lists what the server could have sent. */
export class NotAcceptableError extends Error {
  readonly status = 406;
  readonly statusCode = 406;
  readonly expose = true;
  constructor(readonly types: string[]) {
    super('Not Acceptable');
  }
}
NotAcceptableError.prototype.name = 'NotAcceptableError';

/** `json` -> `application/json`; `text/html; q=0.5` -> `text/html`. */
function mediaType(key: string): string {
  if (key.indexOf('/') === -1) return mime().lookup(key) || 'application/octet-stream';
  const semi = key.indexOf(';');
  return (semi === -1 ? key : key.slice(0, semi)).trim();
}

const REDIRECT_TYPES = ['text', 'html'];

/** What a redirect's body says, as text or HTML per the Accept header (empty when neither is accepted). */
function redirectBody(res: ResponseState, status: number, location: string): string {
  const type = accepts()(res.req as unknown as IncomingMessage).types(REDIRECT_TYPES) as string | false;
  res.vary('Accept');
  const message = statuses.message[status];
  if (type === 'text') {
    res.setHeader('Content-Type', 'text/plain; charset=utf-8');
    return `${message}. Redirecting to ${location}`;
  }
  if (type === 'html') {
    res.setHeader('Content-Type', 'text/html; charset=utf-8');
    const title = `${message}`;
    return `<!DOCTYPE html><head><title>${title}</title></head><body><p>${title}. Redirecting to ${escapeHtml(location)}</p></body>`;
  }
  return '';
}

export const redirectMembers = {
  /**
   * Calls the handler for the type the client's Accept header prefers (keys
   * are extensions or media types), with Content-Type set and `Vary: Accept`;
   * else `default`; else passes a 406 to next().
   */
  format(this: ResponseState, handlers: Record<string, FormatHandler>): ResponseState {
    const req = this.req;
    const next = req.next;
    const keys = Object.keys(handlers).filter((k) => k !== 'default');
    const key = keys.length > 0 ? (accepts()(req as unknown as IncomingMessage).types(keys) as string | false) : false;
    this.vary('Accept');
    if (key) {
      this.set('Content-Type', mediaType(key));
      handlers[key]!(req, this, next);
    } else if (handlers.default) {
      handlers.default(req, this, next);
    } else {
      next!(new NotAcceptableError(keys.map(mediaType)));
    }
    return this;
  },

  /** Sets Location, percent-encoding what a URL may not hold as is (v5: `back` is not special). */
  location(this: ResponseState, url: string): ResponseState {
    this.setHeader('Location', encodeUrl(url));
    return this;
  },

  /**
   * `redirect(url)` or `redirect(status, url)`, 302 by default. The body says
   * where to go, as text or HTML (escaped) per the Accept header, or is empty.
   */
  redirect(this: ResponseState, url: unknown, target?: unknown): void {
    let address = url;
    let status = 302 as number;
    if (arguments.length >= 2) {
      status = url as number;
      address = target;
    }
    if (!address) deprecate('res.redirect(undefined): Provide a url argument');
    if (typeof address !== 'string') deprecate('res.redirect(url): Url must be a string');
    if (typeof status !== 'number') deprecate('res.redirect(status, url): Status must be a number');
    // Through location(), so a generation that answers it differently redirects the same way.
    this.location(address as string);
    const location = String(this.getHeader('Location'));
    const body = redirectBody(this, status, location);
    this.status(status);
    this.setHeader('Content-Length', String(Buffer.byteLength(body)));
    if (this.req.method === 'HEAD') this.end();
    else this.end(body);
  },
};
