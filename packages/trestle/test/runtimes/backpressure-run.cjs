// Runs backpressure.cjs's probe on the runtime that runs this file (Bun,
// Deno): `<runtime> backpressure-run.cjs <entry file> <options JSON>`; prints
// `RESULT <json>`.
'use strict';
const probe = require('./backpressure.cjs');
const framework = require(process.argv[2]);
probe(framework.default || framework, JSON.parse(process.argv[3])).then(
  (result) => {
    console.log('RESULT ' + JSON.stringify(result));
    process.exit(0);
  },
  (err) => {
    console.error(err);
    process.exit(1);
  },
);
