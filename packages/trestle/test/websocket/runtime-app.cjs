// A `ws` route served through app.fetch on Bun (Bun.serve with
// trestle.bunWebSocket) or Deno (Deno.serve), for runtimes.test.ts. Prints
// `PORT <n>` once listening and each logline line as `LOG <line>`.
//   <runtime> runtime-app.cjs <entry: trestle|v4|legacy>
'use strict';
const path = require('path');

const entry = process.argv[2];
const trestle = require(path.join(__dirname, '..', '..', 'dist', { trestle: 'index.js', v4: 'v4.js', legacy: 'legacy.js' }[entry]));
const logline = require('logline-http');

const app = trestle();
app.set('websocket max payload', 1024);
app.use(logline(':method :url :status', { stream: { write: (line) => process.stdout.write('LOG ' + line) } }));
// Runs for the upgrade request first, and refuses it without a token.
app.use((req, res, next) => {
  if (req.query.token !== 'yes') return res.status(401).send('no token');
  req.user = 'ada';
  next();
});
app.ws('/rooms/:room', (ws, req) => {
  req.signal.addEventListener('abort', () => process.stdout.write(`LOG aborted ${req.params.room}\n`));
  ws.send(`${req.user} joined ${req.params.room}`);
  ws.on('message', (data, isBinary) => {
    const text = String(data);
    if (isBinary) return ws.send(data, { binary: true });
    if (text === 'state') {
      return ws.send(JSON.stringify({ readyState: ws.readyState, OPEN: ws.OPEN, bufferedAmount: typeof ws.bufferedAmount, data: Buffer.isBuffer(data) }));
    }
    if (text === 'callback') return ws.send('sent', (err) => ws.send(`callback ${err === undefined || err === null ? 'ok' : err.message}`));
    if (text === 'ping') return ws.ping('p');
    if (text === 'bye') return ws.close(4000, 'bye');
    ws.send(`${req.params.room}: ${text}`);
  });
});

if (typeof Bun !== 'undefined') {
  const server = Bun.serve({ fetch: app.fetch, websocket: trestle.bunWebSocket, port: 0, hostname: '127.0.0.1' });
  console.log('PORT ' + server.port);
} else if (typeof Deno !== 'undefined') {
  Deno.serve({ hostname: '127.0.0.1', port: 0, onListen: ({ port }) => console.log('PORT ' + port) }, app.fetch);
} else {
  throw new Error('runtime-app.cjs runs on Bun or Deno');
}
