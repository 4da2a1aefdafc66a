'use strict';
// What every server shares: reading `<scenario> <port> [variant]` from the
// command line, saying "ready" once listening, and dying with the runner.
const fs = require('node:fs');
const path = require('node:path');
const { scenarios } = require('../scenarios');

const HOST = '127.0.0.1';
const BENCH_DIR = path.join(__dirname, '..') + path.sep;

function parseArgs() {
  const [name, portText, variant] = process.argv.slice(2);
  const scenario = scenarios[name];
  if (!scenario) throw new Error(`unknown scenario "${name}"; known: ${Object.keys(scenarios).join(', ')}`);
  const port = Number(portText);
  if (!Number.isInteger(port) || port <= 0) throw new Error(`bad port "${portText}"`);
  // The runner keeps our stdin open; when it goes away (even if it crashed)
  // we go too, so no server outlives a run.
  process.stdin.on('end', () => process.exit(0));
  process.stdin.on('error', () => process.exit(0));
  process.stdin.resume();
  if (process.env.BENCH_COUNT_MODULES) process.on('exit', reportModules);
  if (process.env.BENCH_REPORT_CPU) process.on('exit', reportCpu);
  return { name, scenario, port, variant };
}

// For the cold scenario: the CPU time of this process's whole life (all its
// threads), which other work on a shared machine moves less than wall time.
function reportCpu() {
  const { user, system } = process.cpuUsage();
  process.stderr.write(`cpu ${(user + system) / 1000}\n`);
}

// For the cold scenario's module table (never in a timed run): how many
// files the framework loaded in this process, the bench's own left out.
function reportModules() {
  const own = (file) => file.startsWith(BENCH_DIR) && !file.includes('node_modules');
  const count = Object.keys(require.cache).filter((file) => !own(file)).length;
  process.stderr.write(`modules ${count}\n`);
}

// The runner waits for this exact line on stdout. Usable as a listen
// callback: Express 5 passes listen errors to it.
function ready(err) {
  if (err) fail(err);
  process.stdout.write('ready\n');
}

// Bun's and Deno's own servers given an app's fetch, as their docs and ours
// show it (`Bun.serve({ fetch: app.fetch })`, `Deno.serve(app.fetch)`): the
// `fetch` rows of `--runtime bun` and `--runtime deno`.
function serveFetch(fetch, port) {
  if (typeof Bun !== 'undefined') {
    Bun.serve({ fetch, port, hostname: HOST });
    ready();
  } else if (typeof Deno !== 'undefined') {
    Deno.serve({ port, hostname: HOST, onListen: () => ready() }, fetch);
  } else {
    fail(new Error('the fetch rows run on Bun or Deno (--runtime bun or deno)'));
  }
}

function fail(err) {
  console.error(err);
  process.exit(1);
}

// Log lines go to a real file descriptor so the write cost is paid, but to
// /dev/null so the disk does not matter.
function logStream() {
  return fs.createWriteStream('/dev/null', { flags: 'a' });
}

module.exports = { HOST, parseArgs, ready, fail, logStream, serveFetch };
