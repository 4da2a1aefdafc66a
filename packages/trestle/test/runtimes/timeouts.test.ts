// res.setTimeout and req.socket.setTimeout through app.fetch on Bun, Deno
// and Cloudflare Workers (workerd through miniflare), as over a socket:
// timeouts.cjs's probe run inside each runtime (Node's own tests:
// test/platforms/fetch-timeouts.test.ts). Each wait bounded (30 s for a
// runtime's start and the probe).
import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { describe, test } from 'node:test';
import { Miniflare } from 'miniflare';
import { BIN, bun, deno, missing, type Runtime } from './spawn';
import { COMPATIBILITY_DATE, bundleWorker } from './worker';

const DIST = join(__dirname, '..', '..', 'dist');

interface Result {
  resAfter?: number;
  resStatus: number;
  resBody: string;
  socket: string;
  socketCalled: boolean;
}

function check(r: Result): void {
  assert.equal(r.resStatus, 503, 'the res.setTimeout callback did not answer');
  assert.equal(r.resBody, 'timed out');
  assert.ok(r.resAfter !== undefined && r.resAfter >= 140, `the res.setTimeout callback came after ${r.resAfter} ms (timeout 150 ms)`);
  assert.equal(r.socket, 'rejected ECONNRESET', 'the connection was not closed after req.socket.setTimeout');
  assert.ok(r.socketCalled, 'the req.socket.setTimeout callback was not called');
}

function onRuntime(runtime: Runtime): Promise<Result> {
  return new Promise((resolve, reject) => {
    execFile(runtime.command, [...runtime.args, join(__dirname, 'probe-run.cjs'), 'timeouts.cjs', join(DIST, 'index.js')], { timeout: 30_000 }, (err, stdout, stderr) => {
      const line = stdout.split('\n').find((l) => l.startsWith('RESULT '));
      if (line !== undefined) resolve(JSON.parse(line.slice(7)) as Result);
      else reject(new Error(`${runtime.name} gave no timeout result within 30 s (${err?.message ?? 'no error'}):\n${stdout}\n${stderr}`));
    });
  });
}

for (const runtime of [bun, deno]) {
  describe(`app.fetch socket timers on ${runtime.name}`, { skip: missing(runtime) }, () => {
    test('res.setTimeout answers from its callback; req.socket.setTimeout closes the connection', async () => {
      check(await onRuntime(runtime));
    });
  });
}

const noWorkerd = existsSync(join(BIN, 'workerd')) || process.env.CI === 'true' ? undefined : 'workerd is not installed (npm ci brings it)';

describe('app.fetch socket timers on Cloudflare Workers (workerd through miniflare)', { skip: noWorkerd }, () => {
  test('res.setTimeout answers from its callback; req.socket.setTimeout closes the connection', async () => {
    const script = await bundleWorker(
      `
import framework from ${JSON.stringify(join(DIST, 'index.js'))};
import probe from ${JSON.stringify(join(__dirname, 'timeouts.cjs'))};
export default { async fetch() { return Response.json(await probe(framework)); } };
`,
      __dirname,
    );
    const mf = new Miniflare({ modules: true, script, compatibilityDate: COMPATIBILITY_DATE, compatibilityFlags: ['nodejs_compat'] });
    try {
      const res = await mf.dispatchFetch('http://127.0.0.1/', { signal: AbortSignal.timeout(30_000) });
      const text = await res.text();
      let result: Result;
      try {
        result = JSON.parse(text) as Result;
      } catch {
        throw new Error(`the Worker gave no timeout result (${res.status}): ${text.slice(0, 500)}`);
      }
      check(result);
    } finally {
      await mf.dispose();
    }
  });
});
