// app.fetch given Requests whose signal has already aborted, on whatever
// runtime runs this file: one the app answers in the turn it is called, one
// it never answers. Prints one JSON line: how each call ended, how many times
// the app ran and how many responses closed (pre-aborted.test.ts).
'use strict';
const path = require('path');

const trestle = require(path.join(__dirname, '..', '..', 'dist', 'index.js'));
let ran = 0;
let closed = 0;
const app = trestle();
app.get('/now', (_req, res) => {
  ran++;
  res.send('now');
});
app.get('/never', (_req, res) => {
  ran++;
  res.on('close', () => closed++);
});

function outcome(path) {
  const request = new Request('http://localhost' + path, { signal: AbortSignal.abort(new Error('gone')) });
  return app.fetch(request).then(
    async (response) => ({ status: response.status, body: await response.text() }),
    (err) => ({ rejected: err.message }),
  );
}

// A pending app.fetch keeps no process alive (as a pending promise does not): this does, until the answers are in.
const alive = setTimeout(() => {}, 30_000);
Promise.all([outcome('/now'), outcome('/never')]).then(([now, never]) => {
  // The response's 'close' comes a tick after the rejection.
  setImmediate(() => {
    console.log(JSON.stringify({ now, never, ran, closed }));
    clearTimeout(alive);
  });
});
