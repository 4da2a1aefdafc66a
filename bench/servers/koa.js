'use strict';
// Koa 3 with @koa/router. Body parsing and static files are by hand
// (respond.js, static-file.js): koa-bodyparser and koa-static are not
// installed.
const Koa = require('koa');
const Router = require('@koa/router');
const { HELLO, JSON_REPLY, routeIn, variedJson } = require('../scenarios');
const { HOST, parseArgs, ready, fail } = require('./common');
const { readJsonBody } = require('./respond');
const { lookupStatic, openStream } = require('./static-file');

function build({ name, scenario }) {
  const app = new Koa();
  const router = new Router();
  const hello = (ctx) => {
    ctx.body = HELLO;
  };
  switch (name) {
    case 'hello':
      router.get('/', hello);
      break;
    case 'json':
      router.get('/json', (ctx) => {
        ctx.body = JSON_REPLY;
      });
      break;
    case 'json-varied': {
      const next = variedJson();
      router.get('/json-varied', (ctx) => {
        ctx.body = next();
      });
      break;
    }
    case 'params':
    case 'params-varied':
    case 'routes-500':
    case 'routes-5000':
    case 'cold':
      for (const route of scenario.routes) {
        router.get(routeIn('regexp', route), (ctx) => {
          ctx.body = ctx.params;
        });
      }
      break;
    case 'middleware':
      for (let i = 0; i < scenario.middlewareCount; i++) app.use((ctx, next) => next());
      router.get('/', hello);
      break;
    case 'body':
      router.post('/body', async (ctx) => {
        try {
          ctx.body = await readJsonBody(ctx.req);
        } catch (err) {
          ctx.throw(err.status || 500, err.message);
        }
      });
      break;
    case 'static':
      app.use(async (ctx, next) => {
        const found = ctx.path.startsWith('/static/') && (await lookupStatic(ctx.path.slice('/static'.length)));
        if (!found) return next();
        // Body first: setting a stream body would otherwise pick its own type.
        ctx.body = openStream(found.file);
        ctx.set(found.headers);
      });
      break;
    default:
      throw new Error(`koa: no scenario "${name}"`);
  }
  app.use(router.routes()).use(router.allowedMethods());
  return app;
}

const args = parseArgs();
build(args).listen(args.port, HOST, () => ready()).on('error', fail);
