// The cold scenario: not a load test but a process's whole life. Each run
// spawns a fresh `node bench/servers/<framework>.js cold <port>`, which
// requires its framework, builds 20 routes, listens and says "ready"; the
// runner sends one GET, checks the answer and closes the child's stdin, on
// which it exits. What is timed is spawn to exit, as a deployment that starts
// a process per request (or a CLI, or a test run) pays it. The frameworks
// take turns run by run, so drift on the machine falls on all alike.
import { spawn } from 'node:child_process';
import http from 'node:http';
import { fileURLToPath } from 'node:url';
import path from 'node:path';
import { checkAnswer } from './probe.mjs';
import { freePort, runtimeCommand } from './server-process.mjs';
import { plannedRows } from './run-scenario.mjs';
import { median } from './report.mjs';

const BENCH_DIR = fileURLToPath(new URL('..', import.meta.url));
const RUN_TIMEOUT_MS = 15_000;

// What each entry point requires, for counting the modules it loads.
export const ENTRIES = [
  { label: 'trestle', ids: ['trestle'] },
  { label: 'trestle/v4', ids: ['trestle/v4'] },
  { label: 'trestle/legacy', ids: ['trestle/legacy'] },
  { label: 'express 5', ids: ['express'] },
  { label: 'express 4', ids: ['express4'] },
  { label: 'fastify', ids: ['fastify'] },
  { label: 'hono + @hono/node-server', ids: ['hono', '@hono/node-server'] },
  { label: 'koa + @koa/router', ids: ['koa', '@koa/router'] },
  { label: 'polka', ids: ['polka'] },
];

const ms = (from) => Number(process.hrtime.bigint() - from) / 1e6;

// One GET on a fresh connection; resolves to { status, type, text }.
function request(port, { method, path: urlPath }) {
  return new Promise((resolve, reject) => {
    const req = http.request({ host: '127.0.0.1', port, method, path: urlPath, agent: false, headers: { connection: 'close' } }, (res) => {
      let text = '';
      res.setEncoding('utf8');
      res.on('data', (chunk) => (text += chunk));
      res.on('end', () => resolve({ status: res.statusCode, type: res.headers['content-type'] || '', text, headers: res.headers }));
      res.on('error', reject);
    });
    req.on('error', reject);
    req.end();
  });
}

/**
 * One process's life: resolves to { ready, answer, exit } in ms from spawn,
 * or rejects with what went wrong (a wrong answer, a crash, the time limit).
 */
function coldRun(row, port, scenario, env, runtime) {
  const [command, args] = runtimeCommand(runtime, [path.join(BENCH_DIR, 'servers', `${row.framework}.js`), 'cold', String(port),
    ...(row.variant ? [row.variant] : [])]);
  return new Promise((resolve, reject) => {
    const times = {};
    let stderr = '';
    let failure = null;
    const began = process.hrtime.bigint();
    const child = spawn(command, args, { cwd: BENCH_DIR, env, stdio: ['pipe', 'pipe', 'pipe'] });
    const timer = setTimeout(() => fail(`no exit within ${RUN_TIMEOUT_MS / 1000}s`), RUN_TIMEOUT_MS);
    function fail(why) {
      failure ??= why;
      child.kill('SIGKILL');
    }
    child.stderr.on('data', (chunk) => (stderr = (stderr + chunk).slice(-4000)));
    child.stdout.on('data', (chunk) => {
      if (times.ready !== undefined || !/^ready$/m.test(chunk)) return;
      times.ready = ms(began);
      request(port, scenario.request).then((answer) => {
        times.answer = ms(began);
        const wrong = checkAnswer(answer, scenario.expect);
        if (wrong) fail(`wrong answer: ${wrong}`);
        else child.stdin.end();
      }, (err) => fail(`request failed: ${err.message}`));
    });
    child.on('error', (err) => fail(err.message));
    child.on('close', (code, signal) => {
      times.exit = ms(began);
      clearTimeout(timer);
      if (!failure && times.answer === undefined) failure = `exited (${signal || code}) before answering`;
      if (failure) reject(new Error(stderr.trim() ? `${failure}: ${stderr.trim().split('\n').at(-1)}` : failure));
      else resolve({ ...times, stderr });
    });
  });
}

// Modules that `require(ids)` loads, counted in a fresh process.
function countAtRequire(ids, runtime) {
  const code = `const before = new Set(Object.keys(require.cache));
${ids.map((id) => `require(${JSON.stringify(id)});`).join('\n')}
console.log(Object.keys(require.cache).filter((f) => !before.has(f)).length);`;
  return new Promise((resolve) => {
    const [command, args] = runtimeCommand(runtime, ['-e', code]);
    const child = spawn(command, args, { cwd: BENCH_DIR, stdio: ['ignore', 'pipe', 'ignore'] });
    let out = '';
    child.stdout.on('data', (chunk) => (out += chunk));
    const timer = setTimeout(() => child.kill('SIGKILL'), RUN_TIMEOUT_MS);
    child.on('close', () => {
      clearTimeout(timer);
      resolve(/^\d+\s*$/.test(out) ? Number(out) : null);
    });
  });
}

async function countModules(rows, scenario, env, runtime) {
  const entries = [];
  for (const entry of ENTRIES) entries.push({ ...entry, atRequire: await countAtRequire(entry.ids, runtime) });
  for (const row of rows.filter((r) => r.status === 'ok')) {
    try {
      const run = await coldRun(row, await freePort(), scenario, { ...env, BENCH_COUNT_MODULES: '1' }, runtime);
      const found = /^modules (\d+)$/m.exec(run.stderr);
      row.modulesAtExit = found ? Number(found[1]) : null;
    } catch {
      row.modulesAtExit = null;
    }
  }
  return entries;
}

// The ratio columns: time over each peer's (below 1 is faster).
const PEERS = ['node', 'express5', 'fastify', 'hono'];

// A row's figure over a peer's: the median of the ratios run by run (the
// two ran back to back, so what disturbed one mostly disturbed the other).
function pairedRatio(row, other, field) {
  if (!row || !other) return null;
  const theirs = new Map(other.runs.map((r) => [r.run, r[field]]));
  return median(row.runs.filter((r) => r[field] && theirs.get(r.run)).map((r) => r[field] / theirs.get(r.run)));
}

// The timed runs: one process per row per run, rows taking turns.
async function timedRuns(live, scenario, runs, env, runtime) {
  for (let run = 0; run < runs; run++) {
    const shift = run % live.length;
    for (const row of [...live.slice(shift), ...live.slice(0, shift)]) {
      try {
        const { ready, answer, exit, stderr } = await coldRun(row, await freePort(), scenario, env, runtime);
        const cpu = /^cpu ([\d.]+)$/m.exec(stderr);
        row.runs.push({ run, ready, answer, exit, cpu: cpu ? Number(cpu[1]) : null });
      } catch (err) {
        row.failures = (row.failures ?? 0) + 1;
        row.note = err.message;
      }
    }
  }
}

function summarise(live) {
  for (const row of live) {
    row.ms = median(row.runs.map((r) => r.exit));
    row.answerMs = median(row.runs.map((r) => r.answer));
    row.readyMs = median(row.runs.map((r) => r.ready));
    row.cpuMs = median(row.runs.map((r) => r.cpu));
    if (row.failures) row.note = `${row.failures} failed run(s), last: ${row.note}`;
  }
  const peer = (framework) => live.find((row) => row.framework === framework && !row.variant);
  for (const row of live) {
    row.vs = Object.fromEntries(PEERS.map((p) => [p, pairedRatio(row, peer(p), 'exit')]));
    row.vsHono = row.vs.hono;
    row.cpuVsHono = pairedRatio(row, peer('hono'), 'cpu');
  }
}

export async function runCold({ scenario, options, runtime, log }) {
  const began = Date.now();
  const rows = plannedRows(scenario, options.frameworks);
  for (const row of rows) if (row.variant) row.label = row.framework === 'trestle' ? `trestle/${row.variant}` : row.label;
  const env = { ...process.env, NODE_ENV: 'production', BENCH_REPORT_CPU: '1' };
  // A first, untimed run per framework checks its answer and warms the file cache.
  for (const row of rows.filter((r) => r.status === 'pending')) {
    try {
      await coldRun(row, await freePort(), scenario, env, runtime);
      row.status = 'ok';
      row.runs = [];
    } catch (err) {
      row.status = 'skipped';
      row.note = err.message;
      log(`  ! ${row.label} skipped: ${err.message}`);
    }
  }
  const live = rows.filter((row) => row.status === 'ok');
  await timedRuns(live, scenario, options.runs, env, runtime);
  summarise(live);
  const entries = await countModules(rows, scenario, env, runtime);
  return { about: scenario.about, cold: true, runs: options.runs, seconds: (Date.now() - began) / 1000, rows, entries };
}

const x = (n) => (n == null ? '—' : n.toFixed(2));
const whole = (n) => (n == null ? '—' : Math.round(n).toString());

export function coldTable(name, result, runtimeLabel) {
  const head = ['framework', 'spawn to exit ms', ...PEERS.map((p) => `× ${p}`), 'CPU ms', 'CPU × hono', 'to answer ms', 'to ready ms',
    'modules at exit', 'notes'];
  const lines = [
    `### ${name} (${runtimeLabel}): ${result.about}`,
    '',
    `Median of ${result.runs} runs per framework, interleaved; times in ms from spawn, lower is better; ` +
      '× peer: the median of the run-by-run ratios. CPU: the process\'s own user + system time, all threads.',
    '',
    `| ${head.join(' | ')} |`,
    `| ${head.map((h, i) => (i === 0 || i === head.length - 1 ? '---' : '---:')).join(' | ')} |`,
  ];
  for (const row of result.rows) {
    const cells = row.status === 'ok'
      ? [whole(row.ms), ...PEERS.map((p) => x(row.vs[p])), whole(row.cpuMs), x(row.cpuVsHono),
        whole(row.answerMs), whole(row.readyMs), whole(row.modulesAtExit)]
      : Array(head.length - 2).fill('—');
    lines.push(`| ${[row.label, ...cells, row.note ?? ''].join(' | ')} |`);
  }
  lines.push('', '| entry | modules loaded by require |', '| --- | ---: |');
  for (const entry of result.entries) lines.push(`| ${entry.label} | ${whole(entry.atRequire)} |`);
  return lines.join('\n');
}
