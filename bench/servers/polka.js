'use strict';
// Polka 0.5 on the shared connect-style routes. It has no res.json, body
// parser or static handler of its own, so it takes what its docs point to:
// body-parser, serve-static, and plain writes (respond.js).
const polka = require('polka');
const { addScenarioRoutes } = require('./connect-app');
const { HOST, parseArgs, ready, fail } = require('./common');
const { sendText, sendJson } = require('./respond');

const kit = {
  text: sendText,
  json: sendJson,
  jsonBody: () => require('body-parser').json(),
  serveStatic: (dir) => require('serve-static')(dir),
};

const args = parseArgs();
const app = addScenarioRoutes(polka(), kit, args).listen(args.port, HOST, () => ready());
app.server.on('error', fail);
