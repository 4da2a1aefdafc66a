// Express 4's lib/router/index.js, for code that requires it by path: see docs/migrating-v4.md.
module.exports = require('../../../dist/express-lib/v4').Router;
