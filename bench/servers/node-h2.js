'use strict';
// Bare node on its HTTP/2 compatibility API: the ceiling for HTTP/2.
const { HELLO, JSON_REPLY } = require('../scenarios');
const { HOST, parseArgs, ready, fail } = require('./common');
const { createH2Server, modeOf } = require('./h2-common');
const { send, sendText, sendJson } = require('./respond');

const notFound = (res) => send(res, 404, 'text/plain; charset=utf-8', 'Not Found');

function handler(name) {
  switch (name) {
    case 'hello':
      return (req, res) => (req.method === 'GET' && req.url === '/' ? sendText(res, HELLO) : notFound(res));
    case 'json':
      return (req, res) => (req.method === 'GET' && req.url === '/json' ? sendJson(res, JSON_REPLY) : notFound(res));
    default:
      throw new Error(`node-h2: no scenario "${name}"`);
  }
}

const args = parseArgs();
createH2Server(modeOf(args.variant), handler(args.name)).listen(args.port, HOST, ready).on('error', fail);
