// The app's `Response` as the result each kind of event takes back: payload
// 2.0 with Set-Cookie answers in `cookies`; payload 1.0 with every header in
// `multiValueHeaders`; an ALB in the header mode its event came in (a target
// group without multi-value headers can carry one value per header).
import { STATUS_CODES } from 'node:http';
import type { BinaryRule } from './binary';
import type { EventKind } from './events';
import type { LambdaEvent, LambdaResult, LambdaV1Result } from './types';

/** The headers but Set-Cookie, each name once (several values joined, as a `Headers` gives them). */
function singleHeaders(response: Response): Record<string, string> {
  const headers: Record<string, string> = {};
  for (const [name, value] of response.headers) if (name !== 'set-cookie') headers[name] = value;
  return headers;
}

function multiHeaders(response: Response, cookies: string[]): Record<string, string[]> {
  const headers: Record<string, string[]> = {};
  for (const [name, value] of response.headers) if (name !== 'set-cookie') headers[name] = [value];
  if (cookies.length > 0) headers['set-cookie'] = cookies;
  return headers;
}

/** The result for `event`, the body read whole and encoded as text or base64. */
export async function toResult(response: Response, kind: EventKind, event: LambdaEvent, isBinary: BinaryRule): Promise<LambdaResult> {
  const bytes = new Uint8Array(await response.arrayBuffer());
  const binary = bytes.length > 0 && isBinary(response.headers.get('content-type') ?? '', response.headers, bytes);
  const body = Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength).toString(binary ? 'base64' : 'utf8');
  const statusCode = response.status;
  const cookies = response.headers.getSetCookie();
  if (kind === 'http') {
    return { statusCode, headers: singleHeaders(response), ...(cookies.length > 0 && { cookies }), body, isBase64Encoded: binary };
  }
  if (kind === 'rest') return { statusCode, multiValueHeaders: multiHeaders(response, cookies), body, isBase64Encoded: binary };
  const result: LambdaV1Result = { statusCode, statusDescription: `${statusCode} ${response.statusText || STATUS_CODES[statusCode] || ''}`.trim(), body, isBase64Encoded: binary };
  if (event.multiValueHeaders != null) {
    result.multiValueHeaders = multiHeaders(response, cookies);
  } else {
    result.headers = singleHeaders(response);
    // One value per header in this mode: the last cookie set, as an ALB keeps the last of repeated headers.
    if (cookies.length > 0) result.headers['set-cookie'] = cookies[cookies.length - 1]!;
  }
  return result;
}
