// A chat room over WebSockets: `app.ws()` routes run the app's middleware
// (here a cookie-based "login" check) before the socket is accepted.
// Run: node examples/websocket.js (or with bun, or deno run -A), then in a browser console on
// http://127.0.0.1:3000/ : new WebSocket('ws://127.0.0.1:3000/rooms/lobby')
'use strict';
const trestle = require('trestle');

const app = trestle();
const rooms = new Map();

// Every request, the upgrade included, goes through app.use() middleware.
app.use((req, res, next) => {
  req.user = /(?:^|; )user=([^;]+)/.exec(req.headers.cookie ?? '')?.[1] ?? 'guest';
  next();
});

app.get('/', (req, res) => res.send(`Hello ${req.user}; connect to /rooms/:room`));

app.ws(
  '/rooms/:room',
  // Refuse other sites' pages (browsers send cookies with WebSocket handshakes).
  trestle.checkOrigin((origin) => origin === undefined || origin === 'http://127.0.0.1:3000'),
  (ws, req) => {
    const { room } = req.params;
    if (!rooms.has(room)) rooms.set(room, new Set());
    const members = rooms.get(room);
    members.add(ws);
    ws.on('message', (data) => {
      for (const peer of members) {
        // Backpressure: skip a peer whose queue is over 1 MiB rather than buffer without end.
        if (peer.readyState === 1 && peer.bufferedAmount < 1024 * 1024) peer.send(`${req.user}: ${data}`);
      }
    });
    ws.on('close', () => members.delete(ws));
  },
);

// The same app on Bun and Deno, through app.fetch (docs/websockets.md):
//   bun examples/websocket.js   /   deno run -A examples/websocket.js
const port = Number(process.env.PORT ?? 3000);
if (typeof Bun !== 'undefined') {
  Bun.serve({ port, hostname: '127.0.0.1', fetch: app.fetch, websocket: trestle.bunWebSocket });
  console.log(`chat on http://127.0.0.1:${port}/ (Bun)`);
} else if (typeof Deno !== 'undefined') {
  Deno.serve({ port, hostname: '127.0.0.1' }, app.fetch);
} else {
  const server = app.listen(port, '127.0.0.1', () => {
    console.log(`chat on http://127.0.0.1:${server.address().port}/`);
  });
  trestle.shutdownOnSignals(app);
}
