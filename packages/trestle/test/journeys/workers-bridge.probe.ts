// Not a test: the probe behind docs/deploy.md's table "Express through
// Cloudflare's bridge, and trestle". Real Express 5 with the Workers journey's
// middleware (runtimes/app.cjs, wrapped), served by `httpServerHandler` of
// `cloudflare:node` under miniflare, against the same Express 5 on Node over
// a socket; prints each answer's status line, encoding, length and body.
//   node --import tsx packages/trestle/test/journeys/workers-bridge.probe.ts
// (after npm run build). What it shows is Cloudflare's, so no test asserts it.
import { createServer, request as httpRequest } from 'node:http';
import { type Readable, Writable } from 'node:stream';
import { Miniflare } from 'miniflare';
import { join } from 'node:path';
import { bundleWorker, COMPATIBILITY_DATE } from '../runtimes/worker';
const RUNTIMES = join(__dirname, '..', 'runtimes');
const APP = join(RUNTIMES, 'app.cjs');
const cases = [
  ['GET', '/', {}], ['GET', '/session', {}], ['GET', '/big', { 'accept-encoding': 'gzip' }], ['GET', '/big/streamed', {}], ['POST', '/created', {}], ['PUT', '/echo', { 'content-type': 'application/json' }, '[1,2,3]'], ['GET', '/no/such', {}],
] as const;
function send(port: number, method: string, path: string, headers: object, body?: string): Promise<string> {
  return new Promise((resolve) => {
    const req = httpRequest({ host: '127.0.0.1', port, method, path, headers: { ...headers, ...(body ? { 'content-length': String(body.length) } : {}) }, timeout: 10000 }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (d) => chunks.push(d));
      res.on('end', () => resolve(`${res.statusCode} ${res.statusMessage} ce=${res.headers['content-encoding']} cl=${res.headers['content-length']} body=${JSON.stringify(Buffer.concat(chunks).toString('latin1').slice(0, 60))} len=${Buffer.concat(chunks).length}`));
      res.on('error', (e) => resolve('ERR ' + e.message));
    });
    req.on('timeout', () => req.destroy(new Error('timeout')));
    req.on('error', (e) => resolve('ERR ' + e.message));
    req.end(body);
  });
}
(async () => {
  process.env.NODE_ENV = 'production';
  const express = require('express5');
  const app = require(APP)(express, new Writable({ write: (_c, _e, cb) => cb() }), { noFiles: true, wrapped: true });
  const server = createServer(app).listen(0, '127.0.0.1');
  await new Promise((r) => server.once('listening', r));
  const port = (server.address() as { port: number }).port;
  const node: string[] = [];
  for (const [m, p, h, b] of cases) node.push(await send(port, m, p, { 'accept-encoding': 'br, gzip', ...h }, b));
  server.close();
  const script = await bundleWorker(`
import express from 'express5';
import { httpServerHandler } from 'cloudflare:node';
import createApp from ${JSON.stringify(APP)};
const app = createApp(express, undefined, { noFiles: true, wrapped: true });
app.listen(8080);
export default httpServerHandler({ port: 8080 });
`, RUNTIMES);
  let errors = '';
  const mf = new Miniflare({ modules: true, script, compatibilityDate: COMPATIBILITY_DATE, compatibilityFlags: ['nodejs_compat'], bindings: { NODE_ENV: 'production' }, host: '127.0.0.1', port: 0, handleRuntimeStdio(o: Readable, e: Readable) { o.resume(); e.on('data', (d: Buffer) => (errors += d.toString())); } });
  const url = await mf.ready;
  for (const [i, [m, p, h, b]] of cases.entries()) {
    const w = await send(Number(url.port), m, p, h, b);
    console.log(`${m} ${p}\n  node:   ${node[i]}\n  bridge: ${w}`);
  }
  console.log('workerd stderr:', errors.slice(0, 1500));
  await mf.dispose();
})();
