// Nothing of trestle.routes, validate, describe or openapi loads with
// `require('trestle')` (or the v4 and legacy entries): each module arrives
// with the first call that needs it. Each case is a fresh node process.
import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { describe, test } from 'node:test';

// Run in the child: requires the entry, then reports trestle's routes/ modules in require.cache after each step.
const CHILD = `
const entry = require(process.argv[1]);
const loaded = () => Object.keys(require.cache).filter((f) => /[\\\\/]dist[\\\\/]routes[\\\\/]/.test(f)).map((f) => f.replace(/^.*[\\\\/]routes[\\\\/]/, '')).sort();
const steps = { require: loaded() };
const app = entry();
app.get('/x/:id', (req, res) => res.end());
steps.app = loaded();
entry.routes(app);
steps.routes = loaded();
entry.validate({});
steps.validate = loaded();
entry.openapi(app, { info: { title: 't', version: '1' } });
steps.openapi = loaded();
process.stdout.write(JSON.stringify(steps));
`;

function run(entry: string): Promise<Record<string, string[]>> {
  return new Promise((resolve, reject) => {
    execFile(process.execPath, ['-e', CHILD, entry], { cwd: __dirname, timeout: 20_000 }, (err, stdout, stderr) => {
      if (err) reject(new Error(`the child for ${entry} failed: ${err.message}\n${stderr}`));
      else resolve(JSON.parse(stdout) as Record<string, string[]>);
    });
  });
}

describe('routes: loaded on first use', () => {
  for (const entry of ['trestle', 'trestle/v4', 'trestle/legacy']) {
    test(`${entry}: require and routing load none of it; routes(), validate() and openapi() load their own modules`, async () => {
      const steps = await run(entry);
      assert.deepEqual(steps.require, [], 'requiring the entry loaded routes/ modules');
      assert.deepEqual(steps.app, [], 'defining a route loaded routes/ modules');
      assert.deepEqual(steps.routes, ['list.js', 'marks.js', 'openapi-path.js']);
      assert.deepEqual(steps.validate, ['list.js', 'marks.js', 'openapi-path.js', 'validate.js']);
      assert.deepEqual(steps.openapi, ['list.js', 'marks.js', 'openapi-path.js', 'openapi.js', 'validate.js']);
    });
  }
});
