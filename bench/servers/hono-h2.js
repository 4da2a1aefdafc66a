'use strict';
// Hono on @hono/node-server with node's HTTP/2 server (`createServer`), as its README shows.
const http2 = require('node:http2');
const { Hono } = require('hono');
const { serve } = require('@hono/node-server');
const { HELLO, JSON_REPLY } = require('../scenarios');
const { HOST, parseArgs, ready, fail } = require('./common');
const { modeOf, tlsOptions } = require('./h2-common');

function build(name) {
  const app = new Hono();
  switch (name) {
    case 'hello':
      app.get('/', (c) => c.text(HELLO));
      break;
    case 'json':
      app.get('/json', (c) => c.json(JSON_REPLY));
      break;
    default:
      throw new Error(`hono-h2: no scenario "${name}"`);
  }
  return app;
}

const args = parseArgs();
const mode = modeOf(args.variant);
const server = mode === 'h2'
  ? { createServer: http2.createSecureServer, serverOptions: tlsOptions() }
  : { createServer: http2.createServer };
serve({ fetch: build(args.name).fetch, port: args.port, hostname: HOST, ...server }, () => ready()).on('error', fail);
