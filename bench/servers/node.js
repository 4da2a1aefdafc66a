'use strict';
// Bare node:http: the ceiling the frameworks are measured against. Routing,
// middleware, body parsing, logging and static files are written by hand,
// as small as they can be while behaving like the framework servers.
const http = require('node:http');
const { HELLO, JSON_REPLY, variedJson } = require('../scenarios');
const { HOST, parseArgs, ready, fail, logStream, serveFetch } = require('./common');
const { lookupStatic, openStream } = require('./static-file');
const { combinedLine } = require('./combined-line');
const { send, sendText, sendJson, readJsonBody, sendWeakETags } = require('./respond');

const notFound = (res) => send(res, 404, 'text/plain; charset=utf-8', 'Not Found');

function hello(req, res) {
  if (req.method === 'GET' && req.url === '/') sendText(res, HELLO);
  else notFound(res);
}

// Matches exactly the shape of scenarios.js's routes,
// /api/v1/<resource>/:id/items/:itemId, with <resource> looked up in a Map
// that says whether its ids must be digits (routes-5000's regular-expression routes).
function paramsHandler(routes) {
  const resources = new Map(routes.map((route) => typeof route === 'string'
    ? [route.split('/')[3], false]
    : [route.path.split('/')[3], true]));
  const digits = /^\d+$/;
  return (req, res) => {
    const parts = req.url.split('/');
    const digitsOnly = resources.get(parts[3]);
    if (req.method === 'GET' && parts.length === 7 && parts[1] === 'api' && parts[2] === 'v1' &&
        digitsOnly !== undefined && parts[5] === 'items' && (!digitsOnly || (digits.test(parts[4]) && digits.test(parts[6])))) {
      sendJson(res, { id: decodeURIComponent(parts[4]), itemId: decodeURIComponent(parts[6]) });
    } else notFound(res);
  };
}

function middlewareHandler(count) {
  const chain = Array.from({ length: count }, () => (req, res, next) => next());
  return (req, res) => {
    let i = 0;
    const next = () => (i < chain.length ? chain[i++](req, res, next) : hello(req, res));
    next();
  };
}

function loggerHandler() {
  const stream = logStream();
  return (req, res) => {
    res.on('finish', () => stream.write(combinedLine(req, res)));
    hello(req, res);
  };
}

function bodyHandler(req, res) {
  if (req.method !== 'POST' || req.url !== '/body') return notFound(res);
  readJsonBody(req).then(
    (value) => sendJson(res, value),
    (err) => send(res, err.status || 500, 'text/plain; charset=utf-8', err.message),
  );
}

async function staticHandler(req, res) {
  const found = req.url.startsWith('/static/') && (await lookupStatic(req.url.slice('/static'.length)));
  if (!found) return notFound(res);
  res.writeHead(200, found.headers);
  openStream(found.file).pipe(res);
}

function handlerFor({ name, scenario }) {
  switch (name) {
    case 'hello': return hello;
    case 'json': return (req, res) => (req.url === '/json' ? sendJson(res, JSON_REPLY) : notFound(res));
    case 'json-varied': {
      const next = variedJson();
      return (req, res) => (req.url === '/json-varied' ? sendJson(res, next()) : notFound(res));
    }
    case 'params':
    case 'params-varied':
    case 'routes-500':
    case 'routes-5000':
    case 'cold': return paramsHandler(scenario.routes);
    case 'middleware': return middlewareHandler(scenario.middlewareCount);
    case 'logger': return loggerHandler();
    case 'body': return bodyHandler;
    case 'static': return staticHandler;
    default: throw new Error(`node: no scenario "${name}"`);
  }
}

const args = parseArgs();
if (args.variant === 'etag') sendWeakETags();
// `fetch` (Bun, Deno): a hand-written fetch handler on the runtime's own server (node-fetch.js).
if (args.variant === 'fetch') serveFetch(require('./node-fetch').fetchHandlerFor(args.name), args.port);
else http.createServer(handlerFor(args)).listen(args.port, HOST, ready).on('error', fail);
