// Serves the conformance app (app.cjs) or the example app on 127.0.0.1, a free
// port, on whatever runtime runs this file, and prints `PORT <n>` once
// listening; each logline line comes out as `LOG <line>`.
//   <runtime> serve.cjs <entry: trestle|v4|legacy|example> <how: listen|native>
// `native` is the runtime's own server with app.fetch: Bun.serve or Deno.serve.
'use strict';
const path = require('path');

const [entry, how] = process.argv.slice(2);
const dist = path.join(__dirname, '..', '..', 'dist');
const log = { write: (line) => process.stdout.write('LOG ' + line) };

function build() {
  if (entry === 'example') return require(path.join(__dirname, '..', '..', '..', '..', 'examples', 'app.js'))();
  const file = { trestle: 'index.js', v4: 'v4.js', legacy: 'legacy.js' }[entry];
  return require('./app.cjs')(require(path.join(dist, file)), log);
}

const app = build();
if (how === 'listen') {
  const server = app.listen(0, '127.0.0.1', () => console.log('PORT ' + server.address().port));
} else if (typeof Bun !== 'undefined') {
  const server = Bun.serve({ fetch: app.fetch, port: 0, hostname: '127.0.0.1' });
  console.log('PORT ' + server.port);
} else if (typeof Deno !== 'undefined') {
  Deno.serve({ hostname: '127.0.0.1', port: 0, onListen: ({ port }) => console.log('PORT ' + port) }, app.fetch);
} else {
  throw new Error('no native fetch server on this runtime');
}
