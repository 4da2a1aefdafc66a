'use strict';
// trestle on the shared Express-API app (see express-app.js). The `v4`
// variant (cold scenario) runs the same app on the trestle/v4 entry; the
// `traced` variant (`--frameworks trestle:traced`) first attaches one
// subscriber to every event of the `trestle.layer` tracing channel: what
// tracing costs before a tracer does any work of its own.
if (process.argv[4] === 'traced') {
  const noop = () => {};
  require('node:diagnostics_channel').tracingChannel('trestle.layer').subscribe({ start: noop, end: noop, asyncStart: noop, asyncEnd: noop, error: noop });
}
require('./express-app').serveExpressApp(require(process.argv[4] === 'v4' ? 'trestle/v4' : 'trestle'));
