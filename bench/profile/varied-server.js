'use strict';
// A server for varied-rss.mjs: the json scenario's answer plus a counter, so
// every body differs. `node varied-server.js <framework> <port>`; framework
// is trestle, trestle-noetag, express5, fastify or node (node hashes the
// same weak ETag as Express, per answer, with the etag package).
const [framework, portText] = process.argv.slice(2);
const port = Number(portText);
const REPLY = { message: 'Hello, World!', ok: true, count: 3 };
let n = 0;
const next = () => ({ ...REPLY, id: ++n });
const ready = () => process.stdout.write('ready\n');
process.stdin.on('end', () => process.exit(0)).resume();

if (framework === 'fastify') {
  const app = require('../node_modules/fastify')();
  app.get('/json', async () => next());
  app.listen({ port, host: '127.0.0.1' }).then(ready);
} else if (framework === 'node') {
  const etag = require('etag');
  require('node:http').createServer((req, res) => {
    const body = JSON.stringify(next());
    res.setHeader('Content-Type', 'application/json; charset=utf-8');
    res.setHeader('Content-Length', Buffer.byteLength(body));
    res.setHeader('ETag', etag(body, { weak: true }));
    res.end(body);
  }).listen(port, '127.0.0.1', ready);
} else {
  const express = require(framework === 'express5' ? 'express5' : 'trestle');
  const app = express();
  if (framework === 'trestle-noetag') app.disable('etag');
  app.get('/json', (req, res) => res.json(next()));
  app.listen(port, '127.0.0.1', ready);
}
