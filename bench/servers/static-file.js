'use strict';
// A by-hand static file lookup for the servers whose framework ships no
// static handler here (bare node, fastify without @fastify/static, koa
// without koa-static). It does what `send` does for a plain 200: stat the
// file, then stream it with Content-Type, Content-Length, Last-Modified and a
// weak ETag, so those rows pay for the same work as express.static.
const fs = require('node:fs');
const path = require('node:path');
const { STATIC_DIR } = require('../scenarios');

const TYPES = {
  '.txt': 'text/plain; charset=utf-8',
  '.html': 'text/html; charset=utf-8',
  '.json': 'application/json; charset=utf-8',
};

// `rest` is the URL path below the mount point, e.g. "/file-4k.txt".
// Resolves to { file, headers } or null when there is no such file.
async function lookupStatic(rest) {
  const file = path.join(STATIC_DIR, path.normalize(decodeURIComponent(rest)));
  if (!file.startsWith(STATIC_DIR + path.sep)) return null;
  let stat;
  try {
    stat = await fs.promises.stat(file);
  } catch {
    return null;
  }
  if (!stat.isFile()) return null;
  const headers = {
    'content-type': TYPES[path.extname(file)] || 'application/octet-stream',
    'content-length': String(stat.size),
    'last-modified': stat.mtime.toUTCString(),
    etag: `W/"${stat.size.toString(16)}-${stat.mtime.getTime().toString(16)}"`,
  };
  return { file, headers };
}

module.exports = { lookupStatic, openStream: (file) => fs.createReadStream(file) };
