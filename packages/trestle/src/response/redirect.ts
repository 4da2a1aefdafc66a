// res.location and res.redirect: the Location header, and a redirect's body
// negotiated as text or HTML (negotiation is the `accepts` package's job).
import depd from 'depd';
import encodeUrl from 'encodeurl';
import escapeHtml from 'escape-html';
import statuses from 'statuses';
import type { IncomingMessage } from 'node:http';
import type { ResponseState } from './state';
import { lazy } from '../lazy';

const deprecate = depd('trestle');
// Loaded with the first redirect.
const accepts = lazy(() => require('accepts') as typeof import('accepts'));

const REDIRECT_TYPES = ['text', 'html'];

/** The HTML a redirect answers browsers with, from the status message and the escaped location. */
export type RedirectPage = (message: string, href: string) => string;

const v5Page: RedirectPage = (message, href) =>
  `<!DOCTYPE html><head><title>${message}</title></head><body><p>${message}. Redirecting to ${href}</p></body>`;

/** What a redirect's body says, as text or HTML per the Accept header (empty when neither is accepted). */
function redirectBody(res: ResponseState, status: number, location: string, page: RedirectPage, charset: string, textHref: (location: string) => string): string {
  const type = accepts()(res.req as unknown as IncomingMessage).types(REDIRECT_TYPES) as string | false;
  res.vary('Accept');
  const message = statuses.message[status];
  if (type === 'text') {
    res.setHeader('Content-Type', `text/plain; charset=${charset}`);
    return `${message}. Redirecting to ${textHref(location)}`;
  }
  if (type === 'html') {
    res.setHeader('Content-Type', `text/html; charset=${charset}`);
    return page(`${message}`, escapeHtml(location));
  }
  return '';
}

/**
 * `redirect(url)` or `redirect(status, url)`, 302 by default, answering
 * browsers with `page` (generations before v5 send a shorter page) in
 * `charset` (Express 3 wrote it `UTF-8`); the text answer names the location
 * as `textHref` gives it (Express 3 passed its unencoded Location through `encodeURI`).
 * Only Express 5 warns of a missing or non-string url (`warns`): Express 4 and 3 print nothing,
 * and their wrappers would stand where depd names the app's call.
 */
export function makeRedirect(page: RedirectPage, charset = 'utf-8', textHref: (location: string) => string = asIs, warns = false): (this: ResponseState, url: unknown, target?: unknown) => void {
  return function redirect(this: ResponseState, url: unknown, target?: unknown): void {
    let address = url;
    let status = 302 as number;
    if (arguments.length >= 2) {
      status = url as number;
      address = target;
    }
    if (warns) {
      if (!address) deprecate('res.redirect(undefined): Provide a url argument');
      if (typeof address !== 'string') deprecate('res.redirect(url): Url must be a string');
      if (typeof status !== 'number') deprecate('res.redirect(status, url): Status must be a number');
    }
    // Through location(), so a generation that answers it differently redirects the same way.
    this.location(address as string);
    const location = String(this.getHeader('Location'));
    const body = redirectBody(this, status, location, page, charset, textHref);
    this.status(status);
    this.setHeader('Content-Length', String(Buffer.byteLength(body)));
    if (this.req.method === 'HEAD') this.end();
    else this.end(body);
  };
}

function asIs(location: string): string {
  return location;
}

export const redirectMembers = {
  /** Sets Location, percent-encoding what a URL may not hold as is (v5: `back` is not special). */
  location(this: ResponseState, url: string): ResponseState {
    this.setHeader('Location', encodeUrl(url));
    return this;
  },

  /**
   * `redirect(url)` or `redirect(status, url)`, 302 by default. The body says
   * where to go, as text or HTML (escaped) per the Accept header, or is empty.
   */
  redirect: makeRedirect(v5Page, 'utf-8', asIs, true),
};
