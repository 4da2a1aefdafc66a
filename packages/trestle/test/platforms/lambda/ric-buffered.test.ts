// trestle/lambda under AWS's own runtime interface client (aws-lambda-ric
// from npm), buffered: the client loads fixtures/app.cjs's `handler` as
// Lambda's Node.js runtime does, takes each event from the Runtime API this
// test serves on 127.0.0.1 and posts the result (or the error) back. The
// events are the documented shapes (test/fixtures/lambda/events.ts); the
// context is the client's own.
import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import { after, before, describe, test } from 'node:test';
import { CLIENT_IP, effective, eventFor, KINDS } from '../../fixtures/lambda/events';
import { json, startFunction, type Function } from './harness';
import { ricUnavailable } from './ric';
import { MAX_BUFFERED_RESPONSE } from './runtime-api';

// Each test says why it is skipped (a skipped suite would report no test at all).
const skip = ricUnavailable();

describe('trestle/lambda under aws-lambda-ric: buffered answers', { timeout: 420_000 }, () => {
  let fn: Function;
  before(async () => {
    if (skip) return;
    fn = await startFunction('app.handler');
  }, { timeout: 330_000 });
  after(async () => {
    await fn?.stop();
  });

  // First: the process has just started (the client, trestle and the app load with it).
  test('cold start: the first invocation is answered, and the time is measured', { skip }, async (t) => {
    const first = await fn.invoke(eventFor('http', { path: '/hello' }), 30_000);
    assert.equal(first.kind, 'response', first.body.toString());
    assert.equal(effective(json(first)).status, 200);
    const init = fn.api.firstNextAt! - fn.spawnedAt;
    const cold = first.doneAt - fn.spawnedAt;
    const warm = await fn.invoke(eventFor('http', { path: '/hello' }));
    const warmMs = warm.doneAt - warm.sentAt;
    t.diagnostic(`cold start: ${init.toFixed(0)} ms from spawn to the first GET /next (client, trestle and the app loaded); ` +
      `${(first.doneAt - first.sentAt).toFixed(1)} ms for the first invocation, ${cold.toFixed(0)} ms from spawn to its result; warm invocation ${warmMs.toFixed(1)} ms`);
    // Generous: the property is that it starts and answers, on a loaded machine.
    assert.ok(cold < 20_000, `the first answer came ${cold.toFixed(0)} ms after the process started`);
  });

  for (const kind of KINDS) {
    test(`${kind}: the request as the app sees it, and the client's own context`, { skip }, async () => {
      const outcome = await fn.invoke(eventFor(kind, { path: '/hello', query: [['x', '1'], ['y', 'two words']] }));
      assert.equal(outcome.kind, 'response');
      const answer = effective(json(outcome));
      assert.equal(answer.status, 200);
      const seen = JSON.parse(answer.body.toString());
      assert.equal(seen.path, '/hello');
      assert.deepEqual(seen.query, { x: '1', y: 'two words' });
      assert.equal(seen.ip, CLIENT_IP[kind]);
      assert.equal(seen.requestId, outcome.id, 'context.awsRequestId is the Runtime API\'s Lambda-Runtime-Aws-Request-Id');
      assert.equal(seen.functionName, 'trestle-test');
      assert.ok(seen.remainingMs > 50_000 && seen.remainingMs <= 60_000, `getRemainingTimeInMillis() from Lambda-Runtime-Deadline-Ms: ${seen.remainingMs}`);
    });

    test(`${kind}: binary bytes in and out, base64 both ways`, { skip }, async () => {
      const bytes = randomBytes(100_000);
      const outcome = await fn.invoke(eventFor(kind, { method: 'POST', path: '/echo', headers: [['content-type', 'image/png']], body: bytes, base64: true }));
      const result = json(outcome);
      assert.equal(result.isBase64Encoded, true);
      const answer = effective(result);
      assert.equal(answer.status, 200);
      assert.ok(answer.body.equals(bytes), 'the answer is the bytes sent');
    });

    test(`${kind}: several cookies and a repeated header`, { skip }, async () => {
      const result = json(await fn.invoke(eventFor(kind, { path: '/headers' })));
      const answer = effective(result);
      // An ALB without multi-value headers carries one value per header: the last cookie.
      assert.deepEqual(answer.headers['set-cookie'], kind === 'alb' ? ['b=2; Path=/'] : ['a=1; Path=/', 'b=2; Path=/']);
      assert.deepEqual(answer.headers['x-several'], ['one, two']);
      if (kind === 'alb-multi' || kind === 'rest') assert.ok(result.multiValueHeaders, 'multiValueHeaders in the result');
      if (kind === 'http' || kind === 'url') assert.deepEqual(result.cookies, ['a=1; Path=/', 'b=2; Path=/']);
    });
  }

  test('a route that throws is the app\'s 500, and the function goes on', { skip }, async () => {
    const outcome = await fn.invoke(eventFor('rest', { path: '/throws' }));
    assert.equal(outcome.kind, 'response');
    const answer = effective(json(outcome));
    assert.equal(answer.status, 500);
    assert.match(answer.body.toString(), /the route failed/);
    const next = await fn.invoke(eventFor('rest', { path: '/hello' }));
    assert.equal(effective(json(next)).status, 200);
  });

  test('a handler that rejects (an event that is not HTTP) is posted to /error, and the next invocation is served', { skip }, async () => {
    const outcome = await fn.invoke({ Records: [{ eventSource: 'aws:sqs', body: 'hello' }] });
    assert.equal(outcome.kind, 'error');
    // The client's native part sends the X-Ray cause (not Lambda-Runtime-Function-Error-Type) with the error.
    assert.match(String(outcome.headers['lambda-runtime-function-xray-error-cause']), /"type":"TypeError"/);
    const error = json(outcome);
    assert.equal(error.errorType, 'TypeError');
    assert.match(String(error.errorMessage), /not an HTTP event/);
    assert.match(fn.ric.output(), /TRESTLE_ERR_LAMBDA_EVENT/, 'the client logged the error with its code');
    const next = await fn.invoke(eventFor('http', { path: '/hello' }));
    assert.equal(effective(json(next)).status, 200);
  });

  test('an answer under Lambda\'s 6 MB goes back whole', { skip }, async () => {
    const outcome = await fn.invoke(eventFor('http', { path: '/bytes/6000000' }));
    assert.equal(outcome.kind, 'response');
    assert.ok(outcome.body.length <= MAX_BUFFERED_RESPONSE);
    const answer = effective(json(outcome));
    assert.equal(answer.status, 200);
    assert.equal(answer.body.length, 6_000_000);
  });

  test('an answer over 6 MB fails the invocation with TRESTLE_ERR_LAMBDA_RESULT_TOO_LARGE, never a body cut short', { skip }, async () => {
    const outcome = await fn.invoke(eventFor('http', { path: '/bytes/6300000' }));
    assert.equal(outcome.kind, 'error', 'the invocation failed rather than posting a result');
    const error = json(outcome);
    assert.equal(error.errorType, 'RangeError');
    assert.match(String(error.errorMessage), /the answer to GET \/bytes\/6300000 is \d+ bytes as a Lambda result, over Lambda's limit of 6291556/);
    assert.match(fn.ric.output(), /TRESTLE_ERR_LAMBDA_RESULT_TOO_LARGE/, 'the client logged the error with its code');
    // Binary counts as Lambda counts it, base64: 4.8 MB of bytes is 6.4 MB of result.
    const binary = await fn.invoke(eventFor('http', { method: 'POST', path: '/echo', headers: [['content-type', 'application/octet-stream']], body: randomBytes(4_800_000), base64: true }));
    assert.equal(binary.kind, 'error');
    assert.match(String(json(binary).errorMessage), /over Lambda's limit/);
    const next = await fn.invoke(eventFor('http', { path: '/hello' }));
    assert.equal(effective(json(next)).status, 200);
  });
});
