'use strict';
// Hono on @hono/node-server, with the adapter's own serveStatic.
const path = require('node:path');
const { Hono } = require('hono');
const { serve } = require('@hono/node-server');
const { serveStatic } = require('@hono/node-server/serve-static');
const { HELLO, JSON_REPLY, STATIC_DIR, routeIn } = require('../scenarios');
const { HOST, parseArgs, ready, fail } = require('./common');

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
    case 'params':
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
    default:
      throw new Error(`hono: no scenario "${name}"`);
  }
  return app;
}

const args = parseArgs();
serve({ fetch: build(args).fetch, port: args.port, hostname: HOST }, () => ready()).on('error', fail);
