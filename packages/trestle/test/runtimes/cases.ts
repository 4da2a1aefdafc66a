// The requests of the runtime conformance subset (app.cjs answers them), and
// what of an answer is compared: status, the headers below, the body.
import type { OutgoingHttpHeaders } from 'node:http';
import type { Answer } from './spawn';

export interface Case {
  name: string;
  method: string;
  path: string;
  headers?: OutgoingHttpHeaders;
  body?: string;
  /** Headers taken from the answer to the case before (a conditional GET with its ETag). */
  fromPrevious?: (previous: Answer) => OutgoingHttpHeaders;
  /** Not on a platform without files (Workers). */
  files?: boolean;
}

const json = { 'content-type': 'application/json' };
const form = { 'content-type': 'application/x-www-form-urlencoded' };

export const CASES: Case[] = [
  { name: 'a route', method: 'GET', path: '/' },
  { name: 'params and query', method: 'GET', path: '/users/7/books/b%20c?sort=asc&tag=a&tag=b' },
  { name: 'HEAD of a route', method: 'HEAD', path: '/' },
  { name: 'a JSON body', method: 'POST', path: '/echo', headers: json, body: '{"name":"Ada","tags":["x"]}' },
  { name: 'a urlencoded body', method: 'POST', path: '/echo', headers: form, body: 'a=1&b=two%20words' },
  { name: 'a JSON body, 201', method: 'PUT', path: '/echo', headers: json, body: '[1,2,3]' },
  { name: 'a JSON body over the limit: 413', method: 'POST', path: '/echo', headers: json, body: JSON.stringify({ big: 'x'.repeat(2000) }) },
  { name: 'malformed JSON: 400', method: 'POST', path: '/echo', headers: json, body: '{"a":' },
  { name: 'several Set-Cookie', method: 'GET', path: '/cookies/set' },
  { name: 'cookie-parser, signed cookies', method: 'GET', path: '/cookies/read', headers: { cookie: 'plain=one; signed=s%3Atwo.1FfxFOmvOuqFD9wupBQycpOqy23zqWl5%2BqYYKjsPhk4; other=x' } },
  { name: 'an ejs view', method: 'GET', path: '/view' },
  { name: 'a redirect', method: 'GET', path: '/redirect' },
  { name: 'sendStatus 204', method: 'GET', path: '/status/204' },
  { name: 'an error handler', method: 'GET', path: '/thrown' },
  { name: 'the final handler: 500', method: 'GET', path: '/crash' },
  { name: 'the final handler: 404', method: 'GET', path: '/no/such/page' },
  { name: 'who the client is: req.ip, protocol, hostname', method: 'GET', path: '/ip', headers: { host: 'shelf.example:8080' } },
  { name: 'static: a file', method: 'GET', path: '/static/hello.txt', files: true },
  { name: 'static: 304 for its ETag', method: 'GET', path: '/static/hello.txt', fromPrevious: (a) => ({ 'if-none-match': String(a.headers.etag) }), files: true },
  { name: 'static: a range', method: 'GET', path: '/static/hello.txt', headers: { range: 'bytes=6-9' }, files: true },
  { name: 'static: an unsatisfiable range', method: 'GET', path: '/static/hello.txt', headers: { range: 'bytes=500-' }, files: true },
  { name: 'static: a missing file falls through to 404', method: 'GET', path: '/static/nope.txt', files: true },
];

/** The headers compared (Date, Connection and Keep-Alive belong to the server, not the app). */
export const COMPARED = [
  'content-type', 'content-length', 'set-cookie', 'etag', 'last-modified', 'content-range', 'accept-ranges',
  'location', 'cache-control', 'x-powered-by', 'content-security-policy', 'x-content-type-options', 'vary',
];

/** What of an answer is compared. */
export function comparable(answer: Answer, except: readonly string[] = []): object {
  const headers: Record<string, unknown> = {};
  for (const name of COMPARED) if (!except.includes(name) && answer.headers[name] !== undefined) headers[name] = answer.headers[name];
  return { status: answer.status, headers, body: answer.body };
}
