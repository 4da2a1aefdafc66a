'use strict';
// Fastify 5 with `http2: true` (and its `https` options for TLS), defaults otherwise.
const Fastify = require('fastify');
const { HELLO, JSON_REPLY } = require('../scenarios');
const { HOST, parseArgs, ready, fail } = require('./common');
const { modeOf, tlsOptions } = require('./h2-common');

function build(name, mode) {
  const app = Fastify(mode === 'h2' ? { http2: true, https: tlsOptions() } : { http2: true });
  switch (name) {
    case 'hello':
      app.get('/', async () => HELLO);
      break;
    case 'json':
      app.get('/json', async () => JSON_REPLY);
      break;
    default:
      throw new Error(`fastify-h2: no scenario "${name}"`);
  }
  return app;
}

const args = parseArgs();
build(args.name, modeOf(args.variant)).listen({ port: args.port, host: HOST }).then(() => ready(), fail);
