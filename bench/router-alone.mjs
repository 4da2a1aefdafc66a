// `node bench/router-alone.mjs [--scenario params] [--processes 7] [--calls 1000000]`:
// trestle's router alone, without an app, sockets or node's HTTP parser:
// `router.handle(req, res, done)` called in a loop with plain request and
// response objects (a fresh request object each call, as the router writes
// to it) for a scenario's routes and request (params: 50 routes, hitting
// resource48). Each measurement is its own process (a fresh JIT), pinned to
// CPU 0 where taskset exists: 100,000 calls to warm up, then `--calls`
// timed. Prints ns a call, best of the processes (noise only adds time),
// and each process's figure.
import { spawnSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import scenarioData from './scenarios.js';
import { hasTaskset } from './lib/cpu.mjs';

const { scenarios, routeIn } = scenarioData;

const WARMUP = 100_000;

function parse(argv) {
  const options = { scenario: 'params', processes: 7, calls: 1_000_000 };
  for (let i = 0; i < argv.length; i++) {
    const [flag, inline] = argv[i].split(/=(.*)/s);
    const value = () => inline ?? argv[++i] ?? '';
    if (flag === '--scenario') options.scenario = value();
    else if (flag === '--processes') options.processes = Math.max(1, Number(value()) | 0);
    else if (flag === '--calls') options.calls = Math.max(1, Number(value()) | 0);
    else if (flag === '--child') options.child = true;
    else throw new Error(`unknown option ${argv[i]}`);
  }
  const scenario = scenarios[options.scenario];
  if (!scenario?.routes || scenario.request.method !== 'GET') throw new Error(`--scenario wants one with routes: params, routes-500, routes-5000`);
  return options;
}

/** One process's measurement: ns a call. */
async function child({ scenario: name, calls }) {
  const { default: trestle } = await import('trestle');
  const { routes, request } = scenarios[name];
  const router = trestle.Router();
  let answered = 0;
  for (const route of routes) router.get(routeIn('regexp', route), () => answered++);
  const done = (err) => {
    throw err ?? new Error(`${request.path} fell through the router`);
  };
  const run = (n) => {
    for (let i = 0; i < n; i++) router.handle({ method: 'GET', url: request.path, headers: {} }, {}, done);
  };
  run(WARMUP);
  const start = process.hrtime.bigint();
  run(calls);
  const ns = Number(process.hrtime.bigint() - start) / calls;
  if (answered !== WARMUP + calls) throw new Error(`the route answered ${answered} of ${WARMUP + calls} calls`);
  return ns;
}

async function main() {
  const options = parse(process.argv.slice(2));
  if (options.child) {
    process.stdout.write(`${await child(options)}\n`);
    return;
  }
  const pin = hasTaskset();
  const args = [fileURLToPath(import.meta.url), '--child', '--scenario', options.scenario, '--calls', String(options.calls)];
  const figures = [];
  for (let i = 0; i < options.processes; i++) {
    const [command, commandArgs] = pin ? ['taskset', ['-c', '0', process.execPath, ...args]] : [process.execPath, args];
    const result = spawnSync(command, commandArgs, { encoding: 'utf8', timeout: 300_000, env: { ...process.env, NODE_ENV: 'production' } });
    if (result.status !== 0) throw new Error(result.stderr.trim().slice(-500));
    figures.push(Number(result.stdout.trim()));
  }
  const best = Math.min(...figures);
  console.log(`router.handle alone, ${options.scenario} (${scenarios[options.scenario].request.path}), Node ${process.versions.node}, ` +
    `${pin ? 'pinned to CPU 0' : 'not pinned'}: ${best.toFixed(0)} ns a call, best of ${options.processes} processes of ` +
    `${options.calls.toLocaleString('en')} calls (each: ${figures.map((ns) => ns.toFixed(0)).join(', ')})`);
}

main().catch((err) => {
  console.error(`router-alone: ${err.message}`);
  process.exit(1);
});
