// Express 4's lib/router/route.js (Express 5 has none): trestle/v4's, see docs/migrating-v4.md.
module.exports = require('../../dist/express-lib/v4').Route;
