// Payload 2.0 (HTTP APIs, Lambda function URLs) to a `Request`: the raw path
// and query string as the client sent them, headers already joined, and the
// cookies in their own array.
import { bodyOf, makeRequest, stripPrefix, urlOf, type Incoming } from './events';
import type { LambdaHttpEvent } from './types';

export function httpRequest(event: LambdaHttpEvent, basePath: string | undefined): Incoming {
  const context = event.requestContext;
  const method = context.http.method.toUpperCase();
  const headers = new Headers();
  const given = event.headers;
  if (given != null) {
    for (const name of Object.keys(given)) {
      const value = given[name];
      if (value != null) headers.set(name, value);
    }
  }
  if (event.cookies !== undefined && event.cookies.length > 0) headers.set('cookie', event.cookies.join('; '));
  // A named stage is the first segment of rawPath; `$default` (and function URLs) have none.
  const stage = context.stage;
  let path = stage === undefined || stage === '$default' ? event.rawPath : stripPrefix(event.rawPath, `/${stage}`);
  path = stripPrefix(path, basePath);
  const url = urlOf(headers, context.domainName, path, event.rawQueryString ?? '');
  const body = bodyOf(event, method, headers);
  return { request: makeRequest(method, url, headers, body), remoteAddress: context.http.sourceIp };
}
