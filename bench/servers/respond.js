'use strict';
// Minimal response and request-body helpers for the servers whose framework
// has none (bare node, polka 0.5) or no body parser installed here (koa).
function send(res, status, type, body) {
  res.writeHead(status, { 'content-type': type, 'content-length': Buffer.byteLength(body) });
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

module.exports = { send, sendText, sendJson, readJsonBody };
