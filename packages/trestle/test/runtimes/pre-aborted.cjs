// app.fetch given Requests whose signal has already aborted, on whatever
// runtime runs this file: one the app answers in the turn it is called, one
// it answers a turn later. Prints one JSON line: how each call ended and how
// many times the app ran (pre-aborted.test.ts).
'use strict';
const path = require('path');

const trestle = require(path.join(__dirname, '..', '..', 'dist', 'index.js'));
let ran = 0;
const app = trestle();
app.get('/now', (_req, res) => {
  ran++;
  res.send('now');
});
app.get('/later', (_req, res) => {
  ran++;
  setTimeout(() => res.send('later'), 0);
});

function outcome(path) {
  const request = new Request('http://localhost' + path, { signal: AbortSignal.abort(new Error('gone')) });
  return app.fetch(request).then(
    async (response) => ({ status: response.status, body: await response.text() }),
    (err) => ({ rejected: err.message }),
  );
}

Promise.all([outcome('/now'), outcome('/later')]).then(([now, later]) => {
  console.log(JSON.stringify({ now, later, ran }));
});
