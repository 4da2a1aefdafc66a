// `node bench/js-cost.mjs`: what each framework costs in JavaScript per
// request, without sockets (see lib/js-cost-child.js). A complement to the
// suite, not a replacement: the suite measures what clients get; this shows
// differences of a tenth of a microsecond, which the suite's noise hides,
// so an optimisation can be judged before the suite is run.
//
// Each measurement is its own process (a fresh JIT), pinned to CPU 0 when
// taskset exists; frameworks take turns round by round, and each figure is
// the best of its rounds (noise only ever adds time).
import { execFileSync, spawnSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import scenarioData from './scenarios.js';

const CHILD = fileURLToPath(new URL('./lib/js-cost-child.js', import.meta.url));
const FETCH_CHILD = fileURLToPath(new URL('./lib/js-cost-fetch-child.js', import.meta.url));
const DEFAULT_SCENARIOS = ['hello', 'json', 'params', 'middleware', 'body', 'routes-500'];
const DEFAULT_FRAMEWORKS = ['node', 'trestle', 'fastify'];

function parse(argv) {
  const options = { scenarios: DEFAULT_SCENARIOS, frameworks: DEFAULT_FRAMEWORKS, rounds: 3 };
  for (let i = 0; i < argv.length; i++) {
    const [flag, inline] = argv[i].split(/=(.*)/s);
    const value = () => inline ?? argv[++i] ?? '';
    if (flag === '--only') options.scenarios = value().split(',');
    else if (flag === '--frameworks') options.frameworks = value().split(',');
    else if (flag === '--rounds') options.rounds = Math.max(1, Number(value()) | 0);
    else if (flag === '--help' || flag === '-h') options.help = true;
    else throw new Error(`unknown option ${argv[i]}`);
  }
  for (const name of options.scenarios) {
    if (!scenarioData.scenarios[name]) throw new Error(`unknown scenario "${name}"`);
  }
  return options;
}

const HELP = `Usage: node bench/js-cost.mjs [--only a,b] [--frameworks a,b] [--rounds N]

JavaScript cost per request (ns), sockets left out. Defaults: --only ${DEFAULT_SCENARIOS.join(',')}
--frameworks ${DEFAULT_FRAMEWORKS.join(',')} --rounds 3. A framework may name a variant (without
one it runs the scenario's default, as in the suite):
--frameworks node:hand-written,trestle:logline,trestle:logline-json,fastify:pino --only logger
--frameworks node:etag,trestle,fastify:etag --only body   (Express's weak ETag by hand; @fastify/etag)
--frameworks hono-fetch,trestle-fetch,trestle --only hello,json,params,body   (app.fetch(new Request(...)), no server)`;

function hasTaskset() {
  try {
    execFileSync('taskset', ['-c', '0', 'true']);
    return true;
  } catch {
    return false;
  }
}

// A scenario that lists variants (logger, api) runs a framework with the
// one given after a colon, else with the first it lists for that framework.
function variantOf(framework, given, scenario) {
  const listed = scenarioData.scenarios[scenario].variants;
  if (given || !listed) return given;
  if (!listed[framework]) throw new Error(`${framework} has no ${scenario} server (n/a there)`);
  return listed[framework][0];
}

function measure(spec, scenario, pin) {
  const [name, given] = spec.split(':');
  // `trestle-fetch`, `hono-fetch`: the same server's app called through app.fetch (lib/js-cost-fetch-child.js).
  const fetchMode = name.endsWith('-fetch');
  const framework = fetchMode ? name.slice(0, -'-fetch'.length) : name;
  const variant = variantOf(framework, given, scenario);
  const args = [fetchMode ? FETCH_CHILD : CHILD, framework, scenario, ...(variant ? [variant] : [])];
  const [command, commandArgs] = pin ? ['taskset', ['-c', '0', process.execPath, ...args]] : [process.execPath, args];
  const child = spawnSync(command, commandArgs, {
    encoding: 'utf8',
    // Express with a scenario's middleware costs over 100 µs a request: 330,000
    // requests take a minute of CPU, more on a machine shared with others.
    timeout: 300_000,
    env: { ...process.env, NODE_ENV: 'production' },
  });
  const line = child.stdout.trim().split('\n').pop();
  if (child.status !== 0 || !line) throw new Error(`${spec} on ${scenario} failed: ${child.stderr.trim().slice(-500)}`);
  return JSON.parse(line).p10;
}

function main() {
  const options = parse(process.argv.slice(2));
  if (options.help) {
    console.log(HELP);
    return;
  }
  const pin = hasTaskset();
  console.log(`JavaScript cost per request, best of ${options.rounds} round(s), ${pin ? 'pinned to CPU 0' : 'not pinned'}, NODE_ENV=production\n`);
  for (const scenario of options.scenarios) {
    const best = new Map();
    for (let round = 0; round < options.rounds; round++) {
      for (const spec of options.frameworks) {
        const ns = measure(spec, scenario, pin);
        best.set(spec, Math.min(best.get(spec) ?? Infinity, ns));
      }
    }
    const base = best.get(options.frameworks[0]);
    console.log(`#### ${scenario}\n\n| framework | ns/request | × ${options.frameworks[0]} | + ns |\n| --- | ---: | ---: | ---: |`);
    for (const spec of options.frameworks) {
      const ns = best.get(spec);
      console.log(`| ${spec} | ${ns.toLocaleString('en')} | ${(ns / base).toFixed(2)} | ${(ns - base).toLocaleString('en')} |`);
    }
    console.log('');
  }
}

main();
