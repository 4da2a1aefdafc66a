'use strict';
// Minimal response and request-body helpers for the servers whose framework
// has none (bare node, polka 0.5) or no body parser installed here (koa).
const crypto = require('node:crypto');

// The `etag` variant of the bare server (`--frameworks node:etag` in
// bench:js): every answer carries the weak ETag Express sends by default,
// computed the cheapest way node allows (one-shot SHA-1), to show what that
// hash costs with no framework at all.
let withETag = false;
const sha1 = crypto.hash ? (body) => crypto.hash('sha1', body, 'base64') : (body) => crypto.createHash('sha1').update(body).digest('base64');

function weakETag(body, length) {
  return `W/"${length.toString(16)}-${sha1(body).substring(0, 27)}"`;
}

function sendWeakETags() {
  withETag = true;
}

function send(res, status, type, body) {
  const length = Buffer.byteLength(body);
  const headers = { 'content-type': type, 'content-length': length };
  if (withETag) headers.etag = weakETag(body, length);
  res.writeHead(status, headers);
  res.end(body);
}

const sendText = (res, text) => send(res, 200, 'text/plain; charset=utf-8', text);
const sendJson = (res, value) => send(res, 200, 'application/json; charset=utf-8', JSON.stringify(value));

// Resolves to the parsed JSON body; rejects on a non-JSON type or bad JSON.
function readJsonBody(req) {
  return new Promise((resolve, reject) => {
    if (!String(req.headers['content-type']).startsWith('application/json')) {
      req.resume();
      return reject(Object.assign(new Error('Unsupported Media Type'), { status: 415 }));
    }
    const chunks = [];
    req.on('data', (chunk) => chunks.push(chunk));
    req.on('error', reject);
    req.on('end', () => {
      try {
        resolve(JSON.parse(Buffer.concat(chunks).toString('utf8')));
      } catch {
        reject(Object.assign(new Error('Bad Request'), { status: 400 }));
      }
    });
  });
}

module.exports = { send, sendText, sendJson, readJsonBody, sendWeakETags, weakETag };
