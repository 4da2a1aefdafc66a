// The README as a newcomer follows it: the install command `npm run pack`
// prints for trestle under its own name, run in a fresh project outside the
// workspace; the README's snippet, copied from README.md, served there over
// real HTTP and answering as the README says; `import` from ESM; and the
// example app `npm start` serves, answering the same routes with its log line.
import assert from 'node:assert/strict';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import { root } from '../pack';
import { freePort, freshProject, nodeJson, npmInstall, packAll, startNode } from './install-helpers';

const readme = readFileSync(join(root, 'README.md'), 'utf8');
const plain = (text: string) => text.replace(/\x1b\[[0-9;]*m/g, '');

/** The README's first JavaScript snippet, listening on `port` of 127.0.0.1 instead of 3000. */
function snippet(port: number): string {
  const code = /```js\n([\s\S]*?)```/.exec(readme)?.[1];
  assert.ok(code, 'README.md has no ```js snippet');
  assert.ok(code.includes('app.listen(3000);'), `the README's snippet no longer ends in app.listen(3000):\n${code}`);
  return code.replace('app.listen(3000);', `app.listen(${port}, '127.0.0.1', () => console.log('listening'));`);
}

/** The answers the README promises for its snippet (and examples/app.js gives the same). */
async function readmeAnswers(port: number): Promise<void> {
  const base = `http://127.0.0.1:${port}`;
  const user = await fetch(`${base}/users/7`, { signal: AbortSignal.timeout(5000) });
  assert.equal(user.status, 200);
  // Indented: outside NODE_ENV=production, json spaces is 2 (README says so).
  assert.equal(await user.text(), '{\n  "id": "7"\n}');
  // app.listen()'s server keeps idle connections 65 s (README: Differences from Express 5).
  assert.equal(user.headers.get('keep-alive'), 'timeout=65');
  const echo = await fetch(`${base}/echo`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{"a":1}', signal: AbortSignal.timeout(5000) });
  assert.equal(echo.status, 201);
  assert.deepEqual(await echo.json(), { a: 1 });
}

describe('the README, followed in a fresh project', { timeout: 420_000 }, () => {
  let tmp = '';
  let app = '';

  before(() => {
    tmp = mkdtempSync(join(tmpdir(), 'trestle-journey-readme-'));
    const packed = packAll(join(tmp, 'packs'));
    const own = packed.installs.find((args) => !args.some((a) => a.startsWith('express@')));
    assert.ok(own, `npm run pack printed no install under trestle's own name:\n${packed.printed}`);
    app = freshProject(join(tmp, 'app'), 'readme-app');
    npmInstall(app, own);
  }, { timeout: 420_000 });

  after(() => {
    if (tmp) rmSync(tmp, { recursive: true, force: true });
  });

  test("the README's snippet answers over HTTP as the README says, and logs each request", async () => {
    const port = await freePort();
    writeFileSync(join(app, 'server.js'), snippet(port));
    const server = startNode(['server.js'], app);
    try {
      await server.waitFor(/listening/, "the snippet's server listening");
      await readmeAnswers(port);
      await server.waitFor(/GET \/users\/7 200/, 'log line for GET /users/7', 5000);
      await server.waitFor(/POST \/echo 201/, 'log line for POST /echo', 5000);
    } finally {
      await server.stop();
    }
  });

  test("require and import of trestle's entries and subpaths under its own name", () => {
    const esm = `import trestle from 'trestle'; import v4 from 'trestle/v4'; import legacy from 'trestle/legacy'; import { lambda } from 'trestle/lambda'; import logger from 'logline-http';
      import { createRequire } from 'module'; const require = createRequire(import.meta.url);
      console.log(JSON.stringify([typeof trestle.json, typeof v4.Router, typeof legacy, typeof lambda, typeof logger,
        require('trestle') === trestle, require.resolve('trestle/upgrade/register').endsWith('register.js'),
        typeof require('trestle/v4/lib/router/layer').prototype.handle_request, require('trestle/lib/request') === trestle.request]));`;
    assert.deepEqual(nodeJson(app, esm, ['--input-type=module']), ['function', 'function', 'function', 'function', 'function', true, true, 'function', true]);
  });
});

describe('npm start: examples/app.js', { timeout: 60_000 }, () => {
  test("serves the README's routes on PORT, logging each request, and stops", async () => {
    // `npm start` is the build, then this command; the build has run (npm test builds first).
    const first = /```sh\n([\s\S]*?)```/.exec(readme)?.[1] ?? '';
    assert.match(first, /^npm install && npm start\b.*\nnpm test\b/, "the README's first commands are not npm install && npm start, then npm test");
    const start = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8')).scripts.start as string;
    assert.equal(start, 'npm run build && node examples/app.js');
    const port = await freePort();
    const server = startNode(['examples/app.js'], root, { PORT: String(port) });
    try {
      await server.waitFor(new RegExp(`listening on http://localhost:${port}`), 'the example app listening');
      await readmeAnswers(port);
      const books = await fetch(`http://127.0.0.1:${port}/books/2/title`, { signal: AbortSignal.timeout(5000) });
      assert.equal(await books.text(), 'Invisible Cities');
      await server.waitFor(/GET \/users\/7 200/, 'log line for GET /users/7', 5000);
      assert.match(plain(server.output()), /POST \/echo 201/);
    } finally {
      await server.stop();
    }
    assert.ok(server.child.exitCode !== null || server.child.signalCode !== null, 'the example app is still running');
  });
});
