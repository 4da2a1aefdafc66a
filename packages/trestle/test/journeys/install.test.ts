// Installing before the packages are published, as the README says: `npm run
// pack` writes every tarball into one folder and prints the install commands;
// the alias command (trestle's tarball under Express's name, logline's beside
// it) is run as printed in a fresh project outside the workspace, and every
// subpath the README lists answers there under `express/...`.
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import { freshProject, nodeJson, npmInstall, packAll } from './install-helpers';

const event = JSON.stringify({ version: '2.0', rawPath: '/hi', rawQueryString: '', headers: { host: 'x.example' }, requestContext: { http: { method: 'GET', sourceIp: '192.0.2.1' }, stage: '$default' }, isBase64Encoded: false });

describe('installing from the packed tarballs, under Express\'s name', { timeout: 420_000 }, () => {
  let tmp = '';
  let app = '';
  let packed: ReturnType<typeof packAll>;

  before(() => {
    tmp = mkdtempSync(join(tmpdir(), 'trestle-journey-install-'));
    packed = packAll(join(tmp, 'packs'));
    app = freshProject(join(tmp, 'app'), 'alias-app');
    const alias = packed.installs.find((args) => args.some((a) => a.startsWith('express@file:')));
    assert.ok(alias, `npm run pack printed no alias install:\n${packed.printed}`);
    npmInstall(app, alias);
  }, { timeout: 420_000 });

  after(() => {
    if (tmp) rmSync(tmp, { recursive: true, force: true });
  });

  test('npm run pack writes the three tarballs into one folder and prints both install commands', () => {
    assert.deepEqual(packed.tarballs, ['logline-http-0.1.0.tgz', 'trestle-0.1.0.tgz', 'trestle-otel-0.1.0.tgz']);
    assert.equal(packed.installs.length, 2, packed.printed);
    // trestle's tarball never goes alone: it depends on logline-http, which is not on the registry.
    for (const args of packed.installs) assert.ok(args.some((a) => a.endsWith('logline-http-0.1.0.tgz')), args.join(' '));
    const pkg = JSON.parse(readFileSync(join(app, 'package.json'), 'utf8'));
    assert.match(pkg.dependencies.express, /^file:.*trestle-0\.1\.0\.tgz$/);
    assert.equal(existsSync(join(app, 'node_modules', 'trestle')), false, 'trestle is installed under its own name too');
  });

  test("require('express') and every subpath under express/ load trestle's", () => {
    const answers = nodeJson(app, `
      const express = require('express');
      const v4 = require('express/v4');
      console.log(JSON.stringify({
        powered: express.name,
        v4: typeof v4.Router, legacy: typeof require('express/legacy'),
        lambda: typeof require('express/lambda').lambda,
        upgrade: typeof require('express/upgrade').translatePath,
        register: require.resolve('express/upgrade/register').endsWith('dist/upgrade/register.js'),
        request: require('express/lib/request') === express.request,
        router: typeof require('express/lib/router'),
        layer: require('express/v4/lib/router/layer') === require('express/v4/lib/router/layer.js') && typeof require('express/v4/lib/router/layer').prototype.handle_request,
        v4router: require('express/v4/lib/router') === v4.Router,
        version: require('express/package.json').name,
      }));`);
    assert.deepEqual(answers, {
      powered: 'createApplication', v4: 'function', legacy: 'function', lambda: 'function', upgrade: 'function', register: true,
      request: true, router: 'function', layer: 'function', v4router: true, version: 'trestle',
    });
  });

  test("express/lambda, from require and from import, answers an API Gateway event", () => {
    const esm = `import { lambda } from 'express/lambda'; import express from 'express'; import { createRequire } from 'module';
      const same = createRequire(import.meta.url)('express/lambda').lambda === lambda;
      const app = express().get('/hi', (req, res) => res.send('hi ' + req.ip));
      const r = await lambda(app)(${event}, {}); console.log(JSON.stringify([r.statusCode, r.body, same]));`;
    assert.deepEqual(nodeJson(app, esm, ['--input-type=module']), [200, 'hi 192.0.2.1', true]);
  });

  test('node --require express/upgrade/register writes the report, and the trestle bin keeps its name', () => {
    writeFileSync(join(app, 'v4-app.js'), "const express = require('express/v4');\nconst app = express();\napp.get('/u/:id?', (req, res) => res.send(200, 'x'));\nmodule.exports = app;\n");
    const served = "const http = require('http'); const app = require('./v4-app.js'); const s = app.listen(0, '127.0.0.1', () => http.get({ host: '127.0.0.1', port: s.address().port, path: '/u/1' }, (r) => { r.resume(); r.on('end', () => s.close()); }));";
    const result = spawnSync(process.execPath, ['--require', 'express/upgrade/register', '-e', served], { cwd: app, encoding: 'utf8', timeout: 60_000, env: { ...process.env, TRESTLE_UPGRADE_REPORT: 'upgrade.json' } });
    assert.equal(result.status, 0, result.stderr);
    const kinds = JSON.parse(readFileSync(join(app, 'upgrade.json'), 'utf8')).findings.map((f: { kind: string }) => f.kind).sort();
    assert.deepEqual(kinds, ['route-path', 'send-status-body']);
    const bin = spawnSync(join(app, 'node_modules', '.bin', 'trestle'), ['upgrade-report', 'v4-app.js', '--json'], { cwd: app, encoding: 'utf8', timeout: 60_000 });
    assert.equal(bin.status, 0, bin.stderr);
    assert.ok(JSON.parse(bin.stdout).findings.some((f: { kind: string; line: number }) => f.kind === 'route-path' && f.line === 3), bin.stdout);
  });
});
