'use strict';
// Shared by the bench:js children: loads an unchanged bench server script
// (bench/servers/<framework>.js) so that it never listens. Its server is
// handed to `waitForServer()` instead, and stdout is kept for the child's
// one result line (`print`).
const http = require('node:http');
const net = require('node:net');
const { EventEmitter } = require('node:events');

let server;
const print = process.stdout.write.bind(process.stdout);

/** Requires the server script with listen() captured; returns what the script exports. */
function loadServer(framework, scenarioName, variant) {
  // The server scripts listen and wait for the runner's stdin to close: give
  // them a server that does not listen, and a stdin that never closes.
  // http.Server's own listen too: on Bun it does not go through net.Server's.
  for (const proto of new Set([net.Server.prototype, http.Server.prototype])) {
    proto.listen = function listen(...args) {
      server = this;
      const callback = args.find((a) => typeof a === 'function');
      process.nextTick(() => {
        this.emit('listening');
        if (callback) callback();
      });
      return this;
    };
    proto.address = () => ({ address: '127.0.0.1', family: 'IPv4', port: 1 });
  }
  const stdin = Object.assign(new EventEmitter(), { resume() { return stdin; } });
  Object.defineProperty(process, 'stdin', { value: stdin });
  process.stdout.write = () => true; // the server's "ready"
  process.argv = [process.argv[0], 'server', scenarioName, '1', ...(variant ? [variant] : [])];
  return require(`../servers/${framework}.js`);
}

/** The server once the script has "listened" (some build their router first: Hono on routes-5000). */
async function waitForServer(framework) {
  const sleep = (ms) => new Promise((resolve) => setTimeout(resolve, ms));
  for (let waited = 0; server === undefined && waited < 60_000; waited += 100) await sleep(100);
  await sleep(200);
  if (server === undefined) throw new Error(`${framework} did not start a server`);
  return server;
}

module.exports = { loadServer, waitForServer, print };
