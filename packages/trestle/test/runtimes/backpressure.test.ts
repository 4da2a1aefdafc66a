// Backpressure through app.fetch on Bun, Deno and Cloudflare Workers
// (workerd through miniflare): backpressure.cjs's probe run inside each
// runtime, on its own Request and Response, with the checks the Node test
// makes (test/platforms/fetch-backpressure.test.ts).
import { execFile } from 'node:child_process';
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { describe, test } from 'node:test';
import { Miniflare } from 'miniflare';
import { assertHeldBack, type Probe } from '../platforms/backpressure-checks';
import { BIN, bun, deno, missing, type Runtime } from './spawn';
import { COMPATIBILITY_DATE, bundleWorker } from './worker';

const DIST = join(__dirname, '..', '..', 'dist');
const TOTAL = 12 * 1024 * 1024;
const OPTIONS = { total: TOTAL, chunk: 65536, everyMs: 2, deadlineMs: 10_000 };

/** Runs the probe on `runtime` (at most 30 s, the runtime's start included). */
function onRuntime(runtime: Runtime): Promise<Probe> {
  return new Promise((resolve, reject) => {
    const args = [...runtime.args, join(__dirname, 'probe-run.cjs'), 'backpressure.cjs', join(DIST, 'index.js'), JSON.stringify(OPTIONS)];
    execFile(runtime.command, args, { timeout: 30_000 }, (err, stdout, stderr) => {
      const line = stdout.split('\n').find((l) => l.startsWith('RESULT '));
      if (line !== undefined) resolve(JSON.parse(line.slice(7)) as Probe);
      else reject(new Error(`${runtime.name} gave no result within 30 s (${err?.message ?? 'no error'}):\n${stdout}\n${stderr}`));
    });
  });
}

for (const runtime of [bun, deno]) {
  describe(`app.fetch backpressure on ${runtime.name}`, { skip: missing(runtime) }, () => {
    test("12 MiB to a reader taking a chunk every 2 ms: write() false, 'drain', done within 10 s", async () => {
      assertHeldBack(await onRuntime(runtime), TOTAL, 10);
    });
  });
}

const noWorkerd = existsSync(join(BIN, 'workerd')) || process.env.CI === 'true' ? undefined : 'workerd is not installed (npm ci brings it)';

describe('app.fetch backpressure on Cloudflare Workers (workerd through miniflare)', { skip: noWorkerd }, () => {
  test("12 MiB to a reader taking a chunk every 2 ms: write() false, 'drain', done within 10 s", async () => {
    const script = await bundleWorker(
      `
import framework from ${JSON.stringify(join(DIST, 'index.js'))};
import probe from ${JSON.stringify(join(__dirname, 'backpressure.cjs'))};
export default { async fetch() { return Response.json(await probe(framework, ${JSON.stringify(OPTIONS)})); } };
`,
      __dirname,
    );
    const mf = new Miniflare({ modules: true, script, compatibilityDate: COMPATIBILITY_DATE, compatibilityFlags: ['nodejs_compat'] });
    try {
      const res = await mf.dispatchFetch('http://127.0.0.1/', { signal: AbortSignal.timeout(30_000) });
      const text = await res.text();
      let result: Probe;
      try {
        result = JSON.parse(text) as Probe;
      } catch {
        throw new Error(`the Worker gave no probe result (${res.status}): ${text.slice(0, 500)}`);
      }
      assertHeldBack(result, TOTAL, 10);
    } finally {
      await mf.dispose();
    }
  });
});
