'use strict';
// The routes of every scenario for connect-style frameworks (trestle,
// Express 5 and 4, polka), which share the (req, res, next) middleware model
// and differ only in how they reply, parse bodies and serve files: the `kit`.
//   kit.text(res, text), kit.json(res, value): reply 200
//   kit.jsonBody(): middleware that parses JSON into req.body
//   kit.serveStatic(dir): static-file middleware
//   kit.router(): a Router (api scenario)
//   kit.routeSyntax: how it writes regular-expression routes (see routeIn)
//   kit.validateBody(schema): middleware that validates req.body (trestle only)
const { HELLO, JSON_REPLY, STATIC_DIR, routeIn, variedJson } = require('../scenarios');
const { connectLogger } = require('./loggers');

function addScenarioRoutes(app, kit, { name, scenario, variant }) {
  const hello = (req, res) => kit.text(res, HELLO);
  switch (name) {
    case 'hello':
      app.get('/', hello);
      break;
    case 'json':
      app.get('/json', (req, res) => kit.json(res, JSON_REPLY));
      break;
    case 'json-varied': {
      const next = variedJson();
      app.get('/json-varied', (req, res) => kit.json(res, next()));
      break;
    }
    case 'params':
    case 'params-varied':
    case 'routes-500':
    case 'routes-5000':
    case 'cold':
      // `last-50`: the same app with only the last 50 routes (the size of params).
      for (const route of variant === 'last-50' ? scenario.routes.slice(-50) : scenario.routes) {
        app.get(routeIn(kit.routeSyntax, route), (req, res) => kit.json(res, req.params));
      }
      break;
    case 'middleware':
      for (let i = 0; i < scenario.middlewareCount; i++) app.use((req, res, next) => next());
      app.get('/', hello);
      break;
    case 'logger':
      if (variant !== 'none') app.use(connectLogger(variant));
      app.get('/', hello);
      break;
    case 'body':
      app.use(kit.jsonBody());
      app.post('/body', (req, res) => kit.json(res, req.body));
      break;
    case 'validated': {
      // `unvalidated`: the same route without the check (the scenario's baseline).
      const check = variant === 'unvalidated' ? [] : [kit.validateBody(require('./validated').User)];
      app.use(kit.jsonBody());
      app.post('/validated', ...check, (req, res) => kit.json(res, req.body));
      break;
    }
    case 'static':
      app.use('/static', kit.serveStatic(STATIC_DIR));
      break;
    case 'api':
      return require('./api-scenario').connectApi(app, kit, { scenario, variant });
    default:
      throw new Error(`no scenario "${name}"`);
  }
  return app;
}

module.exports = { addScenarioRoutes };
