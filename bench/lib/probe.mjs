// Before a server is measured, one request checks that it answers the
// scenario as scenarios.js expects: a fast wrong answer (a 404, an empty
// body) must not pass for a fast framework.
import { readFileSync } from 'node:fs';
import { isDeepStrictEqual } from 'node:util';
import scenarioData from '../scenarios.js';

const PROBE_TIMEOUT_MS = 5_000;

// One request; resolves to { status, type, text, headers }, or to a string saying why it failed.
async function ask(port, request, path) {
  try {
    const res = await fetch(`http://127.0.0.1:${port}${path}`, {
      method: request.method,
      headers: request.headers,
      body: request.body,
      signal: AbortSignal.timeout(PROBE_TIMEOUT_MS),
    });
    const text = await res.text();
    const headers = Object.fromEntries(res.headers);
    return { status: res.status, type: headers['content-type'] || '', text, headers };
  } catch (err) {
    return `request failed: ${err.cause?.message || err.message}`;
  }
}

// Resolves to null when the answer is right, or to what is wrong with it. A
// varied scenario (a counter in the answer, or a path that varies) is asked
// twice, and the two bodies must differ.
export async function probe(port, { request, expect }) {
  const first = await ask(port, request, request.path);
  const wrong = typeof first === 'string' ? first : checkAnswer(first, expect);
  if (wrong || !(expect.counter || request.vary)) return wrong;
  const second = await ask(port, request, scenarioData.requestPath(request, 1));
  if (typeof second === 'string') return second;
  if (second.status !== 200) return `status ${second.status} on a second request, expected 200`;
  return second.text === first.text ? 'the body did not change from one request to the next' : null;
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
    if (expect.counter) {
      // json-varied: the object plus an integer counter, checked then left out.
      if (!Number.isInteger(value?.[expect.counter])) return `no integer "${expect.counter}" in ${text.slice(0, 80)}`;
      value = { ...value };
      delete value[expect.counter];
    }
    if (!isDeepStrictEqual(value, expect.json)) return `JSON body ${text.slice(0, 80)}`;
  }
  return null;
}
