'use strict';
// What the HTTP/2 servers share: node's HTTP/2 server for a mode, `h2c`
// (cleartext, prior knowledge) or `h2` (TLS with ALPN, HTTP/1.1 allowed as
// browsers need), with the test-only self-signed certificate of the trestle
// tests. The mode is the variant argument of the command line.
const fs = require('node:fs');
const http2 = require('node:http2');
const path = require('node:path');

const TLS_DIR = path.join(__dirname, '..', '..', 'packages', 'trestle', 'test', 'fixtures', 'tls');

function tlsOptions() {
  return { key: fs.readFileSync(path.join(TLS_DIR, 'key.pem')), cert: fs.readFileSync(path.join(TLS_DIR, 'cert.pem')), allowHTTP1: true };
}

function modeOf(variant) {
  if (variant !== 'h2c' && variant !== 'h2') throw new Error(`HTTP/2 mode "${variant}": h2c or h2`);
  return variant;
}

// A variant of the form `mode` or `mode+extra` (node's `h2c+etag`, trestle's
// `h2+same-headers`): the mode, checked, and the extra row's name.
function variantOf(variant) {
  const [mode, extra] = String(variant).split('+');
  return { mode: modeOf(mode), extra };
}

// node's compatibility server (the one Express-style apps are given) for the mode.
function createH2Server(mode, listener) {
  return mode === 'h2' ? http2.createSecureServer(tlsOptions(), listener) : http2.createServer(listener);
}

module.exports = { createH2Server, modeOf, variantOf, tlsOptions };
