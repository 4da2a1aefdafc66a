// API Gateway payload 1.0 (REST APIs) and ALB events to a `Request`. Both
// give `httpMethod` and `path` and either single- or multi-value maps of
// headers and query parameters; they differ in the query (API Gateway
// decodes it, an ALB passes it as the client sent it) and in who the client
// is (API Gateway says `sourceIp`; an ALB appends it to X-Forwarded-For).
import { bodyOf, makeRequest, stripPrefix, urlOf, type Incoming } from './events';
import type { LambdaAlbEvent, LambdaRestEvent, StringMap, StringsMap } from './types';

/** The headers, every value of the multi-value map when there is one (several Cookie headers joined as one). */
function headersOf(single: StringMap, multi: StringsMap): Headers {
  const headers = new Headers();
  if (multi != null) {
    for (const name of Object.keys(multi)) {
      const values = multi[name];
      if (values == null) continue;
      if (name.toLowerCase() === 'cookie') headers.set(name, values.join('; '));
      else for (const value of values) headers.append(name, value);
    }
  } else if (single != null) {
    for (const name of Object.keys(single)) {
      const value = single[name];
      if (value != null) headers.set(name, value);
    }
  }
  return headers;
}

/** The query string, each repeated key kept; API Gateway's decoded values are encoded again, an ALB's are as sent. */
function queryOf(single: StringMap, multi: StringsMap, encode: (s: string) => string): string {
  const parts: string[] = [];
  if (multi != null) {
    for (const key of Object.keys(multi)) for (const value of multi[key] ?? []) parts.push(`${encode(key)}=${encode(value)}`);
  } else if (single != null) {
    for (const key of Object.keys(single)) {
      const value = single[key];
      if (value != null) parts.push(`${encode(key)}=${encode(value)}`);
    }
  }
  return parts.join('&');
}

function asSent(s: string): string {
  return s;
}

export function restRequest(event: LambdaRestEvent, basePath: string | undefined): Incoming {
  const method = event.httpMethod.toUpperCase();
  const headers = headersOf(event.headers, event.multiValueHeaders);
  const query = queryOf(event.queryStringParameters, event.multiValueQueryStringParameters, encodeURIComponent);
  // `path` is the resource's path, without the stage (requestContext.path has it).
  const url = urlOf(headers, event.requestContext?.domainName, stripPrefix(event.path, basePath), query);
  const body = bodyOf(event, method, headers);
  return { request: makeRequest(method, url, headers, body), remoteAddress: event.requestContext?.identity?.sourceIp };
}

export function albRequest(event: LambdaAlbEvent, basePath: string | undefined): Incoming {
  const method = event.httpMethod.toUpperCase();
  const headers = headersOf(event.headers, event.multiValueHeaders);
  const query = queryOf(event.queryStringParameters, event.multiValueQueryStringParameters, asSent);
  const url = urlOf(headers, undefined, stripPrefix(event.path, basePath), query);
  const body = bodyOf(event, method, headers);
  // The ALB connected to nobody: the client is the address it appended to X-Forwarded-For.
  const remoteAddress = headers.get('x-forwarded-for')?.split(',').pop()?.trim() || undefined;
  return { request: makeRequest(method, url, headers, body), remoteAddress };
}
