'use strict';
// The ceiling for `app.fetch` on Bun and Deno (`--runtime bun|deno`, the
// `node (fetch)` row): the runtime's own server given a hand-written fetch
// handler that answers with the headers trestle's answer carries (Express's
// weak ETag computed on every answer, X-Powered-By, Content-Type and
// Content-Length), so what is left between it and trestle's `fetch` row is
// the framework. Routing and body reading by hand, as in node.js.
const { HELLO, JSON_REPLY, variedJson } = require('../scenarios');
const { weakETag } = require('./respond');

function answer(status, type, body) {
  const length = Buffer.byteLength(body);
  return new Response(body, {
    status,
    headers: {
      'X-Powered-By': 'Express',
      'Content-Type': type,
      'Content-Length': String(length),
      ETag: weakETag(body, length),
    },
  });
}

const text = (body) => answer(200, 'text/plain; charset=utf-8', body);
const json = (value) => answer(200, 'application/json; charset=utf-8', JSON.stringify(value));
const notFound = () => answer(404, 'text/plain; charset=utf-8', 'Not Found');

function pathOf(url) {
  return url.slice(url.indexOf('/', url.indexOf('//') + 2));
}

// /api/v1/resource<N>/:id/items/:itemId, as the params scenarios route it.
function params(path) {
  const parts = path.split('/');
  if (parts.length !== 7 || parts[1] !== 'api' || parts[2] !== 'v1' || !parts[3].startsWith('resource') || parts[5] !== 'items') return notFound();
  return json({ id: decodeURIComponent(parts[4]), itemId: decodeURIComponent(parts[6]) });
}

async function body(request) {
  if (request.method !== 'POST' || !String(request.headers.get('content-type')).startsWith('application/json')) {
    return answer(415, 'text/plain; charset=utf-8', 'Unsupported Media Type');
  }
  try {
    return json(JSON.parse(await request.text()));
  } catch {
    return answer(400, 'text/plain; charset=utf-8', 'Bad Request');
  }
}

/** The fetch handler for a scenario: the same answers as node.js's handlers. */
function fetchHandlerFor(name) {
  switch (name) {
    case 'hello': return (request) => (pathOf(request.url) === '/' ? text(HELLO) : notFound());
    case 'json': return (request) => (pathOf(request.url) === '/json' ? json(JSON_REPLY) : notFound());
    case 'json-varied': {
      const next = variedJson();
      return (request) => (pathOf(request.url) === '/json-varied' ? json(next()) : notFound());
    }
    case 'params':
    case 'params-varied': return (request) => params(pathOf(request.url));
    case 'body': return (request) => (pathOf(request.url) === '/body' ? body(request) : notFound());
    default: throw new Error(`node (fetch): no scenario "${name}"`);
  }
}

module.exports = { fetchHandlerFor };
