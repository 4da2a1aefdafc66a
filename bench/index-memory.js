'use strict';
// `node --expose-gc bench/index-memory.js [scenario...]`: what a scenario's
// routes cost in heap, for trestle and for Fastify, and what trestle's layer
// index (packages/trestle/src/router/layer-index.ts) adds on top. Heap is
// read after full collections, around several builds kept alive together
// (the index: several over the same stack). Defaults to routes-5000.
// Not a load test: RSS under load comes from bench/run.mjs (the RSS column).
const path = require('node:path');
const { scenarios, routeIn } = require('./scenarios');

const ROOT = path.join(__dirname, '..');
// The index is internal to trestle: reached through the build, not the package's exports.
const { buildIndex } = require(path.join(ROOT, 'packages/trestle/dist/router/layer-index.js'));
const trestle = require('trestle');
const Fastify = require('fastify');

const BUILDS = 5;

if (typeof global.gc !== 'function') {
  console.error('run with node --expose-gc');
  process.exit(2);
}

function heapUsed() {
  for (let i = 0; i < 3; i++) global.gc();
  return process.memoryUsage().heapUsed;
}

const kib = (bytes) => `${Math.round(bytes / 1024).toLocaleString('en')} KiB`;

/**
 * Heap bytes one `make()` holds on to: after a first build (which loads
 * code on first use), BUILDS builds kept alive together, divided by BUILDS.
 */
async function retained(make) {
  await make();
  const kept = [];
  const before = heapUsed();
  for (let i = 0; i < BUILDS; i++) kept.push(await make());
  const bytes = heapUsed() - before;
  if (kept.length !== BUILDS) throw new Error('a build went missing');
  return bytes / BUILDS;
}

function trestleApp(routes) {
  const app = trestle();
  for (const route of routes) app.get(routeIn('regexp', route), (req, res) => res.json(req.params));
  return app;
}

async function fastifyApp(routes) {
  const app = Fastify();
  for (const route of routes) app.get(routeIn('fastify', route), async (req) => req.params);
  await app.ready();
  return app;
}

async function main() {
  const names = process.argv.slice(2);
  for (const name of names.length ? names : ['routes-5000']) {
    const { routes } = scenarios[name] ?? {};
    if (!routes) throw new Error(`scenario "${name}" has no routes`);
    const app = trestleApp(routes);
    const layers = app.router.stack;
    const index = await retained(() => buildIndex(layers, false));
    console.log(`${name} (${routes.length} routes):`);
    console.log(`  trestle app with its routes: ${kib(await retained(() => trestleApp(routes)))}`);
    console.log(`  trestle layer index:         ${kib(index)}`);
    console.log(`  fastify app with its routes: ${kib(await retained(() => fastifyApp(routes)))}`);
  }
}

main().catch((err) => {
  console.error(err);
  process.exit(1);
});
