// Which kind of HTTP event Lambda was invoked with, and what every kind
// shares on the way to a `Request`: the URL's scheme and host as AWS's front
// end saw them, a path prefix the app does not see, and the body.
import { createError } from '../../errors';
import type { LambdaEvent } from './types';

/** API Gateway payload 1.0, payload 2.0 (HTTP APIs, function URLs), or an ALB target group. */
export type EventKind = 'rest' | 'http' | 'alb';

/** The event's kind, from the fields each documented shape has; anything else is not an HTTP event. */
export function kindOf(event: unknown): EventKind {
  if (event !== null && typeof event === 'object') {
    const e = event as Record<string, unknown> & { requestContext?: Record<string, unknown> };
    if (e.version === '2.0' && typeof e.rawPath === 'string' && typeof e.requestContext?.http === 'object') return 'http';
    if (typeof e.httpMethod === 'string' && typeof e.path === 'string') return typeof e.requestContext?.elb === 'object' ? 'alb' : 'rest';
  }
  throw createError(TypeError, 'TRESTLE_ERR_LAMBDA_EVENT', 'lambda(): the event is not an HTTP event (API Gateway, Application Load Balancer or function URL)');
}

/** `path` without `prefix` when it starts with it as whole segments. */
export function stripPrefix(path: string, prefix: string | undefined): string {
  if (prefix === undefined || prefix === '' || prefix === '/') return path;
  if (path === prefix) return '/';
  return path.startsWith(prefix) && path.charCodeAt(prefix.length) === 47 /* / */ ? path.slice(prefix.length) : path;
}

/**
 * The `Request` URL: the scheme the client used (AWS's front ends send
 * X-Forwarded-Proto; they only take HTTPS when they do not), the Host, and a
 * path whose `?` and `#` are the path's own (AWS gives paths decoded).
 */
export function urlOf(headers: Headers, domainName: string | undefined, path: string, query: string): string {
  const proto = headers.get('x-forwarded-proto')?.split(',')[0]?.trim() || 'https';
  const host = headers.get('host') ?? domainName ?? 'localhost';
  const safePath = (path.charCodeAt(0) === 47 ? path : `/${path}`).replace(/[?#]/g, encodeURIComponent);
  return `${proto === 'http' ? 'http' : 'https'}://${host}${safePath}${query === '' ? '' : `?${query}`}`;
}

/** The request body: base64-decoded when AWS says so; none for GET and HEAD, which a `Request` cannot carry. */
export function bodyOf(event: LambdaEvent, method: string, headers: Headers): Uint8Array<ArrayBuffer> | null {
  const body = event.body;
  if (body == null || method === 'GET' || method === 'HEAD') return null;
  const bytes = Buffer.from(body, event.isBase64Encoded === true ? 'base64' : 'utf8');
  // The length of what the app reads: a base64 body's Content-Length (if any) is the client's, of the decoded bytes.
  headers.set('content-length', String(bytes.length));
  return bytes as Uint8Array<ArrayBuffer>;
}

/** A `Request` made from the event, and who the client is. */
export interface Incoming {
  request: Request;
  remoteAddress: string | undefined;
}

export function makeRequest(method: string, url: string, headers: Headers, body: Uint8Array<ArrayBuffer> | null): Request {
  return new Request(url, { method, headers, body });
}
