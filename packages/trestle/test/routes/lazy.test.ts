// Nothing of trestle.routes, validate, describe or openapi loads with
// `require('trestle')` (or the v4 and legacy entries), nor while the app
// routes and answers requests without them; no schema library loads with
// trestle at any point (the app brings its own). Each module arrives with the
// first call that needs it. Each case is a fresh node process.
import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { describe, test } from 'node:test';

// Run in the child: requires the entry, then reports after each step which of
// trestle's routes/ modules and which schema libraries are in require.cache.
// The `request` step answers one GET over HTTP on 127.0.0.1 (2 s bound).
const CHILD = `
const http = require('node:http');
const entry = require(process.argv[1]);
const files = () => Object.keys(require.cache);
const routesModules = () => files().filter((f) => /[\\\\/]dist[\\\\/]routes[\\\\/]/.test(f)).map((f) => f.replace(/^.*[\\\\/]routes[\\\\/]/, '')).sort();
const SCHEMA_LIBRARY = /[\\\\/]node_modules[\\\\/](zod|valibot|arktype|@ark|@valibot|@standard-schema|ajv|@sinclair|yup|joi|effect)[\\\\/]/;
const schemaLibraries = () => [...new Set(files().filter((f) => SCHEMA_LIBRARY.test(f)).map((f) => f.match(SCHEMA_LIBRARY)[1]))];
const steps = {};
const step = (name) => { steps[name] = routesModules(); steps.schemaLibraries.push(...schemaLibraries().map((l) => name + ': ' + l)); };
steps.schemaLibraries = [];
step('require');
const app = entry();
app.get('/x/:id', (req, res) => res.end('id ' + req.params.id));
step('app');
const server = app.listen(0, '127.0.0.1', () => {
  const timer = setTimeout(() => { console.error('no answer to GET /x/7 within 2 s'); process.exit(1); }, 2000);
  http.get({ host: '127.0.0.1', port: server.address().port, path: '/x/7' }, (res) => {
    let text = '';
    res.setEncoding('utf8').on('data', (c) => { text += c; }).on('end', () => {
      clearTimeout(timer);
      server.close();
      steps.answer = text;
      step('request');
      entry.routes(app);
      step('routes');
      entry.validate({});
      step('validate');
      entry.openapi(app, { info: { title: 't', version: '1' } });
      step('openapi');
      process.stdout.write(JSON.stringify(steps));
    });
  });
});
`;

function run(entry: string): Promise<Record<string, string | string[]>> {
  return new Promise((resolve, reject) => {
    execFile(process.execPath, ['-e', CHILD, entry], { cwd: __dirname, timeout: 20_000 }, (err, stdout, stderr) => {
      if (err) reject(new Error(`the child for ${entry} failed: ${err.message}\n${stderr}`));
      else resolve(JSON.parse(stdout) as Record<string, string | string[]>);
    });
  });
}

describe('routes: loaded on first use', () => {
  for (const entry of ['trestle', 'trestle/v4', 'trestle/legacy']) {
    test(`${entry}: require, routing and a request load none of it; routes(), validate() and openapi() load their own modules; no schema library ever`, async () => {
      const steps = await run(entry);
      assert.deepEqual(steps.require, [], 'requiring the entry loaded routes/ modules');
      assert.deepEqual(steps.app, [], 'defining a route loaded routes/ modules');
      assert.equal(steps.answer, 'id 7', 'the route did not answer over HTTP');
      assert.deepEqual(steps.request, [], 'answering a request loaded routes/ modules');
      assert.deepEqual(steps.routes, ['list.js', 'marks.js', 'openapi-path.js']);
      assert.deepEqual(steps.validate, ['list.js', 'marks.js', 'openapi-path.js', 'validate.js']);
      assert.deepEqual(steps.openapi, ['list.js', 'marks.js', 'openapi-path.js', 'openapi.js', 'validate.js']);
      assert.deepEqual(steps.schemaLibraries, [], 'trestle loaded a schema library');
    });
  }
});
