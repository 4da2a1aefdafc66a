'use strict';
// Fastify 5 with its defaults. Pass-through middleware are onRequest hooks
// (fastify's own idiom; @fastify/middie is not installed). Static files go
// through @fastify/static, fastify's own plugin, with its defaults. The `etag`
// variant registers @fastify/etag, weak, to send an ETag as Express does.
const Fastify = require('fastify');
const { HELLO, JSON_REPLY, STATIC_DIR, routeIn, variedJson } = require('../scenarios');
const { HOST, parseArgs, ready, fail } = require('./common');

function build({ name, scenario, variant }) {
  const app = Fastify(name === 'logger' || name === 'api' ? loggerOptions() : {});
  if (variant === 'etag') app.register(require('@fastify/etag'), { weak: true });
  const hello = async () => HELLO;
  switch (name) {
    case 'hello':
      app.get('/', hello);
      break;
    case 'json':
      app.get('/json', async () => JSON_REPLY);
      break;
    case 'json-varied': {
      const next = variedJson();
      app.get('/json-varied', async () => next());
      break;
    }
    case 'params':
    case 'params-varied':
    case 'routes-500':
    case 'routes-5000':
    case 'cold':
      for (const route of scenario.routes) app.get(routeIn('fastify', route), async (req) => req.params);
      break;
    case 'middleware':
      for (let i = 0; i < scenario.middlewareCount; i++) app.addHook('onRequest', (req, reply, done) => done());
      app.get('/', hello);
      break;
    case 'logger':
      app.get('/', hello);
      break;
    case 'body':
      app.post('/body', async (req) => req.body);
      break;
    case 'validated': {
      // The route's body schema, checked by Fastify's ajv; `unvalidated`: none.
      const options = variant === 'unvalidated' ? {} : { schema: { body: require('./validated').userJsonSchema } };
      app.post('/validated', options, async (req) => req.body);
      break;
    }
    case 'static':
      app.register(require('@fastify/static'), { root: STATIC_DIR, prefix: '/static/' });
      break;
    case 'api':
      return require('./api-scenario').fastifyApi(app, { scenario });
    default:
      throw new Error(`fastify: no scenario "${name}"`);
  }
  return app;
}

// Fastify logs two lines per request by default ("incoming request" and
// "request completed"); like pino-http we want one, written when the response
// is done and carrying the request, so the first is dropped and the second
// given the request. pino writes to /dev/null through pino.destination, which
// is what fastify's `file` option does.
class OneLinePerRequest extends Fastify.LogController {
  incomingRequest() {}

  requestCompleted(error, request, reply) {
    const fields = { req: request, res: reply, responseTime: reply.elapsedTime };
    if (error) reply.log.error({ ...fields, err: error }, 'request errored');
    else reply.log.info(fields, 'request completed');
  }
}

function loggerOptions() {
  return { logger: { level: 'info', file: '/dev/null' }, logController: new OneLinePerRequest() };
}

// validated: the app first shows it refuses an invalid body (servers/validated.js).
async function selfCheck(app, { name, variant }) {
  if (name !== 'validated') return;
  const statusOf = (payload) => app.inject({ method: 'POST', url: '/validated', headers: { 'content-type': 'application/json' }, payload }).then((res) => res.statusCode);
  await require('./validated').checkValidation(variant, statusOf);
}

const args = parseArgs();
const app = build(args);
selfCheck(app, args).then(() => app.listen({ port: args.port, host: HOST })).then(() => ready(), fail);
