// The benchmark runner: `npm run bench` (after a build) or
// `node bench/run.mjs --quick --only hello --frameworks node,trestle,fastify`.
// Prints a markdown table per scenario and writes the raw figures as JSON.
// `--node 20,22,24` runs the suite once per Node major and prints them side
// by side; `--runtime bun|deno` runs its servers on Bun or Deno.
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { barChartSvg, chartData } from './chart.mjs';
import os from 'node:os';
import path from 'node:path';
import scenarioData from './scenarios.js';
import { parseOptions } from './lib/options.mjs';
import { pinningProblem, pin, LOAD_CPU, SERVER_CPU } from './lib/cpu.mjs';
import { hasWrk, loadGenerator } from './lib/load.mjs';
import { runScenario, plannedRows } from './lib/run-scenario.mjs';
import { addRatios, scenarioTable, sideBySide } from './lib/report.mjs';
import { goalsTable } from './lib/goals.mjs';
import { runCold, coldTable } from './lib/cold.mjs';
import { HTTP2_SCENARIOS, http2Rows, http2Tool, runHttp2Scenario } from './lib/http2.mjs';
import { runtimesFor } from './lib/runtime.mjs';

const ROOT = new URL('..', import.meta.url).pathname;
// What a round costs beyond its duration (starting the load generator,
// reading /proc), in seconds: for the time estimate.
const ROUND_SLACK = 0.08;
const PACKAGES = ['express', 'express4', 'fastify', 'hono', '@hono/node-server', 'koa', '@koa/router', 'polka',
  'morgan', 'pino', 'pino-http', 'autocannon', 'zod', 'trestle', 'logline-http'];

// The peers sit in bench/node_modules (installed on first need), trestle and
// the logger in the workspace's node_modules.
function versions() {
  const found = {};
  for (const name of PACKAGES) {
    found[name] = null;
    for (const dir of [path.join(ROOT, 'bench'), ROOT]) {
      try {
        found[name] = JSON.parse(readFileSync(path.join(dir, 'node_modules', name, 'package.json'), 'utf8')).version;
        break;
      } catch {}
    }
  }
  return found;
}

// Which tools measured the run: the HTTP/1.1 one for its HTTP/1.1
// scenarios, the HTTP/2 one (lib/http2.mjs) for the HTTP/2 ones.
function toolsUsed({ meta, scenarios }) {
  const names = Object.keys(scenarios);
  const http1 = names.some((name) => !(name in HTTP2_SCENARIOS) && !scenarios[name].cold);
  const http2 = [...new Set(names.filter((name) => name in HTTP2_SCENARIOS).map((name) => scenarios[name].tool))];
  return [
    ...(http1 ? [`${meta.tool} with ${meta.connections} connections (HTTP/1.1)`] : []),
    ...http2.map((tool) => `${tool} (HTTP/2)`),
  ].join(', ') || 'no load generator (cold only)';
}

// The raw figures as JSON, and the tables as markdown beside them (same
// name, .md) for pasting into docs/PERFORMANCE.md.
function writeResults(file, results, tables) {
  mkdirSync(path.dirname(file), { recursive: true });
  writeFileSync(file, JSON.stringify(results, null, 2) + '\n');
  const { date, mode, warmup, rounds, duration, placement, runtime, cpu, seconds } = results.meta;
  const header = `Run of ${date} (${mode}${seconds ? `, ${seconds}s` : ''}): servers on ${runtime}, ${cpu}; ${toolsUsed(results)}; ` +
    `warm-up ${warmup}s, median of ${rounds} round(s) of ${duration}s; ${placement}.`;
  writeFileSync(file.replace(/(\.json)?$/, '.md'), [header, ...tables].join('\n\n') + '\n');
  // The same comparison as a chart (trestle, Express 5, Fastify): the one docs/PERFORMANCE.md shows.
  writeFileSync(file.replace(/(\.json)?$/, '.svg'), barChartSvg(chartData(results)));
}

// Per row: warm-up, rounds (wrk counts whole seconds) with ROUND_SLACK each,
// and a little slack; per scenario: server start-up; a cold row: its runs, a
// warm-up run and a module count, about 0.3s each. In seconds, for one runtime.
function estimateSeconds(options, runtime) {
  const rowsOf = (name) => plannedRows(scenarioData.scenarios[name], options.frameworks, runtime).filter((row) => row.status === 'pending').length;
  const h2Rows = http2Rows(options.frameworks).length;
  const loadScenarios = options.scenarios.filter((name) => name in HTTP2_SCENARIOS || !scenarioData.scenarios[name].cold);
  const http1Round = options.tool === 'wrk' ? Math.max(1, Math.round(options.duration)) : options.duration;
  const rowSeconds = (round) => options.warmup + options.rounds * (round + ROUND_SLACK) + 0.2;
  const coldRuns = options.scenarios.includes('cold') ? rowsOf('cold') * (options.runs + 2) : 0;
  return loadScenarios.reduce((sum, name) =>
    sum + (name in HTTP2_SCENARIOS ? h2Rows * rowSeconds(options.duration) : rowsOf(name) * rowSeconds(http1Round)), 0) +
    loadScenarios.length * 1.5 + coldRuns * 0.3;
}

// The whole suite with its servers on one runtime (lib/runtime.mjs); writes
// `out` after each scenario and returns the results, tables included.
async function runSuite({ options, runtime, placement, pinned, out, log }) {
  const results = {
    meta: {
      date: new Date().toISOString(),
      mode: options.mode,
      tool: options.tool,
      connections: options.connections,
      warmup: options.warmup,
      rounds: options.rounds,
      runs: options.runs,
      loadAverage: os.loadavg()[0],
      duration: options.duration,
      placement,
      runtime: runtime.label,
      node: runtime.name === 'node' ? `v${runtime.version}` : null,
      loadNode: process.version,
      cpu: os.cpus()[0]?.model,
      cpus: os.availableParallelism(),
      versions: versions(),
    },
    scenarios: {},
  };
  const tables = [];
  progress = { out, results, tables };
  log(`── servers on ${runtime.label} ──`);
  const started = Date.now();
  const measure = loadGenerator(options.tool);
  for (const name of options.scenarios) {
    if (name in HTTP2_SCENARIOS) {
      // HTTP/2: its own servers and load generator (lib/http2.mjs).
      log(`${name}: over HTTP/2, measured with ${http2Tool()}`);
      results.scenarios[name] = await runHttp2Scenario({ name, options, runtime, pinned, log });
      addRatios(name, results.scenarios);
      tables.push(scenarioTable(name, results.scenarios[name], runtime.label));
    } else if (scenarioData.scenarios[name].cold) {
      const scenario = scenarioData.scenarios[name];
      log(`${name}: ${scenario.about}`);
      results.scenarios[name] = await runCold({ scenario, options, runtime, log });
      tables.push(coldTable(name, results.scenarios[name], runtime.label));
    } else {
      const scenario = scenarioData.scenarios[name];
      log(`${name}: ${scenario.about}`);
      results.scenarios[name] = await runScenario({ name, scenario, options, runtime, measure, pinned, log });
      addRatios(name, results.scenarios);
      tables.push(scenarioTable(name, results.scenarios[name], runtime.label));
    }
    log('\n' + tables.at(-1) + '\n');
    writeResults(out, results, tables);
  }
  results.meta.seconds = Math.round((Date.now() - started) / 1000);
  if (options.frameworks.includes('trestle')) {
    const goals = goalsTable(results.scenarios, runtime);
    results.goals = goals.checks;
    tables.push(goals.text);
    log(goals.text + '\n');
  }
  writeResults(out, results, tables);
  return results;
}

// What the hard stop writes: the runtime being measured and its figures so far.
let progress = null;

// With several runtimes (--node 20,22,24) each writes its own file, named for it.
function outFor(options, runtime, many) {
  if (!many) return options.out;
  const tag = runtime.name === 'node' ? `node${runtime.major}` : runtime.name;
  return options.out.replace(/(\.json)?$/, `-${tag}.json`);
}

async function main() {
  let options;
  let runtimes;
  try {
    options = parseOptions(process.argv.slice(2));
    if (options.help) return console.log(options.help);
    runtimes = runtimesFor(options);
  } catch (err) {
    console.error(`bench: ${err.message}`);
    process.exit(2);
  }
  const log = (line) => console.log(line);

  if (options.tool === 'wrk' && !hasWrk()) {
    log('note: wrk is not installed; using autocannon');
    options.tool = 'autocannon';
  }
  const pinProblem = pinningProblem(options.pin);
  if (!pinProblem) pin(process.pid, LOAD_CPU);
  const placement = pinProblem
    ? `not pinned (${pinProblem}): server and load generator share the CPUs`
    : `server on CPU ${SERVER_CPU}, load generator on CPU ${LOAD_CPU} (taskset)`;

  const estimate = runtimes.reduce((sum, runtime) => sum + estimateSeconds(options, runtime), 0);
  // The hard stop never cuts a run shorter than its own estimate allows.
  const deadlineSeconds = Math.round(Math.max(options.deadline * runtimes.length, estimate * 1.5));
  log(`bench (${options.mode}): ${options.scenarios.join(', ')} × ${options.frameworks.join(', ')}`);
  log(`servers on ${runtimes.map((r) => r.label).join(', then ')}; load generator on Node ${process.versions.node}`);
  log(`${options.tool}, ${options.connections} connections, warm-up ${options.warmup}s, ` +
    `${options.rounds} round(s) of ${options.duration}s; ${placement}; about ${Math.round(estimate)}s\n`);

  // A hard stop, whatever hangs: servers exit when our stdin pipes close.
  const deadline = setTimeout(() => {
    console.error(`bench: stopped after the ${deadlineSeconds}s deadline; partial figures in ${progress?.out ?? options.out}`);
    if (progress) writeResults(progress.out, progress.results, progress.tables);
    process.exit(1);
  }, deadlineSeconds * 1000);
  deadline.unref();

  const many = runtimes.length > 1;
  const all = [];
  for (const runtime of runtimes) {
    const out = outFor(options, runtime, many);
    all.push({ runtime: runtime.label, out, results: await runSuite({ options, runtime, placement, pinned: !pinProblem, out, log }) });
  }
  if (many) {
    const tables = sideBySide(all.map(({ runtime, results }) => ({ runtime, results })));
    for (const table of tables) log(table + '\n');
    writeFileSync(options.out, JSON.stringify({ runtimes: all.map(({ runtime, out }) => ({ runtime, out })) }, null, 2) + '\n');
    writeFileSync(options.out.replace(/(\.json)?$/, '.md'), `Side by side: ${all.map((a) => a.runtime).join(', ')} ` +
      `(each run's own tables: ${all.map((a) => path.basename(a.out.replace(/\.json$/, '.md'))).join(', ')}).\n\n${tables.join('\n\n')}\n`);
  }
  const seconds = all.reduce((sum, a) => sum + a.results.meta.seconds, 0);
  log(`done in ${seconds}s; raw figures in ${all.map((a) => path.relative(process.cwd(), a.out)).join(', ')}` +
    (many ? `; side by side in ${path.relative(process.cwd(), options.out.replace(/(\.json)?$/, '.md'))}` : ''));
}

await main();
