// One benchmark server as a child process: start it, wait for "ready", read
// its figures, stop it. Every wait here is bounded in time.
import { spawn } from 'node:child_process';
import net from 'node:net';
import { fileURLToPath } from 'node:url';
import path from 'node:path';

const BENCH_DIR = fileURLToPath(new URL('..', import.meta.url));
// Hono on routes-5000 builds its router before saying "ready": ~12 s of CPU,
// over 40 s of wall time on a machine shared with other work.
const START_TIMEOUT_MS = 90_000;
const STOP_TIMEOUT_MS = 3_000;

/** The command and arguments that run `args` (a script and its arguments) on a runtime, by default this Node. */
export function runtimeCommand(runtime, args) {
  return runtime ? runtime.command(args) : [process.execPath, args];
}

// A port nobody is listening on right now, chosen by the OS.
export function freePort() {
  return new Promise((resolve, reject) => {
    const probe = net.createServer();
    probe.unref();
    probe.on('error', reject);
    probe.listen(0, '127.0.0.1', () => {
      const { port } = probe.address();
      probe.close(() => resolve(port));
    });
  });
}

// The line of a server's stderr that says what went wrong, as a rule the
// first that names an error; else its last line.
function errorLine(text) {
  const lines = text.trim().split('\n');
  return lines.find((line) => /error/i.test(line)) ?? lines.at(-1);
}

// Resolves to { pid, port, stop } once the server said "ready"; rejects with
// the tail of its stderr if it exits or stays silent first. `cpus` (for
// taskset) lets servers start on every CPU even though the runner itself is
// pinned to the load generator's; the caller pins them after "ready".
// `runtime` (lib/runtime.mjs) is what runs the server; without it, this Node.
export async function startServer({ framework, scenario, variant, cpus, runtime }) {
  const port = await freePort();
  const script = path.join(BENCH_DIR, 'servers', `${framework}.js`);
  const [bin, args] = runtimeCommand(runtime, [script, scenario, String(port), ...(variant ? [variant] : [])]);
  const [command, commandArgs] = cpus ? ['taskset', ['-c', cpus, bin, ...args]] : [bin, args];
  // Every server runs as it would be deployed: Express's own advice, and what
  // switches Express-style apps (trestle too) out of their development habits
  // (indented JSON, no view cache). The other frameworks do not read it.
  const env = { ...process.env, NODE_ENV: 'production' };
  const child = spawn(command, commandArgs, { cwd: BENCH_DIR, env, stdio: ['pipe', 'pipe', 'pipe'] });
  let stderr = '';
  child.stderr.on('data', (chunk) => {
    stderr = (stderr + chunk).slice(-4000);
  });
  const exited = new Promise((resolve) => {
    child.once('exit', (code, signal) => resolve(signal || code));
    child.once('error', (err) => resolve(err.message));
  });

  await new Promise((resolve, reject) => {
    let stdout = '';
    let settled = false;
    const timer = setTimeout(() => fail(`no "ready" within ${START_TIMEOUT_MS / 1000}s`), START_TIMEOUT_MS);
    function fail(why) {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      child.kill('SIGKILL');
      reject(new Error(stderr ? `${why}: ${errorLine(stderr)}` : why));
    }
    child.stdout.on('data', (chunk) => {
      stdout += chunk;
      if (!settled && /^ready$/m.test(stdout)) {
        settled = true;
        clearTimeout(timer);
        child.stdout.resume();
        resolve();
      }
    });
    exited.then((how) => fail(`exited (${how}) before "ready"`));
  });

  async function stop() {
    // Closing stdin asks the server to exit; signals follow if it does not.
    child.stdin.end();
    const timeout = (ms) => new Promise((resolve) => setTimeout(resolve, ms).unref());
    if (await Promise.race([exited.then(() => true), timeout(STOP_TIMEOUT_MS / 3)])) return;
    child.kill('SIGTERM');
    if (await Promise.race([exited.then(() => true), timeout(STOP_TIMEOUT_MS)])) return;
    child.kill('SIGKILL');
    await exited;
  }

  return { pid: child.pid, port, stop, stderr: () => stderr };
}
