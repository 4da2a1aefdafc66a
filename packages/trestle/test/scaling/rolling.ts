// The rolling restart behind nginx (scaling-nginx.test.ts, and
// `node --import tsx packages/trestle/test/scaling/rolling.ts express5` for
// the comparison in docs/production.md): two backends behind a private
// nginx, a bounded load through it, each backend in turn told to shut down
// with SIGTERM and replaced by a new process on its port.
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { type Child, startChild } from '../lifecycle/child';
import { type LoadResult, runLoad } from '../lifecycle/load';
import { within } from '../lifecycle-helpers';
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
    atLeast: (count: number) =>
      within(answered >= count ? Promise.resolve() : new Promise<void>((resolve) => waiters.push({ count, resolve })), `${count} answers through nginx (${answered} so far)`, 20_000),
  };
}

/** SIGTERM, then the shutdown report and the exit code. */
async function stopGracefully(c: Child, stopMs: number[]): Promise<{ cut: number; code: number | string }> {
  const started = Date.now();
  const report = within(c.next('report'), `shutdown report of backend ${c.child.pid} after SIGTERM`, 10_000);
  c.child.kill('SIGTERM');
  const { cut } = (await report).report as { cut: number };
  const code = await within(c.exited, `exit of backend ${c.child.pid} after its report`);
  stopMs.push(Date.now() - started);
  return { cut, code };
}

/**
 * `total` requests at `rate` a second; backend i is restarted after (i + 1) *
 * `total` / 4 answers.
 */
export async function rollingRestart(entry: string, total = 3000, rate = 200): Promise<RollingResult> {
  const dir = mkdtempSync(join(tmpdir(), 'trestle-rolling-'));
  const logFile = join(dir, 'access.log');
  const ports = [await freePort(), await freePort()] as const;
  const backends = [await startChild(entry, logFile, ports[0]), await startChild(entry, logFile, ports[1])];
  const nginx = await Nginx.start([...ports]);
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

export interface RunResult {
  load: LoadResult;
  /** Ids of the POSTs the backends ran in this run (one line each in `.orders`), in order. */
  ran: string[];
  stops: Array<{ cut: number; code: number | string }>;
  stopMs: number[];
}

/** A backend started and listening, within 15 s (tsx compiles it on a busy machine). */
const start = (entry: string, logFile: string, port: number) => within(startChild(entry, logFile, port), `backend on port ${port} listening`, 15_000);

/**
 * `runs` successive runs through one nginx in front of two backends: in
 * each, `total` requests at `rate` a second, 16 clients at a time (GETs,
 * slow GETs, POSTs to /orders each with its own id `run<r>-<i>`), and each
 * backend in turn sent SIGTERM and started again on its port.
 */
export async function rollingRuns(entry: string, runs: number, total: number, rate: number): Promise<{ results: RunResult[]; nginxErrors: string }> {
  const dir = mkdtempSync(join(tmpdir(), 'trestle-rolling-'));
  const logFile = join(dir, 'access.log');
  const ports = [await freePort(), await freePort()] as const;
  const backends = [await start(entry, logFile, ports[0]), await start(entry, logFile, ports[1])];
  const nginx = await Nginx.start([...ports]);
  const results: RunResult[] = [];
  try {
    for (let r = 0; r < runs; r++) {
      const p = progress();
      const stops: RunResult['stops'] = [];
      const stopMs: number[] = [];
      const running = runLoad({ port: nginx.port, total, concurrency: 16, rate, onAnswer: p.onAnswer, host: 'app.example', orders: `run${r}` });
      for (let i = 0; i < backends.length; i++) {
        await p.atLeast(((i + 1) * total) / 3);
        stops.push(await stopGracefully(backends[i]!, stopMs));
        backends[i] = await start(entry, logFile, ports[i]);
      }
      const load = await within(running, `end of run ${r}'s load`, 30_000);
      const ran = readOrders(`${logFile}.orders`).filter((id) => id.startsWith(`run${r}-`));
      results.push({ load, ran, stops, stopMs });
    }
    return { results, nginxErrors: nginx.errors() };
  } finally {
    for (const c of backends) if (c.child.exitCode === null) c.child.kill('SIGKILL');
    await nginx.stop();
    rmSync(dir, { recursive: true, force: true });
  }
}

function readOrders(file: string): string[] {
  try {
    return readFileSync(file, 'utf8')
      .split('\n')
      .filter(Boolean)
      .map((line) => line.split(' ')[0]!);
  } catch {
    return [];
  }
}

if (require.main === module) {
  void rollingRestart(process.argv[2] ?? 'trestle', 3000, 200).then((r) => {
    console.log(JSON.stringify({ answered: r.load.answered, failed: r.load.failed, wrong: r.load.wrong.length, lines: r.lines.length, stops: r.stops, stopMs: r.stopMs }));
  });
}
