// What `require('trestle')` loads, and what it leaves for the requests that
// need it (issues 17 and 23): each case is a fresh process
// (fixtures/startup/child.js) that requires an entry, then asks its own app
// over HTTP and reports which of the watched packages it has loaded so far.
import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { join } from 'node:path';
import { describe, test } from 'node:test';

interface Step {
  step: string;
  status: number | null;
  loaded: string[];
}

const CHILD = join(__dirname, 'fixtures', 'startup', 'child.js');

function run(entry: string): Promise<Map<string, Step>> {
  return new Promise((resolve, reject) => {
    execFile(process.execPath, [CHILD, entry], { cwd: __dirname, timeout: 20_000 }, (err, stdout, stderr) => {
      if (err) {
        reject(new Error(`${err.message}\n${stderr}`));
        return;
      }
      const steps = stdout.trim().split('\n').map((line) => JSON.parse(line) as Step);
      resolve(new Map(steps.map((s) => [s.step, s])));
    });
  });
}

describe('start-up: dependencies load when first needed', () => {
  test('trestle (v5): require loads none of them; each arrives with the first request that needs it', async () => {
    const steps = await run('trestle');
    assert.deepEqual(steps.get('require')?.loaded, []);
    // A JSON answer needs none: its type is set without the mime database.
    assert.deepEqual(steps.get('json answer'), { step: 'json answer', status: 200, loaded: [] });
    // The first body to match against a type brings type-is and the mime database.
    assert.deepEqual(steps.get('json body'), { step: 'json body', status: 200, loaded: ['mime-db', 'mime-types', 'type-is'] });
    const file = steps.get('static file')!;
    assert.equal(file.status, 200);
    assert.ok(file.loaded.includes('send'), 'static() loads send with its first file');
    assert.ok(!file.loaded.includes('qs'));
    const form = steps.get('form body')!;
    assert.equal(form.status, 200);
    assert.ok(form.loaded.includes('qs'), 'urlencoded() loads qs with its first form');
    assert.ok(!form.loaded.includes('iconv-lite'), 'UTF-8 bodies are decoded without iconv-lite');
    const latin1 = steps.get('latin-1 text')!;
    assert.equal(latin1.status, 200);
    assert.ok(latin1.loaded.includes('iconv-lite'), 'another charset loads iconv-lite');
    const fetched = steps.get('app.fetch')!;
    assert.equal(fetched.status, 200);
    assert.ok(fetched.loaded.includes('trestle:fetch'), 'app.fetch loads its module with its first call');
    for (const step of steps.values()) {
      if (step.step !== 'app.fetch') assert.ok(!step.loaded.includes('trestle:fetch'), `app.fetch's module loaded by "${step.step}"`);
      for (const name of ['busboy', 'logline-http', 'path-to-regexp-v0', 'accepts', 'proxy-addr']) {
        assert.ok(!step.loaded.includes(name), `${name} loaded by "${step.step}"`);
      }
    }
  });

  test('trestle/v4: require loads only its own route syntax (path-to-regexp 0.1)', async () => {
    const steps = await run('trestle/v4');
    assert.deepEqual(steps.get('require')?.loaded, ['path-to-regexp-v0']);
    assert.equal(steps.get('form body')?.status, 200);
  });
});
