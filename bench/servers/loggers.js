'use strict';
// Connect-style request loggers, by the names scenarios.js gives them. Each
// writes to /dev/null the way its own docs say to write to a file: morgan and
// logline through an fs stream, pino through pino.destination (sonic-boom).
const { logStream } = require('./common');

function connectLogger(variant) {
  switch (variant) {
    case 'logline':
      return require('logline-http')('combined', { stream: logStream() });
    case 'logline-json': // one JSON object per line, as pino writes
      return require('logline-http')('json', { stream: logStream() });
    case 'morgan':
      return require('morgan')('combined', { stream: logStream() });
    case 'pino-http': {
      const pino = require('pino');
      return require('pino-http')({ logger: pino(pino.destination('/dev/null')) });
    }
    default:
      throw new Error(`no connect-style logger "${variant}"`);
  }
}

module.exports = { connectLogger };
