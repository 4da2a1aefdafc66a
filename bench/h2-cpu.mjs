// `node bench/h2-cpu.mjs`: server CPU time per HTTP/2 request over long
// runs, steadier than the suite's req/s at 0.5 s rounds. Each run is a fresh
// server process pinned to CPU 0 (h2load on CPU 1): `--warmup` requests,
// then `--requests` counted, and the server's user + system time over those
// (from /proc/<pid>/stat) divided by the requests answered. The servers take
// turns run by run; the table gives each one's median and spread.
//
//   node bench/h2-cpu.mjs [--rounds 6] [--requests 100000] [--warmup 20000]
//                         [--mode h2c|h2] [--scenario hello|json] [--node 24 [--node-cache DIR]]
//
// Needs h2load (apt-get install nghttp2-client) and taskset.
import { execFile } from 'node:child_process';
import { startServer } from './lib/server-process.mjs';
import { cpuSnapshot, settle } from './lib/cpu.mjs';
import { hasH2load } from './lib/http2.mjs';
import { median } from './lib/report.mjs';
import { currentNode, nodeMajor } from './lib/runtime.mjs';

// The rows: bare node with and without Express's weak ETag, trestle with
// Express's defaults, with X-Powered-By off (the headers of node (etag)),
// and with both off (the headers of bare node).
const ROWS = [
  { label: 'bare node, no ETag', framework: 'node-h2', extra: null },
  { label: 'bare node sending the weak ETag (`node (etag)`)', framework: 'node-h2', extra: 'etag' },
  { label: 'trestle, Express\'s defaults', framework: 'trestle-h2', extra: null },
  { label: 'trestle, X-Powered-By off (`same-headers`)', framework: 'trestle-h2', extra: 'same-headers' },
  { label: 'trestle, X-Powered-By and ETag off', framework: 'trestle-h2', extra: 'plain' },
  // docs/http2.md: a listener around the app (no adoption: a prototype switch a request).
  { label: 'trestle behind `(req, res) => app(req, res)`', framework: 'trestle-h2', extra: 'wrapped' },
];
const CLIENTS = 8;
const STREAMS = 16;
const PATHS = { hello: '/', json: '/json' };

function parse(argv) {
  const options = { rounds: 6, requests: 100_000, warmup: 20_000, mode: 'h2c', scenario: 'hello' };
  for (let i = 0; i < argv.length; i++) {
    const [flag, inline] = argv[i].split(/=(.*)/s);
    const value = () => inline ?? argv[++i] ?? '';
    const count = () => {
      const n = Number(value());
      if (!(n >= 1)) throw new Error(`${flag} wants a positive whole number`);
      return Math.round(n);
    };
    if (flag === '--rounds') options.rounds = count();
    else if (flag === '--requests') options.requests = count();
    else if (flag === '--warmup') options.warmup = count();
    else if (flag === '--mode') options.mode = value();
    else if (flag === '--scenario') options.scenario = value();
    else if (flag === '--node') options.node = value();
    else if (flag === '--node-cache') options.nodeCache = value();
    else throw new Error(`unknown option ${argv[i]} (see the comment at the top of bench/h2-cpu.mjs)`);
  }
  if (!['h2c', 'h2'].includes(options.mode)) throw new Error('--mode is h2c or h2');
  if (!PATHS[options.scenario]) throw new Error('--scenario is hello or json');
  return options;
}

/** `h2load -n <requests>` on CPU 1; resolves to the number of 2xx answers. */
function h2load(url, requests) {
  const args = ['-c', '1', 'h2load', '-n', String(requests), '-c', String(CLIENTS), '-m', String(STREAMS), url];
  return new Promise((resolve, reject) => {
    execFile('taskset', args, { timeout: 300_000 }, (err, stdout) => {
      if (err) return reject(err);
      const ok = /status codes: (\d+) 2xx/.exec(stdout);
      resolve(ok ? Number(ok[1]) : 0);
    });
  });
}

async function oneRun(row, options, runtime) {
  const variant = row.extra ? `${options.mode}+${row.extra}` : options.mode;
  const server = await startServer({ framework: row.framework, scenario: options.scenario, variant, cpus: '0', runtime });
  try {
    const url = `${options.mode === 'h2' ? 'https' : 'http'}://127.0.0.1:${server.port}${PATHS[options.scenario]}`;
    await h2load(url, options.warmup);
    await settle(server.pid);
    const before = cpuSnapshot(server.pid);
    const answered = await h2load(url, options.requests);
    const after = cpuSnapshot(server.pid);
    if (answered < options.requests) throw new Error(`${row.label}: ${answered} of ${options.requests} answered with a 2xx`);
    return ((after.server - before.server) * 1e6) / answered;
  } finally {
    await server.stop();
  }
}

async function main() {
  const options = parse(process.argv.slice(2));
  if (!hasH2load()) throw new Error('h2load is not on the PATH (apt-get install nghttp2-client)');
  const runtime = options.node ? nodeMajor(options.node, options.nodeCache) : currentNode();
  console.log(`Server CPU per request, ${options.scenario} over ${options.mode}, on ${runtime.label}: ${options.rounds} run(s) per server of ` +
    `h2load -n ${options.requests} -c ${CLIENTS} -m ${STREAMS} after ${options.warmup} to warm up; server on CPU 0, h2load on CPU 1\n`);
  const runs = ROWS.map(() => []);
  for (let round = 0; round < options.rounds; round++) {
    for (let k = 0; k < ROWS.length; k++) {
      const i = (k + round) % ROWS.length;
      runs[i].push(await oneRun(ROWS[i], options, runtime));
    }
    console.error(`round ${round + 1} of ${options.rounds} done`);
  }
  console.log(`| server (${runtime.label}) | µs/request (median of ${options.rounds}) | spread |\n| --- | ---: | ---: |`);
  ROWS.forEach((row, i) => {
    const sorted = [...runs[i]].sort((a, b) => a - b);
    console.log(`| ${row.label} | ${median(sorted).toFixed(1)} | ${sorted[0].toFixed(1)}-${sorted.at(-1).toFixed(1)} |`);
  });
}

main().catch((err) => {
  console.error(`h2-cpu: ${err.message}`);
  process.exit(1);
});
