// `npm run soak -- --duration 600`: a soak run as long as asked (seconds,
// default 60), its figures as a row of the table in docs/RELIABILITY.md, and
// exit code 1 if anything it must show did not hold.
import { parseArgs } from 'node:util';
import { figuresRow, leakCaught, mb, runSoak, soakProblems } from './soak';

const { values } = parseArgs({
  options: {
    duration: { type: 'string', default: '60' },
    warmup: { type: 'string', default: '3' },
    concurrency: { type: 'string', default: '16' },
    'fresh-every': { type: 'string', default: '4' },
  },
});

function positive(name: string, text: string | undefined): number {
  const n = Number(text);
  if (!Number.isFinite(n) || n <= 0) throw new Error(`--${name} must be a positive number, got ${text}`);
  return n;
}

async function main(): Promise<void> {
  const durationS = positive('duration', values.duration);
  const figures = await runSoak({
    durationMs: durationS * 1000,
    warmupMs: positive('warmup', values.warmup) * 1000,
    concurrency: Math.round(positive('concurrency', values.concurrency)),
    freshEvery: Math.round(positive('fresh-every', values['fresh-every'])),
  });
  console.log('| run | requests | lines | RSS start / end | heap start / end | fds start / end | duration | req/s |');
  console.log('|---|---|---|---|---|---|---|---|');
  console.log(figuresRow(`npm run soak -- --duration ${durationS}`, figures));
  console.log(
    `\n${figures.freshRequests} requests on fresh connections, ${figures.hungUp} abandoned mid-response; heap after GC ${mb(figures.heapStart)} -> ${mb(figures.heapEnd)}, ` +
      `external ${mb(figures.externalStart)} -> ${mb(figures.externalEnd)}; the heap check catches a leak of more than ${leakCaught(figures)} bytes per request in this run`,
  );
  const problems = soakProblems(figures);
  for (const p of problems) console.error(`FAILED: ${p}`);
  process.exitCode = problems.length === 0 ? 0 : 1;
}

main().catch((err: unknown) => {
  console.error(err);
  process.exitCode = 1;
});
