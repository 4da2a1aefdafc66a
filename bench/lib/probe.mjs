// Before a server is measured, one request checks that it answers the
// scenario as scenarios.js expects: a fast wrong answer (a 404, an empty
// body) must not pass for a fast framework.
import { readFileSync } from 'node:fs';
import { isDeepStrictEqual } from 'node:util';

const PROBE_TIMEOUT_MS = 5_000;

// Resolves to null when the answer is right, or to what is wrong with it.
export async function probe(port, { request, expect }) {
  let res;
  let text;
  try {
    res = await fetch(`http://127.0.0.1:${port}${request.path}`, {
      method: request.method,
      headers: request.headers,
      body: request.body,
      signal: AbortSignal.timeout(PROBE_TIMEOUT_MS),
    });
    text = await res.text();
  } catch (err) {
    return `request failed: ${err.cause?.message || err.message}`;
  }
  const headers = Object.fromEntries(res.headers);
  return checkAnswer({ status: res.status, type: headers['content-type'] || '', text, headers }, expect);
}

// What is wrong with an answer ({ status, type, text, headers }), or null
// when it is right. `headers` (lower-case names) is checked only against a
// scenario whose `expect.headers` asks for some: the answer of a server that
// skipped a middleware lacks that middleware's headers.
export function checkAnswer({ status, type, text, headers = {} }, expect) {
  if (status !== 200) return `status ${status}, expected 200`;
  if (expect.type && !type.startsWith(expect.type)) return `content-type "${type}", expected ${expect.type}`;
  for (const [name, value] of Object.entries(expect.headers ?? {})) {
    if (headers[name] !== value) return `header ${name}: ${JSON.stringify(headers[name] ?? null)}, expected ${JSON.stringify(value)}`;
  }
  if (expect.text !== undefined && text !== expect.text) return `body ${JSON.stringify(text.slice(0, 80))}`;
  if (expect.file && text !== readFileSync(expect.file, 'utf8')) return 'body differs from the file';
  if (expect.json !== undefined) {
    let value;
    try {
      value = JSON.parse(text);
    } catch {
      return `body is not JSON: ${JSON.stringify(text.slice(0, 80))}`;
    }
    if (!isDeepStrictEqual(value, expect.json)) return `JSON body ${text.slice(0, 80)}`;
  }
  return null;
}
