// Load generators. Both run in (or as a child of) the runner, which is pinned
// to the load CPU, and both return the same figures for one timed round:
// { rps, p99ms, requests, seconds, errors, non2xx }.
import { execFile, execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import autocannon from 'autocannon';
import scenarioData from '../scenarios.js';

const url = (port, request) => `http://127.0.0.1:${port}${request.path}`;

// A scenario whose path varies (params-varied) takes a new one each request,
// counted across all connections.
let sent = 0;
function varying(request) {
  if (!request.vary) return {};
  const setupRequest = (req) => Object.assign(req, { path: scenarioData.requestPath(request, ++sent) });
  return { requests: [{ method: request.method, headers: request.headers, body: request.body, setupRequest }] };
}

async function runAutocannon({ port, request, seconds, connections }) {
  const result = await autocannon({
    url: url(port, request),
    method: request.method,
    headers: request.headers,
    body: request.body,
    ...varying(request),
    connections,
    duration: seconds,
    // autocannon only notices the end of the run at a sample tick; a short
    // interval lets rounds be shorter than a second.
    sampleInt: 50,
  });
  return {
    rps: result.requests.total / result.duration,
    // autocannon records latency in whole milliseconds.
    p99ms: result.latency.p99,
    requests: result.requests.total,
    seconds: result.duration,
    errors: result.errors + result.timeouts,
    non2xx: result.non2xx,
  };
}

export function hasWrk() {
  try {
    execFileSync('wrk', ['--version'], { stdio: 'ignore' });
    return true;
  } catch (err) {
    // wrk --version prints its banner and exits 1; only a missing binary throws ENOENT.
    return err.code !== 'ENOENT';
  }
}

// A wrk Lua script for requests other than a bare GET, written once per
// request into a temporary folder that is removed when the run ends.
const scripts = new Map();
let scriptDir = null;

function wrkScript(request) {
  if (request.method === 'GET' && !request.body && !request.vary) return [];
  if (!scripts.has(request)) {
    if (!scriptDir) {
      scriptDir = mkdtempSync(path.join(os.tmpdir(), 'trestle-bench-'));
      process.on('exit', () => rmSync(scriptDir, { recursive: true, force: true }));
    }
    const file = path.join(scriptDir, `request-${scripts.size}.lua`);
    const headers = Object.entries(request.headers || {})
      .map(([name, value]) => `wrk.headers[${JSON.stringify(name)}] = ${JSON.stringify(value)}\n`).join('');
    // A varying path (params-varied): a new one each request, as autocannon's above.
    const vary = request.vary
      ? `local n = 0\nrequest = function()\n  n = n + 1\n  return wrk.format(nil, ${JSON.stringify(request.vary[0])} .. n .. ${JSON.stringify(request.vary[1])})\nend\n`
      : '';
    writeFileSync(file, `wrk.method = ${JSON.stringify(request.method)}\n${headers}` +
      (request.body === undefined ? '' : `wrk.body = [==[${request.body}]==]\n`) + vary);
    scripts.set(request, file);
  }
  return ['-s', scripts.get(request)];
}

function toMs(value, unit) {
  return Number(value) * { us: 0.001, ms: 1, s: 1000 }[unit];
}

async function runWrk({ port, request, seconds, connections }) {
  // wrk counts whole seconds.
  const whole = Math.max(1, Math.round(seconds));
  const args = ['-t1', `-c${connections}`, `-d${whole}s`, '--latency', '--timeout', '5s',
    ...wrkScript(request), url(port, request)];
  const out = await new Promise((resolve, reject) => {
    execFile('wrk', args, { timeout: (whole + 15) * 1000 }, (err, stdout) => (err ? reject(err) : resolve(stdout)));
  });
  const number = (re) => Number(re.exec(out)?.[1] ?? 0);
  const p99 = /^\s*99%\s+([\d.]+)(us|ms|s)$/m.exec(out);
  const socket = /Socket errors: connect (\d+), read (\d+), write (\d+), timeout (\d+)/.exec(out);
  return {
    rps: number(/Requests\/sec:\s+([\d.]+)/),
    p99ms: p99 ? toMs(p99[1], p99[2]) : null,
    requests: number(/(\d+) requests in/),
    seconds: whole,
    errors: socket ? socket.slice(1).reduce((sum, n) => sum + Number(n), 0) : 0,
    non2xx: number(/Non-2xx or 3xx responses:\s+(\d+)/),
  };
}

export function loadGenerator(tool) {
  return tool === 'wrk' ? runWrk : runAutocannon;
}
