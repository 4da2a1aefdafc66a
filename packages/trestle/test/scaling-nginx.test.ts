// Behind a real nginx (Debian's package, started and stopped here): a rolling
// restart of two trestle processes under a bounded load. Each backend in
// turn gets SIGTERM (trestle.shutdownOnSignals), finishes what it has begun
// and exits, and a new process takes its port. The client sees no failed
// request and every answer whole; every request that reached a backend has
// exactly one access log line; no backend exits with work in flight.
// Skipped, with the reason, where nginx is not installed.
import assert from 'node:assert/strict';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, test } from 'node:test';
import { type Child, startChild } from './lifecycle/child';
import { runLoad } from './lifecycle/load';
import { Nginx, nginxMissing } from './scaling/nginx';
import { freePort } from './scaling/redis';

/** Resolves the waiters of `answered` counts as the load reports its answers. */
function progress() {
  let answered = 0;
  const waiters: Array<{ count: number; resolve: () => void }> = [];
  return {
    onAnswer(n: number) {
      answered = n;
      for (const w of waiters.filter((x) => x.count <= n)) {
        waiters.splice(waiters.indexOf(w), 1);
        w.resolve();
      }
    },
    atLeast: (count: number) => (answered >= count ? Promise.resolve() : new Promise<void>((resolve) => waiters.push({ count, resolve }))),
  };
}

/** SIGTERM, then the shutdown report and the exit code. */
async function stopGracefully(c: Child): Promise<{ cut: number; code: number | string }> {
  const report = c.next('report');
  c.child.kill('SIGTERM');
  const { cut } = (await report).report as { cut: number };
  return { cut, code: await c.exited };
}

describe('behind nginx', { skip: nginxMissing() }, () => {
  test('a rolling restart under load (200 requests/s, 15 s, GETs, slow GETs and POSTs): 0 failed, answered = log lines, no work cut', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'trestle-rolling-'));
    const logFile = join(dir, 'access.log');
    const ports = [await freePort(), await freePort()];
    const backends = [await startChild('trestle', logFile, ports[0]), await startChild('trestle', logFile, ports[1])];
    const nginx = await Nginx.start(ports as number[]);
    const stops: Array<{ cut: number; code: number | string }> = [];
    try {
      const p = progress();
      const load = runLoad({ port: nginx.port, total: 3000, concurrency: 32, rate: 200, onAnswer: p.onAnswer, host: 'app.example' });
      for (let i = 0; i < backends.length; i++) {
        await p.atLeast(800 * (i + 1));
        stops.push(await stopGracefully(backends[i]!));
        backends[i] = await startChild('trestle', logFile, ports[i]);
      }
      const result = await load;
      for (const c of backends) stops.push(await stopGracefully(c));
      const lines = readFileSync(logFile, 'utf8').split('\n').filter(Boolean);
      assert.deepEqual(result.failed, {});
      assert.deepEqual(result.wrong, []);
      assert.equal(result.answered, 3000);
      assert.equal(lines.length, result.answered);
      assert.deepEqual(stops, [
        { cut: 0, code: 0 },
        { cut: 0, code: 0 },
        { cut: 0, code: 0 },
        { cut: 0, code: 0 },
      ]);
      // Four processes served: each old one and its replacement.
      assert.equal(new Set(lines.map((line) => line.split('pid=')[1])).size, 4);
    } finally {
      for (const c of backends) if (c.child.exitCode === null) c.child.kill('SIGKILL');
      await nginx.stop();
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
