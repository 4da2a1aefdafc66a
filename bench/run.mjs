// The benchmark runner: `npm run bench` (after a build) or
// `node bench/run.mjs --quick --only hello --frameworks node,trestle,fastify`.
// Prints a markdown table per scenario and writes the raw figures as JSON.
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import scenarioData from './scenarios.js';
import { parseOptions } from './lib/options.mjs';
import { pinningProblem, pin, LOAD_CPU, SERVER_CPU } from './lib/cpu.mjs';
import { hasWrk, loadGenerator } from './lib/load.mjs';
import { runScenario } from './lib/run-scenario.mjs';
import { addRatios, scenarioTable } from './lib/report.mjs';
import { goalsTable } from './lib/goals.mjs';

const ROOT = new URL('..', import.meta.url).pathname;
const PACKAGES = ['express', 'express4', 'fastify', 'hono', '@hono/node-server', 'koa', '@koa/router', 'polka',
  'morgan', 'pino', 'pino-http', 'autocannon', 'trestle', 'logline'];

function versions() {
  const found = {};
  for (const name of PACKAGES) {
    try {
      found[name] = JSON.parse(readFileSync(path.join(ROOT, 'node_modules', name, 'package.json'), 'utf8')).version;
    } catch {
      found[name] = null;
    }
  }
  return found;
}

function writeResults(file, results) {
  mkdirSync(path.dirname(file), { recursive: true });
  writeFileSync(file, JSON.stringify(results, null, 2) + '\n');
}

async function main() {
  let options;
  try {
    options = parseOptions(process.argv.slice(2));
  } catch (err) {
    console.error(`bench: ${err.message}`);
    process.exit(2);
  }
  if (options.help) return console.log(options.help);
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

  const pairs = options.scenarios.length * options.frameworks.length;
  const estimate = pairs * (options.warmup + options.rounds * options.duration) + options.scenarios.length * 2;
  log(`bench (${options.mode}): ${options.scenarios.join(', ')} × ${options.frameworks.join(', ')}`);
  log(`${options.tool}, ${options.connections} connections, warm-up ${options.warmup}s, ` +
    `${options.rounds} round(s) of ${options.duration}s; ${placement}; about ${Math.ceil(estimate / 60)} min\n`);

  const results = {
    meta: {
      date: new Date().toISOString(),
      mode: options.mode,
      tool: options.tool,
      connections: options.connections,
      warmup: options.warmup,
      rounds: options.rounds,
      duration: options.duration,
      placement,
      node: process.version,
      cpu: os.cpus()[0]?.model,
      cpus: os.availableParallelism(),
      versions: versions(),
    },
    scenarios: {},
  };

  // A hard stop, whatever hangs: servers exit when our stdin pipes close.
  const deadline = setTimeout(() => {
    console.error(`bench: stopped after the ${options.deadline}s deadline; partial figures in ${options.out}`);
    writeResults(options.out, results);
    process.exit(1);
  }, options.deadline * 1000);
  deadline.unref();

  const started = Date.now();
  const measure = loadGenerator(options.tool);
  for (const name of options.scenarios) {
    const scenario = scenarioData.scenarios[name];
    log(`${name}: ${scenario.about}`);
    results.scenarios[name] = await runScenario({ name, scenario, options, measure, pinned: !pinProblem, log });
    addRatios(name, results.scenarios);
    log('\n' + scenarioTable(name, results.scenarios[name]) + '\n');
    writeResults(options.out, results);
  }
  const goals = goalsTable(results.scenarios);
  results.goals = goals.checks;
  results.meta.seconds = Math.round((Date.now() - started) / 1000);
  writeResults(options.out, results);
  log(goals.text + '\n');
  log(`done in ${results.meta.seconds}s; raw figures in ${path.relative(process.cwd(), options.out)}`);
}

await main();
