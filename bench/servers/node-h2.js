'use strict';
// Bare node on its HTTP/2 compatibility API: the ceiling for HTTP/2. The
// variant is the mode, `h2c` or `h2`, or the mode and `+etag` ("h2c+etag"):
// every answer then carries Express's default weak ETag (as node.js's `etag`).
const { HELLO, JSON_REPLY } = require('../scenarios');
const { HOST, parseArgs, ready, fail } = require('./common');
const { createH2Server, variantOf } = require('./h2-common');
const { send, sendText, sendJson, sendWeakETags } = require('./respond');

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
const { mode, extra } = variantOf(args.variant);
if (extra === 'etag') sendWeakETags();
createH2Server(mode, handler(args.name)).listen(args.port, HOST, ready).on('error', fail);
