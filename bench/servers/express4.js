'use strict';
// express4 on the shared Express-API app (see express-app.js).
require('./express-app').serveExpressApp(require('express4'));
