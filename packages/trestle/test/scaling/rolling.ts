// The rolling restart behind nginx (scaling-nginx.test.ts, and
// `node --import tsx packages/trestle/test/scaling/rolling.ts express5 [retry-posts]` for
// the comparison in docs/production.md): two backends behind a private
// nginx, a bounded load through it, each backend in turn told to shut down
// with SIGTERM and replaced by a new process on its port.
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { type Child, startChild } from '../lifecycle/child';
import { type LoadResult, runLoad } from '../lifecycle/load';
import { Nginx } from './nginx';
import { freePort } from './redis';

export interface RollingResult {
  load: LoadResult;
  /** Access log lines written by all the backends. */
  lines: string[];
  /** For each backend stopped, in order: requests its shutdown cut, and its exit code. */
  stops: Array<{ cut: number; code: number | string }>;
  /** Milliseconds from each SIGTERM to the exit. */
  stopMs: number[];
}

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
async function stopGracefully(c: Child, stopMs: number[]): Promise<{ cut: number; code: number | string }> {
  const started = Date.now();
  const report = c.next('report');
  c.child.kill('SIGTERM');
  const { cut } = (await report).report as { cut: number };
  const code = await c.exited;
  stopMs.push(Date.now() - started);
  return { cut, code };
}

/**
 * `total` requests at `rate` a second; backend i is restarted after (i + 1) *
 * `total` / 4 answers. `retryPosts`: nginx passes a POST whose connection
 * failed to the next backend too (`non_idempotent`), not only GETs.
 */
export async function rollingRestart(entry: string, total = 3000, rate = 200, retryPosts = false): Promise<RollingResult> {
  const dir = mkdtempSync(join(tmpdir(), 'trestle-rolling-'));
  const logFile = join(dir, 'access.log');
  const ports = [await freePort(), await freePort()] as const;
  const backends = [await startChild(entry, logFile, ports[0]), await startChild(entry, logFile, ports[1])];
  const nginx = await Nginx.start([...ports], { retryPosts });
  const stops: RollingResult['stops'] = [];
  const stopMs: number[] = [];
  try {
    const p = progress();
    const running = runLoad({ port: nginx.port, total, concurrency: 32, rate, onAnswer: p.onAnswer, host: 'app.example' });
    for (let i = 0; i < backends.length; i++) {
      await p.atLeast(((i + 1) * total) / 4);
      stops.push(await stopGracefully(backends[i]!, stopMs));
      backends[i] = await startChild(entry, logFile, ports[i]);
    }
    const load = await running;
    for (const c of backends) stops.push(await stopGracefully(c, stopMs));
    return { load, lines: readFileSync(logFile, 'utf8').split('\n').filter(Boolean), stops, stopMs };
  } finally {
    for (const c of backends) if (c.child.exitCode === null) c.child.kill('SIGKILL');
    await nginx.stop();
    rmSync(dir, { recursive: true, force: true });
  }
}

if (require.main === module) {
  void rollingRestart(process.argv[2] ?? 'trestle', 3000, 200, process.argv[3] === 'retry-posts').then((r) => {
    console.log(JSON.stringify({ answered: r.load.answered, failed: r.load.failed, wrong: r.load.wrong.length, lines: r.lines.length, stops: r.stops, stopMs: r.stopMs }));
  });
}
