// The example app (app.js) on Bun's own server, answering through app.fetch:
//   bun examples/bun.js          (PORT=0 for a free port)
// `app.listen()` works on Bun too (its node:http); Bun.serve is its fastest server.
'use strict';
const createApp = require('./app.js');

const app = createApp();
const server = Bun.serve({
  fetch: app.fetch,
  port: Number(process.env.PORT ?? 3000),
  hostname: process.env.HOST ?? '127.0.0.1',
});
console.log(`trestle on Bun listening on ${server.url}`);
