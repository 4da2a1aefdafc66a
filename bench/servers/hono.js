'use strict';
// Hono on @hono/node-server, with the adapter's own serveStatic.
const path = require('node:path');
const { Hono } = require('hono');
const { serve } = require('@hono/node-server');
const { serveStatic } = require('@hono/node-server/serve-static');
const { HELLO, JSON_REPLY, STATIC_DIR, routeIn, variedJson } = require('../scenarios');
const { HOST, parseArgs, ready, fail, serveFetch } = require('./common');

function build({ name, scenario }) {
  const app = new Hono();
  const hello = (c) => c.text(HELLO);
  switch (name) {
    case 'hello':
      app.get('/', hello);
      break;
    case 'json':
      app.get('/json', (c) => c.json(JSON_REPLY));
      break;
    case 'json-varied': {
      const next = variedJson();
      app.get('/json-varied', (c) => c.json(next()));
      break;
    }
    case 'params':
    case 'params-varied':
    case 'routes-500':
    case 'routes-5000':
    case 'cold':
      for (const route of scenario.routes) app.get(routeIn('hono', route), (c) => c.json(c.req.param()));
      break;
    case 'middleware':
      for (let i = 0; i < scenario.middlewareCount; i++) app.use((c, next) => next());
      app.get('/', hello);
      break;
    case 'body':
      app.post('/body', async (c) => c.json(await c.req.json()));
      break;
    case 'static':
      // serveStatic wants a root relative to the working directory.
      app.use('/static/*', serveStatic({
        root: path.relative(process.cwd(), STATIC_DIR),
        rewriteRequestPath: (p) => p.slice('/static'.length),
      }));
      break;
    case 'api':
      return require('./api-scenario').honoApi(app, { scenario });
    default:
      throw new Error(`hono: no scenario "${name}"`);
  }
  return app;
}

// Hono builds its router (one regular expression for every route) on the
// first request, and V8 compiles that expression to machine code on a later
// one: for routes-5000's 5,000 routes that is seconds of CPU, which the
// probe's time limit does not allow. Start-up is not measured, so it is done
// before listening.
async function buildRouter(app, { name, scenario }) {
  if (name !== 'routes-5000') return;
  for (let i = 0; i < 2; i++) await app.fetch(new Request(`http://${HOST}${scenario.request.path}`));
}

const args = parseArgs();
const app = build(args);
// bench:js's fetch mode (lib/js-cost-fetch-child.js) calls app.fetch itself. Not
// exported as `app`: Bun would take an entry script's `{ app }` for a server's options.
module.exports = { hono: app };
buildRouter(app, args).then(() => {
  // `fetch` (Bun, Deno): the runtime's own server instead of @hono/node-server.
  if (args.variant === 'fetch') serveFetch(app.fetch, args.port);
  else serve({ fetch: app.fetch, port: args.port, hostname: HOST }, () => ready()).on('error', fail);
}, fail);
