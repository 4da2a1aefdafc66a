// `node bench/profile/signal-cost.mjs <bun|deno> [rounds]`: what reading a
// Request's `signal` costs the runtime's own server (docs/PERFORMANCE.md,
// app.fetch on Deno): a handler answering a fixed Response, with and without
// reading `request.signal.aborted`, under wrk (2 s rounds, interleaved, the
// servers pinned to CPU 0 and wrk to CPU 1). Prints the median req/s of each.
import { execFileSync, spawn } from 'node:child_process';
import { fileURLToPath } from 'node:url';

const [runtime = 'deno', roundsText = '5'] = process.argv.slice(2);
const bin = fileURLToPath(new URL(`../../node_modules/.bin/${runtime}`, import.meta.url));
const script = fileURLToPath(new URL('signal-server.js', import.meta.url));
const variants = ['plain', 'signal'];

function start(variant, port) {
  const args = runtime === 'deno' ? ['run', '-A', '--quiet', script, variant, String(port)] : [script, variant, String(port)];
  const child = spawn('taskset', ['-c', '0', bin, ...args], { stdio: ['ignore', 'pipe', 'ignore'] });
  return new Promise((resolve, reject) => {
    child.stdout.on('data', (d) => String(d).includes('ready') && resolve(child));
    child.on('exit', (code) => reject(new Error(`${variant} server exited (${code})`)));
  });
}

function load(port, seconds) {
  const out = execFileSync('taskset', ['-c', '1', 'wrk', '-t1', '-c64', `-d${seconds}`, `http://127.0.0.1:${port}/`], { encoding: 'utf8' });
  return Number(/Requests\/sec:\s+([\d.]+)/.exec(out)[1]);
}

const servers = await Promise.all(variants.map((v, i) => start(v, 43100 + i)));
try {
  variants.forEach((_, i) => load(43100 + i, 2)); // warm-up
  const figures = variants.map(() => []);
  for (let round = 0; round < Number(roundsText); round++) variants.forEach((_, i) => figures[i].push(load(43100 + i, 2)));
  const median = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];
  console.log(`${runtime}: req/s, median of ${roundsText} rounds`);
  variants.forEach((v, i) => console.log(`  ${v.padEnd(7)} ${Math.round(median(figures[i]))}`));
} finally {
  for (const child of servers) child.kill();
}
