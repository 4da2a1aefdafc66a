'use strict';
// trestle on the shared Express-API app (see express-app.js); the `v4`
// variant (cold scenario) runs the same app on the trestle/v4 entry.
require('./express-app').serveExpressApp(require(process.argv[4] === 'v4' ? 'trestle/v4' : 'trestle'));
