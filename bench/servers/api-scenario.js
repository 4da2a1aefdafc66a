'use strict';
// The api scenario (scenarios.js) for each family of servers: a real app's
// middleware, each framework with its own packages in their default
// configuration, then the scenario's routes on a router mounted at
// scenario.mount. Every handler answers the same JSON: the :id param, two
// query values and the session cookie.
const { connectLogger } = require('./loggers');
const { logStream } = require('./common');

const reply = (id, query, session) => ({ id, fields: query.fields, limit: query.limit, session });

// trestle, Express 5 and 4: the middleware every Express tutorial starts
// with, in the usual order (the logger first, so it times everything).
// kit.router() makes the framework's Router.
function connectApi(app, kit, { scenario, variant }) {
  app.use(connectLogger(variant));
  app.use(require('helmet')());
  app.use(require('cors')());
  app.use(require('cookie-parser')());
  app.use(kit.jsonBody());
  const router = kit.router();
  for (const route of scenario.routes) {
    router.get(route, (req, res) => kit.json(res, reply(req.params.id, req.query, req.cookies.session)));
  }
  app.use(scenario.mount, router);
  return app;
}

// Fastify: its own plugins; the logger is fastify's pino, set up by
// fastify.js (one line per request, as in the logger scenario). JSON bodies
// are parsed by fastify itself.
function fastifyApi(app, { scenario }) {
  app.register(require('@fastify/helmet'));
  app.register(require('@fastify/cors'));
  app.register(require('@fastify/cookie'));
  app.register(async (api) => {
    for (const route of scenario.routes) {
      api.get(route, async (req) => reply(req.params.id, req.query, req.cookies.session));
    }
  }, { prefix: scenario.mount });
  return app;
}

// Hono: its built-in middleware and cookie helper. Its logger prints two
// lines per request ("<--" incoming, "-->" done); like fastify's, only the
// second is written, to /dev/null, one line per request as for the others.
function honoApi(app, { scenario }) {
  const { Hono } = require('hono');
  const { getCookie } = require('hono/cookie');
  const stream = logStream();
  app.use(require('hono/logger').logger((line) => {
    if (line.startsWith('-->')) stream.write(`${line}\n`);
  }));
  app.use(require('hono/secure-headers').secureHeaders());
  app.use(require('hono/cors').cors());
  const api = new Hono();
  for (const route of scenario.routes) {
    api.get(route, (c) => c.json(reply(c.req.param('id'), c.req.query(), getCookie(c, 'session'))));
  }
  app.route(scenario.mount, api);
  return app;
}

module.exports = { connectApi, fastifyApi, honoApi };
