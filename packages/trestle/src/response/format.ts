// res.format: calls the handler for the media type the client prefers, or
// passes a 406 on. Negotiation is the `accepts` package's job.
import type { IncomingMessage } from 'node:http';
import { createHttpError } from '../errors';
import { lazy } from '../lazy';
import type { Done, ResponseState } from './state';

// Loaded with the first res.format (accepts and the mime database).
const accepts = lazy(() => require('accepts') as typeof import('accepts'));
const mime = lazy(() => require('mime-types') as typeof import('mime-types'));

type FormatHandler = (req: unknown, res: unknown, next: Done | undefined) => unknown;

/** `json` -> `application/json`; `text/html; q=0.5` -> `text/html`. */
function mediaType(key: string): string {
  if (key.indexOf('/') === -1) return mime().lookup(key) || 'application/octet-stream';
  const semi = key.indexOf(';');
  return (semi === -1 ? key : key.slice(0, semi)).trim();
}

export const formatMembers = {
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
      // `types` lists what the server could have sent.
      next!(createHttpError(406, 'TRESTLE_ERR_NOT_ACCEPTABLE', 'Not Acceptable', { types: keys.map(mediaType) }));
    }
    return this;
  },
};
