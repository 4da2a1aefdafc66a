'use strict';
// Serving the scenarios with any framework that has Express's API (trestle,
// Express 5 and 4): the servers differ only in which factory they pass,
// which is the point of the comparison. Defaults (ETag, X-Powered-By) stay on.
const http = require('node:http');
const { addScenarioRoutes } = require('./connect-app');
const { HOST, parseArgs, ready, fail, serveFetch } = require('./common');

function serveExpressApp(express) {
  const kit = {
    text: (res, text) => res.type('text/plain').send(text),
    json: (res, value) => res.json(value),
    jsonBody: () => express.json(),
    serveStatic: (dir) => express.static(dir),
    router: () => express.Router(),
    routeSyntax: 'regexp',
    validateBody: (schema) => {
      if (typeof express.validate !== 'function') throw new Error('no validate() on this framework');
      return express.validate({ body: schema });
    },
  };
  const args = parseArgs();
  const app = express();
  // `plain` (bench:js): Express's two default headers off, so the answer
  // carries what Fastify's does; the measured floor those headers set.
  if (args.variant === 'plain') app.disable('etag').disable('x-powered-by');
  addScenarioRoutes(app, kit, args);
  // validated: the app first shows it refuses an invalid body (servers/validated.js).
  if (args.name === 'validated') {
    const statusOf = (body) => app.fetch(new Request(`http://${HOST}/validated`, { method: 'POST', headers: { 'content-type': 'application/json' }, body })).then((res) => res.status);
    require('./validated').checkValidation(args.variant, statusOf).then(() => serve(app, args), fail);
  } else serve(app, args);
}

function serve(app, args) {
  // `fetch` (Bun, Deno): app.fetch on the runtime's own server instead of node:http.
  if (args.variant === 'fetch') serveFetch(app.fetch, args.port);
  // `wrapped` (bench:js): a listener around the app, which the app cannot adopt
  // (docs/ARCHITECTURE.md): every request has its prototype switched.
  else if (args.variant === 'wrapped') http.createServer((req, res) => app(req, res)).listen(args.port, HOST, ready).on('error', fail);
  else app.listen(args.port, HOST, ready).on('error', fail);
}

module.exports = { serveExpressApp };
