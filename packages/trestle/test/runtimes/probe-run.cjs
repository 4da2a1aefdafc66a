// Runs one of this folder's probes (backpressure.cjs, timeouts.cjs) on the
// runtime that runs this file (Bun, Deno):
// `<runtime> probe-run.cjs <probe file> <entry file> [<options JSON>]`;
// prints `RESULT <json>`.
'use strict';
const path = require('node:path');
const probe = require(path.join(__dirname, process.argv[2]));
const framework = require(process.argv[3]);
const options = process.argv[4] === undefined ? undefined : JSON.parse(process.argv[4]);
// A socket's timer does not keep a process alive (as node's): a server would, so this does.
const alive = setInterval(() => undefined, 1000);
probe(framework.default || framework, options).then(
  (result) => {
    console.log('RESULT ' + JSON.stringify(result));
    clearInterval(alive);
    process.exit(0);
  },
  (err) => {
    console.error(err);
    process.exit(1);
  },
);
