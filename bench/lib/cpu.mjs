// CPU placement and per-process figures from /proc. The server gets CPU 0
// and the load generator (this process, or wrk) CPU 1, so neither steals
// time from the other; without taskset or a second CPU nothing is pinned.
import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import os from 'node:os';

export const SERVER_CPU = '0';
export const LOAD_CPU = '1';

export function hasTaskset() {
  try {
    execFileSync('taskset', ['-V'], { stdio: 'ignore' });
    return true;
  } catch {
    return false;
  }
}

// Returns why pinning is off, or null when it is on.
export function pinningProblem(wanted) {
  if (!wanted) return 'turned off by --no-pin';
  if (os.availableParallelism() < 2) return 'only one CPU';
  if (!hasTaskset()) return 'taskset not found';
  return null;
}

// -a: every thread of the process (libuv pool, V8 helpers), not just main.
export function pin(pid, cpus) {
  execFileSync('taskset', ['-a', '-cp', cpus, String(pid)], { stdio: 'ignore' });
}

// Resident set size in MB, or null where /proc is missing.
export function rssMB(pid) {
  try {
    const kb = /VmRSS:\s+(\d+)/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'))[1];
    return Math.round(Number(kb) / 1024 * 10) / 10;
  } catch {
    return null;
  }
}

// CPU seconds from /proc, all null where /proc is missing (not Linux).
// Clock ticks are 100 a second on Linux.
function readNumbers(file, pick) {
  try {
    return pick(readFileSync(file, 'utf8')) / 100;
  } catch {
    return null;
  }
}

// Fields after the command name in /proc/PID/stat: utime is [11], stime
// [12], and the reaped children's cutime [13], cstime [14].
const statFields = (text) => text.slice(text.lastIndexOf(')') + 2).split(' ').map(Number);

// User+system seconds a process has used, its reaped children included
// (so that the runner's figure takes in a finished wrk).
function processSeconds(pid) {
  return readNumbers(`/proc/${pid}/stat`, (text) => {
    const f = statFields(text);
    return f[11] + f[12] + f[13] + f[14];
  });
}

// Seconds any CPU was busy, or lost to the hypervisor (steal), since boot.
function machineSeconds() {
  return readNumbers('/proc/stat', (text) => {
    const [user, nice, system, , , irq, softirq, steal] = text.split('\n')[0].trim().split(/\s+/).slice(1).map(Number);
    return user + nice + system + irq + softirq + steal;
  });
}

export function cpuSnapshot(serverPid) {
  return { at: process.hrtime.bigint(), server: processSeconds(serverPid), runner: processSeconds(process.pid), machine: machineSeconds() };
}

// CPU shares over the time between two snapshots: the server's (well under 1
// means the load generator was the bottleneck) and everything else's other
// than server and runner (other work on the machine makes figures noisy).
export function cpuShares(before, after) {
  const wall = Number(after.at - before.at) / 1e9;
  const share = (seconds) => Math.round((seconds / wall) * 100) / 100;
  if ([before, after].some((s) => s.server == null || s.runner == null || s.machine == null)) {
    return { serverCpu: null, otherCpu: null };
  }
  const server = after.server - before.server;
  const runner = after.runner - before.runner;
  return { serverCpu: share(server), otherCpu: share(Math.max(0, after.machine - before.machine - server - runner)) };
}

const sleep = (ms) => new Promise((resolve) => setTimeout(resolve, ms));

// Waits (at most `limitMs`) until the server is idle: a slow server still
// works through the requests its connections had sent when a round ended
// (Express 5 on routes-5000: 64 of several ms each), and would take that CPU from
// the next server's round. Idle: under 20% of a CPU over 50 ms.
export async function settle(pid, limitMs = 15_000) {
  for (let waited = 0; waited < limitMs; waited += 50) {
    const before = processSeconds(pid);
    await sleep(50);
    const after = processSeconds(pid);
    if (before == null || after == null || after - before < 0.01) return;
  }
}
