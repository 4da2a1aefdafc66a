'use strict';
// Apache "combined" log line written by hand, for the bare node:http server:
// the least a logger could cost, to set logline's figure against.
const MONTHS = ['Jan', 'Feb', 'Mar', 'Apr', 'May', 'Jun', 'Jul', 'Aug', 'Sep', 'Oct', 'Nov', 'Dec'];
const pad = (n) => String(n).padStart(2, '0');

function clfDate(d) {
  return `${pad(d.getUTCDate())}/${MONTHS[d.getUTCMonth()]}/${d.getUTCFullYear()}:` +
    `${pad(d.getUTCHours())}:${pad(d.getUTCMinutes())}:${pad(d.getUTCSeconds())} +0000`;
}

function combinedLine(req, res) {
  const length = res.getHeader('content-length');
  return `${req.socket.remoteAddress} - - [${clfDate(new Date())}] ` +
    `"${req.method} ${req.url} HTTP/${req.httpVersion}" ${res.statusCode} ${length ?? '-'} ` +
    `"${req.headers.referer ?? '-'}" "${req.headers['user-agent'] ?? '-'}"\n`;
}

module.exports = { combinedLine };
