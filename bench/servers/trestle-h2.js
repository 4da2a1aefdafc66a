'use strict';
// trestle given to node's HTTP/2 server as its request listener, as users do:
// `http2.createServer(app)` / `http2.createSecureServer(options, app)`.
const trestle = require('trestle');
const { HELLO, JSON_REPLY } = require('../scenarios');
const { HOST, parseArgs, ready, fail } = require('./common');
const { createH2Server, modeOf } = require('./h2-common');

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
createH2Server(modeOf(args.variant), build(args.name)).listen(args.port, HOST, ready).on('error', fail);
