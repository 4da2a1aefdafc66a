// The HTTP/2 scenarios: hello and json over cleartext h2c and over TLS (h2,
// ALPN), served by node's bare compatibility server, trestle given to it as
// the request listener, Fastify with `http2: true` and Hono on
// @hono/node-server with node's HTTP/2 server (servers/*-h2.js).
//
// The load generator is h2load (Debian's nghttp2-client) when it is on the
// PATH: C, one thread, `clients` connections with `streams` concurrent
// streams each. Without it, a generator written on node's own http2 client
// (below) runs in this process: it saturates less well, so its figures are
// lower for everyone and the tables say which one measured them.
import { execFile, execFileSync } from 'node:child_process';
import http2 from 'node:http2';
import { startServer } from './server-process.mjs';
import { pin, rssMB, cpuSnapshot, cpuShares, SERVER_CPU } from './cpu.mjs';
import { median } from './report.mjs';
import scenarioData from '../scenarios.js';

export const HTTP2_SCENARIOS = {
  'h2c-hello': { base: 'hello', mode: 'h2c' },
  'h2c-json': { base: 'json', mode: 'h2c' },
  'h2-hello': { base: 'hello', mode: 'h2' },
  'h2-json': { base: 'json', mode: 'h2' },
};
export const HTTP2_FRAMEWORKS = ['node', 'trestle', 'fastify', 'hono'];
// Rows beside a framework's own: bare node sending Express's default weak
// ETag, which trestle sends too (issue 23 judges trestle against it), and
// trestle with X-Powered-By off, so that it sends the very headers of that
// row: each header costs over HTTP/2 (HPACK, node's checks), and the pair
// shows what trestle's own code costs against the bare server.
const EXTRA_VARIANTS = { node: ['etag'], trestle: ['same-headers'] };

/** The rows of an HTTP/2 scenario for the frameworks asked for. */
export function http2Rows(frameworks) {
  return HTTP2_FRAMEWORKS.filter((f) => frameworks.includes(f)).flatMap((framework) =>
    [null, ...(EXTRA_VARIANTS[framework] ?? [])].map((variant) =>
      ({ framework, variant, label: variant ? `${framework} (${variant})` : framework, status: 'pending' })));
}

const CLIENTS = 8;
const STREAMS = 16;

export function hasH2load() {
  try {
    execFileSync('h2load', ['--version'], { stdio: 'ignore' });
    return true;
  } catch {
    return false;
  }
}

const origin = (mode, port) => `${mode === 'h2' ? 'https' : 'http'}://127.0.0.1:${port}`;

// h2load 1.52 over TLS now and then measures, stops its clients and then
// hangs instead of reporting (-N closes idle connections, which makes it
// rarer): such a run is killed a few seconds after its end and run again,
// at most HANG_RETRIES times; the round that needed it counts as disturbed.
const HANG_RETRIES = 2;

function h2loadOnce(args, ms) {
  return new Promise((resolve, reject) => {
    execFile('h2load', args, { timeout: ms + 5_000 }, (err, stdout) => {
      if (!err) resolve(stdout);
      else if (err.killed && /Stopped all clients/.test(stdout)) resolve(null);
      else reject(err);
    });
  });
}

// h2load takes its duration in milliseconds too ("500ms"), and says how long
// the run took ("finished in 500.31ms," or "finished in 1.00s,").
async function runH2load({ url, seconds }) {
  const ms = Math.max(100, Math.round(seconds * 1000));
  const args = ['-c', String(CLIENTS), '-m', String(STREAMS), '-D', `${ms}ms`, '-N', '1s', url];
  let out = null;
  let hung = 0;
  while ((out = await h2loadOnce(args, ms)) === null) {
    if (++hung > HANG_RETRIES) throw new Error(`h2load hung after its run ${hung} times in a row: ${args.join(' ')}`);
  }
  const number = (re) => Number(re.exec(out)?.[1] ?? 0);
  const succeeded = number(/(\d+) succeeded/);
  const took = /finished in ([\d.]+)(ms|s),/.exec(out);
  const elapsed = took ? Number(took[1]) / (took[2] === 'ms' ? 1000 : 1) : ms / 1000;
  return {
    rps: succeeded / elapsed,
    p99ms: null,
    requests: succeeded,
    seconds: elapsed,
    errors: number(/(\d+) errored/) + number(/(\d+) timeout/),
    non2xx: number(/\d+ 2xx, (\d+) 3xx/) + number(/(\d+) 4xx/) + number(/(\d+) 5xx/),
    hung,
  };
}

/** The fallback: CLIENTS sessions, each keeping STREAMS requests in flight for `seconds`. */
async function runNodeClient({ url, seconds }) {
  const path = new URL(url).pathname;
  const deadline = Date.now() + seconds * 1000;
  const latencies = [];
  let errors = 0;
  let non2xx = 0;
  const sessions = Array.from({ length: CLIENTS }, () => http2.connect(new URL(url).origin, { rejectUnauthorized: false }));
  for (const s of sessions) s.on('error', () => errors++);
  const one = (session) => new Promise((resolve) => {
    const started = process.hrtime.bigint();
    const stream = session.request({ ':path': path });
    stream.on('response', (h) => {
      if (h[':status'] < 200 || h[':status'] >= 300) non2xx++;
    });
    stream.on('data', () => undefined);
    stream.on('end', () => {
      latencies.push(Number(process.hrtime.bigint() - started) / 1e6);
      resolve();
    });
    stream.on('error', () => {
      errors++;
      resolve();
    });
  });
  const lane = async (session) => {
    while (Date.now() < deadline && !session.destroyed) await one(session);
  };
  const began = Date.now();
  await Promise.all(sessions.flatMap((s) => Array.from({ length: STREAMS }, () => lane(s))));
  const elapsed = (Date.now() - began) / 1000;
  for (const s of sessions) s.destroy();
  latencies.sort((a, b) => a - b);
  return {
    rps: latencies.length / elapsed,
    p99ms: latencies.length ? latencies[Math.floor(latencies.length * 0.99)] : null,
    requests: latencies.length,
    seconds: elapsed,
    errors,
    non2xx,
  };
}

export function http2Tool() {
  return hasH2load() ? 'h2load' : 'node http2 client (fallback: h2load not installed)';
}

/** One request over HTTP/2, checked against the scenario's expectation; null when right. */
async function probe(mode, port, { request, expect }) {
  const session = http2.connect(origin(mode, port), { rejectUnauthorized: false });
  try {
    return await new Promise((resolve) => {
      session.on('error', (err) => resolve(`session: ${err.message}`));
      const stream = session.request({ ':path': request.path });
      let headers = {};
      let text = '';
      stream.setEncoding('utf8');
      stream.on('response', (h) => (headers = h));
      stream.on('data', (d) => (text += d));
      stream.on('error', (err) => resolve(`stream: ${err.message}`));
      stream.on('end', () => {
        if (headers[':status'] !== 200) return resolve(`status ${headers[':status']}`);
        if (expect.type && !String(headers['content-type']).startsWith(expect.type)) return resolve(`content-type ${headers['content-type']}`);
        if (expect.text !== undefined && text !== expect.text) return resolve(`body ${JSON.stringify(text.slice(0, 80))}`);
        if (expect.json !== undefined && text !== JSON.stringify(expect.json)) return resolve(`JSON body ${text.slice(0, 80)}`);
        resolve(null);
      });
    });
  } finally {
    session.destroy();
  }
}

/** Runs one HTTP/2 scenario as runScenario runs the others: interleaved rounds, medians of the undisturbed ones. */
export async function runHttp2Scenario({ name, options, runtime, pinned, log }) {
  const { base, mode } = HTTP2_SCENARIOS[name];
  const scenario = scenarioData.scenarios[base];
  const measure = hasH2load() ? runH2load : runNodeClient;
  const rows = http2Rows(options.frameworks);
  const began = Date.now();
  await Promise.all(rows.map(async (row) => {
    try {
      const variant = row.variant ? `${mode}+${row.variant}` : mode;
      row.server = await startServer({ framework: `${row.framework}-h2`, scenario: base, variant, cpus: pinned ? '0,1' : null, runtime });
      row.status = 'ok';
    } catch (err) {
      row.status = 'skipped';
      row.note = `server failed to start: ${err.message}`;
      log(`  ! ${row.label} skipped: ${row.note}`);
    }
  }));
  const live = () => rows.filter((row) => row.status === 'ok');
  try {
    for (const row of live()) {
      if (pinned) pin(row.server.pid, SERVER_CPU);
      const wrong = await probe(mode, row.server.port, scenario);
      if (wrong) {
        row.status = 'skipped';
        row.note = `wrong answer: ${wrong}`;
        log(`  ! ${row.label} skipped: ${row.note}`);
      }
    }
    const url = (row) => origin(mode, row.server.port) + scenario.request.path;
    for (const row of live()) await measure({ url: url(row), seconds: options.warmup });
    for (const row of live()) row.rounds = [];
    for (let round = 0; round < options.rounds; round++) {
      const order = live();
      const shift = round % order.length;
      for (const row of [...order.slice(shift), ...order.slice(0, shift)]) {
        const before = cpuSnapshot(row.server.pid);
        const figures = await measure({ url: url(row), seconds: options.duration });
        const after = cpuSnapshot(row.server.pid);
        const shares = cpuShares(before, after);
        // The server's CPU time per answer: steadier than req/s on a busy machine.
        const cpuUs = after.server == null || !figures.requests ? null : ((after.server - before.server) * 1e6) / figures.requests;
        row.rounds.push({ round, ...figures, ...shares, cpuUs, disturbed: shares.otherCpu > 0.2 || figures.hung > 0 });
      }
    }
    for (const row of live()) row.rssMB = rssMB(row.server.pid);
  } finally {
    await Promise.all(rows.filter((row) => row.server).map((row) => row.server.stop()));
  }
  for (const row of live()) {
    const clean = row.rounds.filter((r) => !r.disturbed);
    const rounds = clean.length ? clean : row.rounds;
    row.rps = median(rounds.map((r) => r.rps));
    row.p99ms = median(rounds.map((r) => r.p99ms));
    row.cpuUs = median(row.rounds.map((r) => r.cpuUs));
    const errors = row.rounds.reduce((sum, r) => sum + r.errors + r.non2xx, 0);
    row.note = [row.cpuUs == null ? null : `${row.cpuUs.toFixed(1)} µs server CPU per request`, errors ? `${errors} errors or non-2xx answers` : null]
      .filter(Boolean).join('; ');
  }
  for (const row of rows) delete row.server;
  const about = `${scenario.about}, over ${mode === 'h2' ? 'TLS (h2, ALPN)' : 'cleartext h2c'}; ${CLIENTS} connections × ${STREAMS} streams`;
  return { about, tool: measure === runH2load ? 'h2load' : 'node http2 client', seconds: (Date.now() - began) / 1000, rows };
}
