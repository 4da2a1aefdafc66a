// Express 4's lib/router/index.js (Express 5 has none): trestle/v4's, see docs/migrating-v4.md.
module.exports = require('../../dist/express-lib/v4').Router;
