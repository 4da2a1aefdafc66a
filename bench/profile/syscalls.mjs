// `node bench/profile/syscalls.mjs <framework[:variant]> <scenario> [requests]`:
// the system calls a server makes per request, counted by `strace -c -f`
// while a fixed number of keep-alive requests (autocannon, 10 connections)
// hit it. Counts, not times: what a socket benchmark pays besides the
// JavaScript that bench:js measures (writes per answer, reads, epoll turns).
import { readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { nodeLabel, startServer } from './lib.mjs';

const [spec, scenarioName, countText = '20000'] = process.argv.slice(2);
const out = join(tmpdir(), `syscalls-${process.pid}.txt`);
const { load, stop } = await startServer(spec, scenarioName, ['strace', '-f', '-c', '-o', out]);
const result = await load(Number(countText));
await stop();
const calls = readFileSync(out, 'utf8');
rmSync(out);
const answered = result['2xx'];
console.log(`${spec} ${scenarioName}: ${answered} answers (non-2xx ${result.non2xx}), ${nodeLabel()}`);
for (const line of calls.split('\n')) {
  // % time, seconds, usecs/call, calls, [errors], syscall
  const m = line.trim().split(/\s+/);
  if (m.length >= 5 && /^\d+$/.test(m[3]) && Number(m[3]) >= answered / 20) {
    console.log(`  ${m[m.length - 1].padEnd(16)} ${(Number(m[3]) / answered).toFixed(3)} per answer`);
  }
}
