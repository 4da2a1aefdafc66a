'use strict';
// One measurement of `node bench/js-cost.mjs --frameworks trestle-fetch,hono-fetch`:
// loads an unchanged bench server (bench/servers/<framework>.js) without
// listening, takes its app, and times `app.fetch(new Request(...))` with the
// body read, one request after another: what a fetch-speaking runtime (Bun,
// Deno, Workers) asks of the framework, the Request's making included.
// Prints one JSON line as js-cost-child.js does. `node-fetch` is the ceiling:
// the hand-written fetch handler of servers/node-fetch.js, with the headers
// trestle's answer carries and no framework.
const { loadServer, waitForServer, print } = require('./js-cost-server');
const { scenarios, requestPath } = require('../scenarios');

const [framework, scenarioName] = process.argv.slice(2);
const BATCH = 50;
const WARMUP_REQUESTS = 30_000;
const MEASURED_REQUESTS = 300_000;

const loaded = framework === 'node' ? null : loadServer(framework, scenarioName);

/** The app's fetch: Hono's script exports its app; an Express-API app is its server's request listener. */
async function fetchOf() {
  if (framework === 'node') return require('../servers/node-fetch').fetchHandlerFor(scenarioName);
  if (loaded && loaded.hono) return loaded.hono.fetch;
  const app = (await waitForServer(framework)).listeners('request')[0];
  if (!app || typeof app.fetch !== 'function') throw new Error(`${framework} has no app.fetch`);
  return app.fetch;
}

async function main() {
  const fetch = await fetchOf();
  const { request } = scenarios[scenarioName];
  const { method = 'GET', headers = {}, body } = request;
  // A varying path (params-varied): a new one each request, the string made inside the timing as any app's would be.
  let sent = 0;
  const fixed = `http://127.0.0.1:3000${request.path}`;
  const urlOf = request.vary ? () => `http://127.0.0.1:3000${requestPath(request, ++sent)}` : () => fixed;
  const init = { method, headers: { 'user-agent': 'js-cost', accept: '*/*', ...headers, ...(body !== undefined && { 'content-length': String(Buffer.byteLength(body)) }) }, body };
  const perRequest = [];
  async function run(requests, record) {
    for (let sent = 0; sent < requests; sent += BATCH) {
      const start = process.hrtime.bigint();
      for (let i = 0; i < BATCH; i++) {
        const res = await fetch(new Request(urlOf(), init));
        if (res.status !== 200) {
          console.error(`unexpected answer: ${res.status} ${await res.text()}`);
          process.exit(1);
        }
        await res.arrayBuffer();
      }
      if (record) perRequest.push(Number(process.hrtime.bigint() - start) / BATCH);
    }
  }
  await run(WARMUP_REQUESTS, false);
  await run(MEASURED_REQUESTS, true);
  perRequest.sort((a, b) => a - b);
  const at = (share) => Math.round(perRequest[Math.floor(perRequest.length * share)]);
  print(`${JSON.stringify({ framework: `${framework}-fetch`, scenario: scenarioName, variant: null, p10: at(0.1), p50: at(0.5) })}\n`);
  process.exit(0);
}

main().catch((err) => {
  console.error(err);
  process.exit(1);
});
