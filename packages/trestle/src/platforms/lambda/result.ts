// The app's `Response` as the result each kind of event takes back: payload
// 2.0 with Set-Cookie answers in `cookies`; payload 1.0 with every header in
// `multiValueHeaders`; an ALB in the header mode its event came in (a target
// group without multi-value headers can carry one value per header).
import { STATUS_CODES } from 'node:http';
import { createError } from '../../errors';
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

/** Lambda's limit on a buffered answer: the result as JSON, as the runtime posts it (AWS's "6 MB"). */
export const MAX_RESULT_BYTES = 6_291_556;

/**
 * The result, refused when Lambda would refuse it: a clear error (the
 * invocation fails, API Gateway and ALB answer 502) instead of Lambda's own
 * or a body cut short. Measured exactly only near the limit: a JSON string
 * takes at most 6 bytes per character.
 */
function withinLimit<R extends LambdaResult>(result: R, method: string, path: string): R {
  if (result.body.length * 6 < MAX_RESULT_BYTES - 65_536) return result;
  const size = Buffer.byteLength(JSON.stringify(result));
  if (size <= MAX_RESULT_BYTES) return result;
  throw createError(RangeError, 'TRESTLE_ERR_LAMBDA_RESULT_TOO_LARGE',
    `lambda(): the answer to ${method} ${path} is ${size} bytes as a Lambda result, over Lambda's limit of ${MAX_RESULT_BYTES} for a buffered answer; stream it (lambda(app, { streaming: true })) or send less`);
}

/** The result for `event`, the body read whole and encoded as text or base64. */
export async function toResult(response: Response, kind: EventKind, event: LambdaEvent, isBinary: BinaryRule, request: Request): Promise<LambdaResult> {
  const result = await resultOf(response, kind, event, isBinary);
  return withinLimit(result, request.method, new URL(request.url).pathname);
}

async function resultOf(response: Response, kind: EventKind, event: LambdaEvent, isBinary: BinaryRule): Promise<LambdaResult> {
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
