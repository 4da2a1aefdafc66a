// Runs timeouts.cjs's probe on the runtime that runs this file (Bun, Deno):
// `<runtime> timeouts-run.cjs <entry file>`; prints `RESULT <json>`.
'use strict';
const probe = require('./timeouts.cjs');
const framework = require(process.argv[2]);
// A socket's timer does not keep a process alive (as node's): a server would, so this does.
setInterval(() => undefined, 1000);
probe(framework.default || framework).then(
  (result) => {
    console.log('RESULT ' + JSON.stringify(result));
    process.exit(0);
  },
  (err) => {
    console.error(err);
    process.exit(1);
  },
);
