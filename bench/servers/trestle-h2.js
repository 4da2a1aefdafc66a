'use strict';
// trestle given to node's HTTP/2 server as its request listener, as users do:
// `http2.createServer(app)` / `http2.createSecureServer(options, app)`.
// The variant is the mode (`h2c` or `h2`), or the mode and `+same-headers`:
// X-Powered-By off, so the answer carries node-h2.js's `+etag` headers, or `+plain`.
const trestle = require('trestle');
const { HELLO, JSON_REPLY } = require('../scenarios');
const { HOST, parseArgs, ready, fail } = require('./common');
const { createH2Server, variantOf } = require('./h2-common');

function build(name) {
  const app = trestle();
  switch (name) {
    case 'hello':
      app.get('/', (req, res) => res.type('text/plain').send(HELLO));
      break;
    case 'json':
      app.get('/json', (req, res) => res.json(JSON_REPLY));
      break;
    default:
      throw new Error(`trestle-h2: no scenario "${name}"`);
  }
  return app;
}

const args = parseArgs();
const { mode, extra } = variantOf(args.variant);
const app = build(args.name);
if (extra === 'same-headers') app.disable('x-powered-by');
// `plain` (bench/h2-cpu.mjs): neither of Express's two default headers.
if (extra === 'plain') app.disable('x-powered-by').disable('etag');
// `wrapped` (bench/h2-cpu.mjs): a listener around the app, which it cannot adopt.
const listener = extra === 'wrapped' ? (req, res) => app(req, res) : app;
createH2Server(mode, listener).listen(args.port, HOST, ready).on('error', fail);
