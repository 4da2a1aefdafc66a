// Each entry's app is the request listener of node's HTTP/2 servers, as it
// is of node:http's and node:https's. Compiled, never run; the http2*.test.ts
// files serve them.
import * as http from 'node:http';
import * as http2 from 'node:http2';
import * as https from 'node:https';
import trestle from 'trestle';
import trestleLegacy from 'trestle/legacy';
import trestleV4 from 'trestle/v4';

for (const app of [trestle(), trestleV4(), trestleLegacy()]) {
  http2.createServer(app);
  http2.createSecureServer({ allowHTTP1: true }, app);
  http.createServer(app);
  https.createServer({}, app);
}

const app = trestle();
// The handlers' req and res are trestle's, whichever server made them.
app.get('/', (req, res) => {
  res.set('Connection', 'close').send(req.httpVersion);
});
