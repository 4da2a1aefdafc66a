'use strict';
// trestle on the shared Express-API app (see express-app.js).
require('./express-app').serveExpressApp(require('trestle'));
