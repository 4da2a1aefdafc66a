// One soak run: the soak server in a child process (--expose-gc), a warm-up,
// memory and file descriptors measured with no connection open, load for the
// given time, the same measures again, a graceful shutdown, then the log
// checked line by line against the requests sent. Used by the test (short)
// and by `npm run soak` (as long as asked).
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { bounded, openFds, startChild } from './child';
import { checkLog, drive, type LoadResult, type LogCheck } from './load';

export interface SoakOptions {
  durationMs: number;
  warmupMs: number;
  concurrency: number;
  /** Every `freshEvery`-th request loop opens a new connection per request. */
  freshEvery: number;
  /** Bytes the server keeps per request, on purpose: for the test that proves the heap check catches a leak. */
  leakBytes?: number;
}

export interface SoakFigures {
  requests: number;
  lines: number;
  failed: number;
  failures: string[];
  hungUp: number;
  freshRequests: number;
  log: LogCheck;
  /** Memory after a full GC, bytes; `gc` says whether a GC could be forced. */
  rssStart: number;
  rssEnd: number;
  heapStart: number;
  heapEnd: number;
  /** Memory of Buffers and other objects outside the JS heap, after GC: reported, not checked (see below). */
  externalStart: number;
  externalEnd: number;
  /** Requests of the measured phase: a leak is caught when it keeps more than HEAP_GROWTH_LIMIT / this per request. */
  measuredRequests: number;
  gc: boolean;
  fdsStart: number | undefined;
  fdsEnd: number | undefined;
  /** The measured load phase (warm-up excluded). */
  durationMs: number;
  requestsPerSecond: number;
  exitCode: number | string;
}

/**
 * Growth of the JS heap after full GCs allowed between the two measures
 * (before and after the measured phase, no connection open). What it
 * catches: objects that stay reachable from the JS heap, per request or per
 * connection, adding up to more than this over the measured phase: a leak
 * of more than HEAP_GROWTH_LIMIT / measuredRequests bytes per request (the
 * 10-second test sends about 28,000 requests here: about 150 bytes; a
 * machine half as fast catches only twice that). A test with a leak of
 * 1 KB per request on purpose proves that it fails then.
 * What it cannot catch: a smaller leak, or one that is only per connection
 * (a quarter of the loops open one per request); memory outside the JS heap
 * (Buffer contents, native memory, RSS: reported, not checked, as the
 * allocator keeps RSS after a GC); growth during the warm-up (caches filled
 * once are measured as the start); a leak on a path the six kinds of
 * request do not take (sendFile, render, HTTP/2). The measured growth
 * without a leak is a few hundred KB (docs/RELIABILITY.md, Figures).
 */
export const HEAP_GROWTH_LIMIT = 4 * 1024 * 1024;

interface Stats {
  type: 'stats';
  rss: number;
  heapUsed: number;
  external: number;
  gc: boolean;
  connections: number;
}

const SERVER = join(__dirname, 'server.ts');

export async function runSoak(options: SoakOptions): Promise<SoakFigures> {
  const dir = await mkdtemp(join(tmpdir(), 'trestle-soak-'));
  const logFile = join(dir, 'access.log');
  const child = startChild(SERVER, [logFile, String(options.leakBytes ?? 0)], ['--expose-gc']);
  try {
    const { port } = await child.message<{ type: 'listening'; port: number }>('listening');
    const load = (firstId: number, durationMs: number): Promise<LoadResult> =>
      drive({ port, durationMs, concurrency: options.concurrency, freshEvery: options.freshEvery, firstId });
    const measure = async (): Promise<{ stats: Stats; fds: number | undefined }> => {
      child.send({ type: 'stats' });
      const stats = await child.message<Stats>('stats');
      return { stats, fds: openFds(child.pid) };
    };

    const warmup = await load(1, options.warmupMs);
    const start = await measure();
    const main = await load(1 + warmup.sent, options.durationMs);
    const end = await measure();

    child.send({ type: 'close' });
    await child.message('closed');
    const exitCode = await child.exited();

    const sent = warmup.sent + main.sent;
    const log = checkLog(await readFile(logFile, 'utf8'), 1, sent);
    return {
      requests: sent,
      lines: log.lines,
      failed: warmup.failed + main.failed,
      failures: [...warmup.failures, ...main.failures],
      hungUp: warmup.hungUp + main.hungUp,
      freshRequests: warmup.freshRequests + main.freshRequests,
      log,
      rssStart: start.stats.rss,
      rssEnd: end.stats.rss,
      heapStart: start.stats.heapUsed,
      heapEnd: end.stats.heapUsed,
      externalStart: start.stats.external,
      externalEnd: end.stats.external,
      measuredRequests: main.sent,
      gc: start.stats.gc && end.stats.gc,
      fdsStart: start.fds,
      fdsEnd: end.fds,
      durationMs: main.elapsedMs,
      requestsPerSecond: (main.sent / main.elapsedMs) * 1000,
      exitCode,
    };
  } finally {
    child.kill();
    await bounded('the soak directory to be removed', rm(dir, { recursive: true, force: true }));
  }
}

/** What a soak run must show; empty when it held. */
export function soakProblems(f: SoakFigures): string[] {
  const problems: string[] = [];
  if (f.failed !== 0) problems.push(`${f.failed} requests failed: ${f.failures.join('; ')}`);
  if (f.lines !== f.requests) problems.push(`${f.requests} requests but ${f.lines} log lines`);
  if (f.log.malformed.length !== 0) problems.push(`malformed lines: ${f.log.malformed.join(' | ')}`);
  if (f.log.duplicates !== 0 || f.log.missing !== 0) problems.push(`${f.log.duplicates} duplicated and ${f.log.missing} missing request ids`);
  if (f.log.mismatched.length !== 0) problems.push(`lines that disagree with their request: ${f.log.mismatched.join(' | ')}`);
  if (!f.gc) problems.push('the server ran without --expose-gc');
  if (f.heapEnd - f.heapStart > HEAP_GROWTH_LIMIT) problems.push(`heap grew from ${mb(f.heapStart)} to ${mb(f.heapEnd)} over ${f.measuredRequests} requests`);
  if (f.fdsStart !== f.fdsEnd) problems.push(`open file descriptors went from ${f.fdsStart} to ${f.fdsEnd}`);
  if (f.exitCode !== 0) problems.push(`the server exited with ${f.exitCode}`);
  return problems;
}

/** The smallest leak per request the heap check catches in this run, in bytes. */
export function leakCaught(f: SoakFigures): number {
  return Math.ceil(HEAP_GROWTH_LIMIT / Math.max(f.measuredRequests, 1));
}

export function mb(bytes: number): string {
  return `${(bytes / 1024 / 1024).toFixed(1)} MB`;
}

/** One row of the Figures table in docs/RELIABILITY.md. */
export function figuresRow(run: string, f: SoakFigures): string {
  const fds = (n: number | undefined) => (n === undefined ? 'n/a' : String(n));
  return `| ${run} | ${f.requests} | ${f.lines} | ${mb(f.rssStart)} / ${mb(f.rssEnd)} | ${mb(f.heapStart)} / ${mb(f.heapEnd)} | ${fds(f.fdsStart)} / ${fds(f.fdsEnd)} | ${(f.durationMs / 1000).toFixed(1)} s | ${Math.round(f.requestsPerSecond)} |`;
}
