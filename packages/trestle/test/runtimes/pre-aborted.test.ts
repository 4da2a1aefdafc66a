// A Request already aborted when app.fetch is called, on Node, Bun and Deno
// (docs/deploy.md, "The client going away" and Deno): refused without running
// the app, except on Deno, where reading a request's signal up front would
// make Deno.serve watch every request (half its throughput): there the app
// runs, and an answer that does not come is refused once the signal is read
// (20-40 ms later), closing the response as a client leaving does. CI runs this file once, on
// its first Node (.ci/run).
import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { join } from 'node:path';
import { test } from 'node:test';
import { promisify } from 'node:util';
import { bun, deno, missing, node, ROOT, type Runtime } from './spawn';

const SCRIPT = join(__dirname, 'pre-aborted.cjs');

async function outcomes(runtime: Runtime): Promise<unknown> {
  const { stdout } = await promisify(execFile)(runtime.command, [...runtime.args, SCRIPT], { cwd: ROOT, timeout: 60_000 });
  return JSON.parse(stdout.trim().split('\n').pop()!);
}

const refused = { now: { rejected: 'gone' }, never: { rejected: 'gone' }, ran: 0, closed: 0 };

for (const runtime of [node, bun]) {
  test(`${runtime.name}: a pre-aborted Request is refused and the app does not run`, { skip: missing(runtime) }, async () => {
    assert.deepEqual(await outcomes(runtime), refused);
  });
}

test('Deno: a pre-aborted Request runs the app; an answer that does not come is refused', { skip: missing(deno) }, async () => {
  assert.deepEqual(await outcomes(deno), { now: { status: 200, body: 'now' }, never: { rejected: 'gone' }, ran: 2, closed: 1 });
});
