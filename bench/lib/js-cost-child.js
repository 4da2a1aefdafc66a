'use strict';
// One measurement of `node bench/js-cost.mjs`: loads an unchanged bench
// server (bench/servers/<framework>.js), but instead of a listening socket
// feeds its http.Server an in-memory connection carrying batches of
// pipelined requests. What is timed is everything node and the framework do
// in JavaScript (parsing included) and nothing of the kernel's part, which
// is the same for every framework and the noisiest part on a shared machine.
// Prints one JSON line: nanoseconds per request at the 10th percentile and
// the median of all batches.
const { Duplex } = require('node:stream');
const { loadServer, waitForServer, print } = require('./js-cost-server');
const { scenarios, requestPath } = require('../scenarios');

const [framework, scenarioName, variant] = process.argv.slice(2);
const BATCH = 50;
const WARMUP_REQUESTS = 30_000;
const MEASURED_REQUESTS = 300_000;

loadServer(framework, scenarioName, variant);
let server;

// The request as bytes; the n-th of a scenario whose path varies (params-varied).
function requestText(scenario, n) {
  const { method = 'GET', headers = {}, body } = scenario.request;
  const path = n === undefined ? scenario.request.path : requestPath(scenario.request, n);
  const lines = [`${method} ${path} HTTP/1.1`, 'Host: 127.0.0.1:3000', 'User-Agent: js-cost', 'Accept: */*'];
  for (const [name, value] of Object.entries(headers)) lines.push(`${name}: ${value}`);
  if (body !== undefined) lines.push(`Content-Length: ${Buffer.byteLength(body)}`);
  return `${lines.join('\r\n')}\r\n\r\n${body ?? ''}`;
}

/** A connection that counts the answers written to it, and fails on any but 200. */
class Connection extends Duplex {
  constructor() {
    super({ decodeStrings: false });
    Object.assign(this, { remoteAddress: '127.0.0.1', remotePort: 50000, localAddress: '127.0.0.1', localPort: 1, encrypted: false, server });
    this.answers = 0;
    this.wanted = 0;
    this.onWanted = undefined;
  }
  _read() {}
  _write(chunk, _encoding, done) {
    this.count(chunk);
    done();
  }
  _writev(chunks, done) {
    for (const { chunk } of chunks) this.count(chunk);
    done();
  }
  count(chunk) {
    const text = typeof chunk === 'string' ? chunk : chunk.toString('latin1');
    for (let at = text.indexOf('HTTP/1.1 '); at !== -1; at = text.indexOf('HTTP/1.1 ', at + 1)) {
      if (!text.startsWith('HTTP/1.1 200', at)) {
        console.error(`unexpected answer: ${text.slice(at, at + 200)}`);
        process.exit(1);
      }
      this.answers++;
    }
    if (this.onWanted !== undefined && this.answers >= this.wanted) {
      const resolve = this.onWanted;
      this.onWanted = undefined;
      resolve();
    }
  }
  setTimeout() { return this; }
  setNoDelay() { return this; }
  setKeepAlive() { return this; }
  ref() { return this; }
  unref() { return this; }
  address() { return { address: '127.0.0.1', family: 'IPv4', port: 1 }; }
}

async function main() {
  server = await waitForServer(framework);
  const scenario = scenarios[scenarioName];
  // A varying path: every request of every batch a new one, made before the clock starts.
  let sentPaths = 0;
  const fixed = Buffer.from(requestText(scenario).repeat(BATCH));
  const nextBatch = scenario.request.vary
    ? () => Buffer.from(Array.from({ length: BATCH }, () => requestText(scenario, ++sentPaths)).join(''))
    : () => fixed;
  const connection = new Connection();
  server.emit('connection', connection);
  const perRequest = [];
  async function run(requests, record) {
    for (let sent = 0; sent < requests; sent += BATCH) {
      connection.wanted = connection.answers + BATCH;
      const answered = new Promise((resolve) => (connection.onWanted = resolve));
      const batch = nextBatch();
      const start = process.hrtime.bigint();
      connection.push(batch);
      await answered;
      if (record) perRequest.push(Number(process.hrtime.bigint() - start) / BATCH);
    }
  }
  await run(WARMUP_REQUESTS, false);
  await run(MEASURED_REQUESTS, true);
  perRequest.sort((a, b) => a - b);
  const at = (share) => Math.round(perRequest[Math.floor(perRequest.length * share)]);
  print(`${JSON.stringify({ framework, scenario: scenarioName, variant: variant ?? null, p10: at(0.1), p50: at(0.5) })}\n`);
  process.exit(0);
}

main().catch((err) => {
  console.error(err);
  process.exit(1);
});
