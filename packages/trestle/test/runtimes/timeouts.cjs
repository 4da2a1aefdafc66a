// A socket's timers through app.fetch, inside one runtime (Bun, Deno, a
// Worker): res.setTimeout's callback answers; req.socket.setTimeout with
// nobody listening on req or res closes the connection (the fetch rejects).
// Reports what happened and when. CommonJS with no TypeScript, for every runtime.
'use strict';

async function probe(framework) {
  const app = framework();
  const out = {};
  const started = Date.now();
  app.get('/res', (req, res) => {
    res.setTimeout(150, () => {
      out.resAfter = Date.now() - started;
      res.status(503).send('timed out');
    });
  });
  let socketCalled = false;
  app.get('/socket', (req) => {
    req.socket.setTimeout(100, () => (socketCalled = true));
  });
  const response = await app.fetch(new Request('http://127.0.0.1/res'));
  out.resStatus = response.status;
  out.resBody = await response.text();
  try {
    const cut = await app.fetch(new Request('http://127.0.0.1/socket'));
    out.socket = 'answered ' + cut.status;
  } catch (err) {
    out.socket = 'rejected ' + err.code;
  }
  out.socketCalled = socketCalled;
  return out;
}

module.exports = probe;
