// The answer when nothing else answered: a 404 page, or the error page of an
// error nobody handled. Same status codes, headers and page as Express users
// know, so their clients and tests see no difference.
import type { IncomingMessage, ServerResponse } from 'node:http';
import encodeUrl from 'encodeurl';
import escapeHtml from 'escape-html';
import onFinished from 'on-finished';
import statuses from 'statuses';
import { getPathname } from '../router/url';
import { requestFinal } from '../observability/channels';
import { isAbortReason } from '../lifecycle/signal';
import { type ErrorAnswer, errorAnswer } from '../errors';

/** How a generation writes the final page (legacy: Express 3's bare text). */
export interface FinalPage {
  /** The 404 message for the request. */
  notFound(method: string | undefined, originalUrl: string): string;
  /** The body sent for `message`. */
  body(message: string): string;
  /** Whether `Content-Security-Policy: default-src 'none'` goes with it. */
  contentSecurityPolicy: boolean;
}

/** The app whose request ended here: its `env` setting is read when needed, and its generation's page. */
export interface FinalApp {
  settings: Record<string, unknown>;
  _framework?: { profile: { finalPage?: FinalPage } };
}

/** Express 5's and 4's page. */
const EXPRESS_PAGE: FinalPage = {
  notFound: (method, originalUrl) => `Cannot ${method} ${encodeUrl(getPathname(originalUrl))}`,
  body: page,
  contentSecurityPolicy: true,
};

interface ErrorLike {
  status?: unknown;
  statusCode?: unknown;
  headers?: unknown;
  stack?: unknown;
  toString?: () => string;
}

type Done = (err?: unknown) => void;

export function finalHandler(req: IncomingMessage & { originalUrl?: string }, res: ServerResponse, app: FinalApp): Done {
  return function done(err?: unknown): void {
    const env = app.settings.env as string;
    const finalPage = app._framework?.profile.finalPage ?? EXPRESS_PAGE;
    // 'route' and 'router' reaching the end are not errors.
    if (err === 'route' || err === 'router') err = undefined;
    let status: number;
    let message: string;
    let headers: Record<string, unknown> | undefined;
    let answer: ErrorAnswer | undefined;
    if (err) {
      answer = errorAnswer(err);
      status = errorStatus(err);
      if (status === 0) status = res.statusCode >= 400 && res.statusCode < 600 ? res.statusCode : 500;
      else headers = errorHeaders(err);
      message = errorMessage(err, status, env);
      // The abort of req.signal (the client left, the deadline passed) coming back from the work it stopped is no bug to report.
      if (!isAbortReason(req, err)) logError(err, env);
    } else {
      status = 404;
      message = finalPage.notFound(req.method, req.originalUrl ?? req.url ?? '/');
    }
    if (requestFinal.hasSubscribers) requestFinal.publish({ req, res, app, error: err, status });
    if (res.headersSent) {
      cutShort(req, res);
      return;
    }
    const send = () => write(req, res, status, headers, message, finalPage, answer);
    if (onFinished.isFinished(req)) {
      send();
      return;
    }
    // Read (and drop) the rest of the request body before answering.
    req.unpipe();
    onFinished(req, send);
    req.resume();
  };
}

/** Unhandled errors go to stderr, except under test. */
function logError(err: unknown, env: string): void {
  if (env === 'test') return;
  const e = err as { stack?: string; toString(): string };
  console.error(e?.stack || String(e));
}

/** The 4xx/5xx status an error carries, or 0. */
function errorStatus(err: unknown): number {
  const e = err as ErrorLike;
  for (const s of [e?.status, e?.statusCode]) {
    if (typeof s === 'number' && s >= 400 && s < 600) return s;
  }
  return 0;
}

function errorHeaders(err: unknown): Record<string, unknown> | undefined {
  const h = (err as ErrorLike).headers;
  return h !== null && typeof h === 'object' ? (h as Record<string, unknown>) : undefined;
}

function errorMessage(err: unknown, status: number, env: string): string {
  let msg: string | undefined;
  if (env !== 'production') {
    const e = err as ErrorLike;
    msg = typeof e?.stack === 'string' ? e.stack : undefined;
    if (!msg && e !== null && e !== undefined && typeof e.toString === 'function') msg = e.toString();
  }
  return msg || statuses.message[status] || String(status);
}

/**
 * An error after the headers went out. While that answer is still being
 * written, all we can do is cut it short so the client sees it fail. Once it
 * was ended it is whole (maybe still flushing), and the keep-alive socket may
 * already carry the client's next request: destroying it then would truncate
 * a good answer or kill an innocent request (Express does both).
 */
function cutShort(req: IncomingMessage, res: ServerResponse): void {
  if (!res.writableEnded) req.socket?.destroy();
}

/** The message as HTML text: escaped, line breaks as `<br>`, runs of spaces kept. */
export function htmlText(message: string): string {
  return escapeHtml(message).replace(/\n/g, '<br>').replace(/ {2}/g, ' &nbsp;');
}

function page(message: string): string {
  const body = htmlText(message);
  return `<!DOCTYPE html>\n<html lang="en">\n<head>\n<meta charset="utf-8">\n<title>Error</title>\n</head>\n<body>\n<pre>${body}</pre>\n</body>\n</html>\n`;
}

function write(req: IncomingMessage, res: ServerResponse, status: number, headers: Record<string, unknown> | undefined, message: string, finalPage: FinalPage, answer?: ErrorAnswer): void {
  if (res.headersSent) {
    cutShort(req, res);
    return;
  }
  const body = answer?.body ?? finalPage.body(message);
  res.statusCode = status;
  res.statusMessage = statuses.message[status] ?? String(status);
  // Headers describing a body we are not sending any more must go.
  res.removeHeader('Content-Encoding');
  res.removeHeader('Content-Language');
  res.removeHeader('Content-Range');
  if (headers !== undefined) {
    for (const name of Object.keys(headers)) {
      try {
        res.setHeader(name, headers[name] as string);
      } catch {
        // An invalid header on an error object must not turn one error into a crash.
      }
    }
  }
  if (finalPage.contentSecurityPolicy) res.setHeader('Content-Security-Policy', "default-src 'none'");
  res.setHeader('X-Content-Type-Options', 'nosniff');
  res.setHeader('Content-Type', answer?.type ?? 'text/html; charset=utf-8');
  res.setHeader('Content-Length', Buffer.byteLength(body, 'utf8'));
  if (req.method === 'HEAD') res.end();
  else res.end(body, 'utf8');
}
