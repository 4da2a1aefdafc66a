// The WebSocket benchmark: echo messages per second and connection setups
// per second for trestle's `app.ws()`, a bare `ws` server, express-ws on
// Express 5 and @fastify/websocket, in interleaved rounds, as ratios to the
// bare `ws` server. `npm run bench` runs it after bench/run.mjs;
//
//   node bench/websocket.mjs [--quick] [--rounds 5] [--duration 3] [--warmup 2]
//                            [--node 24] [--node-cache DIR] [--no-pin] [--out FILE]
//
// The servers run on Node 24 by default (installed from the registry as
// `--node` in bench/run.mjs does), each in its own process pinned to the
// server CPU. The client is one process pinned to the other CPU; it speaks
// the protocol with prebuilt frames (a fixed mask, a fixed handshake key) and
// reads only frame headers, so it costs a fraction of what a server spends
// per message, and the server's CPU share (printed) shows whether it was the
// bottleneck. Every wait is bounded; servers and client exit when their
// stdin closes.
//
// The same file is the server (`--serve KIND`) and the client (`--client`).
import { spawn } from 'node:child_process';
import { createHash } from 'node:crypto';
import { mkdirSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const BENCH_DIR = fileURLToPath(new URL('.', import.meta.url));
const KINDS = ['ws', 'trestle', 'express-ws', 'fastify'];
const LABELS = { ws: 'bare ws', trestle: 'trestle app.ws', 'express-ws': 'express-ws (Express 5)', fastify: '@fastify/websocket' };
const MODES = ['echo', 'setup'];
const PATH = '/echo';
// Text messages of 32 bytes, each connection waiting for its echo before
// sending the next (a chat, a game tick), over ECHO_CONNECTIONS connections;
// SETUP_CONCURRENCY clients at once open, handshake and close.
const MESSAGE = Buffer.from('x'.repeat(32));
const ECHO_CONNECTIONS = 64;
const SETUP_CONCURRENCY = 32;
const KEY = 'dGhlIHNhbXBsZSBub25jZQ==';
const ACCEPT = createHash('sha1').update(KEY + '258EAFA5-E914-47DA-95CA-C5AB0DC85B11').digest('base64');

// ───────────────────────── servers ─────────────────────────

// Each echoes what it receives, as its users would write it.
const servers = {
  ws(require, port, ready) {
    const http = require('node:http');
    const { WebSocketServer } = require('ws');
    const server = http.createServer((req, res) => res.end());
    const wss = new WebSocketServer({ server, path: PATH });
    wss.on('connection', (ws) => ws.on('message', (data, isBinary) => ws.send(data, { binary: isBinary })));
    server.listen(port, '127.0.0.1', ready);
  },
  trestle(require, port, ready) {
    const trestle = require('trestle');
    const app = trestle();
    app.ws(PATH, (ws) => ws.on('message', (data, isBinary) => ws.send(data, { binary: isBinary })));
    app.listen(port, '127.0.0.1', ready);
  },
  'express-ws'(require, port, ready) {
    const express = require('express');
    const app = express();
    require('express-ws')(app);
    // express-ws's own ws is 7: text arrives as a string and goes back as text.
    app.ws(PATH, (ws) => ws.on('message', (data) => ws.send(data)));
    app.listen(port, '127.0.0.1', ready);
  },
  async fastify(require, port, ready) {
    const app = require('fastify')();
    await app.register(require('@fastify/websocket'));
    app.register(async (scope) => {
      scope.get(PATH, { websocket: true }, (socket) => socket.on('message', (data, isBinary) => socket.send(data, { binary: isBinary })));
    });
    await app.listen({ port, host: '127.0.0.1' });
    ready();
  },
};

async function serve(kind, port) {
  const require = createRequire(path.join(BENCH_DIR, 'package.json'));
  process.stdin.on('end', () => process.exit(0)).resume();
  await servers[kind](require, port, () => console.log('ready'));
}

// ───────────────────────── client ─────────────────────────

function maskedFrame(opcode, payload) {
  const mask = Buffer.from([0x12, 0x34, 0x56, 0x78]);
  const body = Buffer.from(payload.map((byte, i) => byte ^ mask[i % 4]));
  return Buffer.concat([Buffer.from([0x80 | opcode, 0x80 | payload.length]), mask, body]);
}
const TEXT_FRAME = maskedFrame(0x1, MESSAGE);
const CLOSE_FRAME = maskedFrame(0x8, Buffer.from([0x03, 0xe8]));

function handshake(port) {
  return Buffer.from(`GET ${PATH} HTTP/1.1\r\nHost: 127.0.0.1:${port}\r\nUpgrade: websocket\r\nConnection: Upgrade\r\n` +
    `Sec-WebSocket-Key: ${KEY}\r\nSec-WebSocket-Version: 13\r\n\r\n`);
}

/**
 * One connection: handshakes, then calls onFrame(opcode, length) per frame
 * the server sends. Rejects when the server does not answer 101 with the
 * right Sec-WebSocket-Accept.
 */
function connect(port, request, onFrame) {
  return new Promise((resolve, reject) => {
    const socket = net.connect(port, '127.0.0.1');
    socket.setNoDelay(true);
    let pending = Buffer.alloc(0);
    let open = false;
    socket.once('error', reject);
    socket.once('connect', () => socket.write(request));
    socket.on('data', (chunk) => {
      pending = pending.length === 0 ? chunk : Buffer.concat([pending, chunk]);
      if (!open) {
        const end = pending.indexOf('\r\n\r\n');
        if (end === -1) return;
        const head = pending.subarray(0, end).toString('latin1');
        if (!head.startsWith('HTTP/1.1 101') || !head.includes(ACCEPT)) {
          socket.destroy();
          reject(new Error(`no 101 with the right accept key: ${head.split('\r\n')[0]}`));
          return;
        }
        open = true;
        pending = pending.subarray(end + 4);
        resolve(socket);
      }
      // Frames from the server are unmasked: a 2, 4 or 10 byte header.
      while (pending.length >= 2) {
        const short = pending[1] & 0x7f;
        const header = short === 126 ? 4 : short === 127 ? 10 : 2;
        if (pending.length < header) break;
        const length = short === 126 ? pending.readUInt16BE(2) : short === 127 ? Number(pending.readBigUInt64BE(2)) : short;
        if (pending.length < header + length) break;
        const opcode = pending[0] & 0x0f;
        pending = pending.subarray(header + length);
        onFrame(socket, opcode, length);
      }
    });
  });
}

async function echo(port, seconds) {
  const request = handshake(port);
  let counting = false;
  let count = 0;
  let wrong = 0;
  const sockets = [];
  for (let i = 0; i < ECHO_CONNECTIONS; i++) {
    sockets.push(await connect(port, request, (socket, opcode, length) => {
      if (opcode !== 0x1 || length !== MESSAGE.length) wrong += 1;
      else if (counting) count += 1;
      socket.write(TEXT_FRAME);
    }));
  }
  for (const socket of sockets) socket.write(TEXT_FRAME);
  // Warmed by the round's first 200 ms; then counted.
  await sleep(200);
  counting = true;
  process.send({ type: 'started' });
  const started = performance.now();
  await sleep(seconds * 1000);
  counting = false;
  const elapsed = (performance.now() - started) / 1000;
  process.send({ type: 'stopped' });
  for (const socket of sockets) socket.destroy();
  if (wrong > 0) throw new Error(`${wrong} echoes were not the message sent`);
  return count / elapsed;
}

/** Connection setups: connect, handshake, close handshake, then a reset (no TIME_WAIT piling up on either side). */
async function setup(port, seconds) {
  const request = handshake(port);
  let count = 0;
  let stopAt = 0;
  let failures = 0;
  async function loop() {
    while (performance.now() < stopAt) {
      await new Promise((resolve) => {
        connect(port, request, (socket, opcode) => {
          if (opcode !== 0x8) return;
          if (performance.now() < stopAt) count += 1;
          socket.resetAndDestroy();
          resolve();
        }).then((socket) => socket.write(CLOSE_FRAME), () => {
          failures += 1;
          resolve();
        });
      });
      if (failures > 100) throw new Error('over 100 setups failed');
    }
  }
  process.send({ type: 'started' });
  const started = performance.now();
  stopAt = started + seconds * 1000;
  await Promise.all(Array.from({ length: SETUP_CONCURRENCY }, loop));
  process.send({ type: 'stopped' });
  return count / (seconds);
}

async function client(mode, port, seconds) {
  // A bound on the whole measurement: never a hang.
  setTimeout(() => {
    console.error(`client: ${mode} did not finish within ${seconds + 20}s`);
    process.exit(1);
  }, (seconds + 20) * 1000).unref();
  const rate = mode === 'echo' ? await echo(port, seconds) : await setup(port, seconds);
  process.send({ type: 'done', rate }, () => process.exit(0));
}

const sleep = (ms) => new Promise((resolve) => setTimeout(resolve, ms));

// ───────────────────────── runner ─────────────────────────

function parseOptions(argv) {
  const options = { rounds: 5, duration: 3, warmup: 2, node: '24', nodeCache: undefined, pin: true, out: path.join(BENCH_DIR, 'results', 'websocket.json') };
  for (let i = 0; i < argv.length; i++) {
    const value = () => {
      if (argv[i + 1] === undefined) throw new Error(`${argv[i]} needs a value`);
      return argv[++i];
    };
    switch (argv[i]) {
      case '--quick': Object.assign(options, { rounds: 2, duration: 1, warmup: 0.5 }); break;
      case '--rounds': options.rounds = Number(value()); break;
      case '--duration': options.duration = Number(value()); break;
      case '--warmup': options.warmup = Number(value()); break;
      case '--node': options.node = value(); break;
      case '--node-cache': options.nodeCache = value(); break;
      case '--no-pin': options.pin = false; break;
      case '--out': options.out = path.resolve(value()); break;
      default: throw new Error(`unknown option ${argv[i]}`);
    }
  }
  for (const key of ['rounds', 'duration', 'warmup']) {
    if (!(options[key] > 0) || options[key] > 60) throw new Error(`--${key} must be a number above 0 and at most 60`);
  }
  return options;
}

const SELF = fileURLToPath(import.meta.url);

function pinned(cpu, bin, args, pin) {
  return pin ? ['taskset', ['-c', cpu, bin, ...args]] : [bin, args];
}

async function startServer(kind, runtime, pin, lib) {
  const port = await lib.freePort();
  const [command, args] = pinned(lib.SERVER_CPU, runtime.bin, [SELF, '--serve', kind, String(port)], pin);
  const child = spawn(command, args, { cwd: BENCH_DIR, env: { ...process.env, NODE_ENV: 'production' }, stdio: ['pipe', 'pipe', 'pipe'] });
  let stderr = '';
  child.stderr.on('data', (chunk) => (stderr = (stderr + chunk).slice(-2000)));
  await new Promise((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`${kind}: no "ready" within 30s ${stderr}`)), 30_000);
    child.stdout.on('data', (chunk) => {
      if (String(chunk).includes('ready')) {
        clearTimeout(timer);
        resolve();
      }
    });
    child.once('exit', (code) => {
      clearTimeout(timer);
      reject(new Error(`${kind} server exited (${code}) before "ready": ${stderr}`));
    });
  });
  if (pin) lib.pin(child.pid, lib.SERVER_CPU);
  return { kind, port, pid: child.pid, stop: () => child.stdin.end() };
}

/** One measurement: a client process against one server; the rate and the server's CPU share over the counted window. */
function measure(server, mode, seconds, runtime, pin, lib) {
  const [command, args] = pinned(lib.LOAD_CPU, runtime.bin, [SELF, '--client', mode, String(server.port), String(seconds)], pin);
  const child = spawn(command, args, { cwd: BENCH_DIR, stdio: ['pipe', 'inherit', 'inherit', 'ipc'] });
  return new Promise((resolve, reject) => {
    let before;
    let shares = { serverCpu: null };
    let rate;
    const timer = setTimeout(() => {
      child.kill('SIGKILL');
      reject(new Error(`${mode} against ${server.kind}: no result within ${seconds + 30}s`));
    }, (seconds + 30) * 1000);
    child.on('message', (message) => {
      if (message.type === 'started') before = [lib.cpuSnapshot(server.pid), lib.cpuSnapshot(child.pid)];
      else if (message.type === 'stopped' && before) {
        shares = lib.cpuShares(before[0], lib.cpuSnapshot(server.pid));
        shares.clientCpu = lib.cpuShares(before[1], lib.cpuSnapshot(child.pid)).serverCpu;
      }
      else if (message.type === 'done') rate = message.rate;
    });
    child.once('exit', (code) => {
      clearTimeout(timer);
      if (code === 0 && rate !== undefined) resolve({ rate, perCpuSecond: shares.serverCpu ? rate / shares.serverCpu : null, serverCpu: shares.serverCpu, clientCpu: shares.clientCpu ?? null, otherCpu: shares.otherCpu });
      else reject(new Error(`${mode} against ${server.kind}: the client exited with ${code}`));
    });
  });
}

const median = (values) => {
  const sorted = [...values].sort((a, b) => a - b);
  const mid = sorted.length >> 1;
  return sorted.length % 2 ? sorted[mid] : (sorted[mid - 1] + sorted[mid]) / 2;
};

// Rates, and rates per second of server CPU: on a machine shared with other
// work a server gets only part of its CPU, and the second figure (what one
// CPU-second of the server does) is the steadier comparison then.
function table(mode, results) {
  const unit = mode === 'echo' ? 'echoes/s' : 'setups/s';
  const share = (rounds, key) => median(rounds.map((x) => x[key] ?? 0)).toFixed(2);
  const perCpu = (kind) => median(results[kind][mode].rounds.map((x) => x.perCpuSecond ?? 0));
  const rows = KINDS.map((kind) => {
    const r = results[kind][mode];
    return `| ${LABELS[kind]} | ${Math.round(r.median).toLocaleString('en-US')} | ${(r.median / results.ws[mode].median).toFixed(2)}x | ` +
      `${Math.round(perCpu(kind)).toLocaleString('en-US')} | ${(perCpu(kind) / perCpu('ws')).toFixed(2)}x | ${share(r.rounds, 'serverCpu')} | ${share(r.rounds, 'clientCpu')} | ${share(r.rounds, 'otherCpu')} |`;
  });
  const about = mode === 'echo'
    ? `${ECHO_CONNECTIONS} connections, one ${MESSAGE.length}-byte text message in flight on each`
    : `${SETUP_CONCURRENCY} clients at once: connect, handshake, close handshake`;
  return [`### ${mode === 'echo' ? 'Echo' : 'Connection setups'} (${about})`, '',
    `| server | ${unit} | vs bare ws | per server CPU-second | vs bare ws | server CPU | client CPU | other work |`,
    '|---|---:|---:|---:|---:|---:|---:|---:|', ...rows].join('\n');
}

async function run(argv) {
  const options = parseOptions(argv);
  const lib = {
    ...(await import('./lib/cpu.mjs')),
    ...(await import('./lib/server-process.mjs')),
    ...(await import('./lib/runtime.mjs')),
  };
  const runtime = lib.nodeMajor(options.node, options.nodeCache);
  const problem = lib.pinningProblem(options.pin);
  const pin = problem === null;
  if (pin) lib.pin(process.pid, lib.LOAD_CPU);
  const placement = pin ? `servers on CPU ${lib.SERVER_CPU}, client on CPU ${lib.LOAD_CPU}` : `not pinned (${problem})`;
  const estimate = Math.round(KINDS.length * MODES.length * (options.warmup + options.rounds * (options.duration + 0.6)));
  console.log(`websocket bench: ${KINDS.map((k) => LABELS[k]).join(', ')} on ${runtime.label}; ${placement}; ` +
    `warm-up ${options.warmup}s, ${options.rounds} interleaved round(s) of ${options.duration}s; about ${estimate}s`);
  const running = [];
  const deadline = setTimeout(() => {
    console.error(`websocket bench: stopped after ${estimate * 2 + 60}s`);
    for (const server of running) server.stop();
    process.exit(1);
  }, (estimate * 2 + 60) * 1000);
  deadline.unref();
  try {
    for (const kind of KINDS) running.push(await startServer(kind, runtime, pin, lib));
    const results = Object.fromEntries(KINDS.map((kind) => [kind, { echo: { rounds: [] }, setup: { rounds: [] } }]));
    for (const mode of MODES) {
      for (const server of running) await measure(server, mode, options.warmup, runtime, pin, lib);
      for (let round = 0; round < options.rounds; round++) {
        // Interleaved, and each round in another order, so drift on the machine falls on every server alike.
        const order = running.map((_, i) => running[(i + round) % running.length]);
        for (const server of order) {
          await lib.settle(server.pid, 3000);
          results[server.kind][mode].rounds.push(await measure(server, mode, options.duration, runtime, pin, lib));
        }
      }
      for (const kind of KINDS) results[kind][mode].median = median(results[kind][mode].rounds.map((r) => r.rate));
      console.log('\n' + table(mode, results));
    }
    const header = `Run of ${new Date().toISOString()}: servers on ${runtime.label}, ${os.cpus()[0]?.model}; ${placement}; ` +
      `warm-up ${options.warmup}s, median of ${options.rounds} interleaved round(s) of ${options.duration}s.`;
    mkdirSync(path.dirname(options.out), { recursive: true });
    writeFileSync(options.out, JSON.stringify({ meta: { runtime: runtime.label, placement, ...options }, results }, null, 2) + '\n');
    writeFileSync(options.out.replace(/(\.json)?$/, '.md'), [header, table('echo', results), table('setup', results)].join('\n\n') + '\n');
    console.log(`\nraw figures in ${path.relative(process.cwd(), options.out)}`);
  } finally {
    for (const server of running) server.stop();
  }
}

// `npm run bench -- ARGS` passes ARGS to bench/run.mjs and then here with
// --from-suite: what applies to this benchmark is kept (--quick, --no-pin,
// --node-cache, and Node 24 or the last of --node's majors); a run narrowed
// to some scenarios, frameworks or another runtime skips this one.
const SUITE_VALUES = new Set(['--only', '--frameworks', '--tool', '--connections', '--rounds', '--duration', '--warmup', '--runs', '--node', '--node-cache', '--runtime', '--out']);
const SUITE_NARROWING = new Set(['--only', '--frameworks', '--runtime', '--help']);

function fromSuite(argv) {
  const kept = [];
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i];
    if (SUITE_NARROWING.has(arg)) return null;
    const next = SUITE_VALUES.has(arg) ? argv[++i] : undefined;
    if (arg === '--quick' || arg === '--no-pin') kept.push(arg);
    else if (arg === '--node-cache') kept.push(arg, next);
    else if (arg === '--node') kept.push(arg, next.split(',').includes('24') ? '24' : next.split(',').at(-1));
  }
  return kept;
}

const [role, ...rest] = process.argv.slice(2);
if (role === '--serve') await serve(rest[0], Number(rest[1]));
else if (role === '--client') await client(rest[0], Number(rest[1]), Number(rest[2]));
else {
  const argv = role === '--from-suite' ? fromSuite(rest) : process.argv.slice(2);
  if (argv === null) {
    console.log('websocket bench: skipped (the run is narrowed to some scenarios, frameworks or a runtime); node bench/websocket.mjs runs it');
    process.exit(0);
  }
  try {
    await run(argv);
  } catch (err) {
    console.error(`websocket bench: ${err.message}`);
    process.exit(1);
  }
}
