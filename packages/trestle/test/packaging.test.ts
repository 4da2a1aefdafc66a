// The packages as a user gets them: trestle and the logger are packed as npm
// would publish them (`npm test` has built dist/ already, so packing skips
// the prepack build), both tarballs are installed into a fresh temporary app,
// and that app loads every entry with CommonJS `require` and ESM `import`,
// each answering one real HTTP request on 127.0.0.1. A resolver that ignores
// `exports` (as Jest 26/27 and older bundlers do, here the `resolve` package
// those tools use) must still find each entry, and the published JavaScript
// must name built-ins without the `node:` scheme those tools read as a file.
// Express's own files are required by path under Express's name, and an Express 4
// app runs express-async-errors through the README's Express 4 shim.
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { builtinModules } from 'node:module';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import resolve from 'resolve';
import { localRequire } from './express-alias';
import { loggerName, pack, packageDirs, run, npmFlags } from './pack';

function jsFiles(dir: string, out: string[] = []): string[] {
  for (const name of readdirSync(dir)) {
    const path = join(dir, name);
    if (statSync(path).isDirectory()) jsFiles(path, out);
    else if (/\.(c|m)?js$/.test(name)) out.push(path);
  }
  return out;
}

// Each entry answers one request; the script prints what each answered, one JSON line.
const entries = ['trestle', 'trestle/v4', 'trestle/legacy'];
const probe = (load: string) => `${load}
const http = require('http');
function get(server) {
  return new Promise((resolve, reject) => {
    server.listen(0, '127.0.0.1', () => {
      http.get({ host: '127.0.0.1', port: server.address().port, path: '/hello/world' }, (res) => {
        let body = '';
        res.setEncoding('utf8');
        res.on('data', (c) => { body += c; });
        res.on('end', () => server.close(() => resolve(res.statusCode + ' ' + body)));
      }).on('error', reject);
    });
  });
}
(async () => {
  const answers = {};
  for (const [name, framework] of Object.entries(frameworks)) {
    const app = framework();
    app.get('/hello/:who', (req, res) => res.send('hi ' + req.params.who));
    answers[name] = await get(http.createServer(app));
  }
  const lines = [];
  const log = logger(':method :url :status', { stream: { write: (line) => lines.push(line) } });
  answers.logger = await get(http.createServer((req, res) => log(req, res, () => res.end('logged'))));
  answers.logLine = lines.join('');
  console.log(JSON.stringify(answers));
})();
`;
const cjsApp = probe(`const frameworks = { ${entries.map((e) => `'${e}': require('${e}')`).join(', ')} };
const logger = require('${loggerName}');`);
const esmApp = `import { createRequire } from 'module';
${entries.map((e, i) => `import f${i} from '${e}';`).join('\n')}
import logger from '${loggerName}';
const require = createRequire(import.meta.url);
const frameworks = { ${entries.map((e, i) => `'${e}': f${i}`).join(', ')} };
${probe('')}`;

const usesExpress = `const http = require('http');
const express = require('express');
module.exports = () => new Promise((resolve, reject) => {
  const app = express();
  app.get('/', (req, res) => res.send('via express'));
  const server = http.createServer(app).listen(0, '127.0.0.1', () => {
    http.get({ host: '127.0.0.1', port: server.address().port, path: '/' }, (res) => {
      let body = '';
      res.on('data', (c) => { body += c; });
      res.on('end', () => server.close(() => resolve([res.headers['x-powered-by'], body])));
    }).on('error', reject);
  });
});
`;

// Express's own files, required by path under Express's name (the alias gives Express 5's generation).
const deepRequires = `const express = require('express');
const Layer = require('express/lib/router/layer');
console.log(JSON.stringify({
  request: require('express/lib/request') === express.request,
  response: require('express/lib/response.js') === express.response,
  application: require('express/lib/application') === express.application,
  express: require('express/lib/express') === express,
  // trestle installed under its own name too is a second copy: compare within the one named express.
  layerIsV4: Layer === require('express/v4/lib/router/layer') && typeof Layer.prototype.handle_request,
  router: require('express/lib/router') === require('express/v4').Router,
}));
`;

// README's Express 4 shim: the package \`express\` at Express 4's version, forwarding to trestle/v4,
// and the two files of Express 4 that express-async-errors requires.
const shim: Record<string, string> = {
  'package.json': JSON.stringify({ name: 'express', version: '4.22.3', main: 'index.js' }),
  'index.js': "module.exports = require('trestle/v4');\n",
  'lib/router/layer.js': "module.exports = require('trestle/v4/lib/router/layer');\n",
  'lib/router/index.js': "module.exports = require('trestle/v4/lib/router');\n",
};

// An Express 4 app with express-async-errors: an async handler and a param trigger that reject.
const asyncErrorsApp = `require('express-async-errors');
const http = require('http');
const express = require('express');
const app = express();
let handled = 0;
app.param('id', async (req, res, next, id) => { if (id === 'bad') throw new Error('bad param'); next(); });
app.get('/items/:id', async () => { await null; throw new Error('async failure'); });
app.use((err, req, res, next) => { handled++; res.status(500).send('handled: ' + err.message); });
const server = http.createServer(app).listen(0, '127.0.0.1', async () => {
  const answers = [];
  for (const path of ['/items/1', '/items/bad']) {
    const res = await fetch('http://127.0.0.1:' + server.address().port + path);
    answers.push(res.status + ' ' + await res.text());
  }
  setImmediate(() => server.close(() => console.log(JSON.stringify({ answers, handled }))));
});
`;

describe('packages installed from their tarballs', { timeout: 600000 }, () => {
  let tmp = '';
  let app = '';
  let app4 = '';
  const packed: Record<string, { tarball: string; files: string[] }> = {};

  before(() => {
    tmp = mkdtempSync(join(tmpdir(), 'trestle-pack-'));
    for (const [key, dir] of Object.entries(packageDirs)) packed[key] = pack(dir, tmp);
    app = join(tmp, 'app');
    mkdirSync(app);
    writeFileSync(join(app, 'package.json'), JSON.stringify({ name: 'fresh-app', private: true, version: '1.0.0' }));
    // A dependency of the app that does require('express') itself, as NestJS's platform does.
    mkdirSync(join(app, 'uses-express'));
    writeFileSync(join(app, 'uses-express', 'package.json'), JSON.stringify({ name: 'uses-express', version: '1.0.0', main: 'index.js' }));
    writeFileSync(join(app, 'uses-express', 'index.js'), usesExpress);
    // README's alias recipe, "express": "npm:trestle@...", with the tarball in the registry's place.
    const alias = `express@file:${packed.trestle.tarball}`;
    run('npm', ['install', ...npmFlags, packed.trestle.tarball, packed.logger.tarball, alias, 'file:./uses-express'], app, 300000);
    writeFileSync(join(app, 'app.cjs'), cjsApp);
    writeFileSync(join(app, 'app.mjs'), esmApp);
    // An Express 4 app: the shim under Express's name, and express-async-errors packed from the workspace's copy.
    app4 = join(tmp, 'app4');
    for (const [file, text] of Object.entries(shim)) {
      mkdirSync(dirname(join(app4, 'express-shim', file)), { recursive: true });
      writeFileSync(join(app4, 'express-shim', file), text);
    }
    writeFileSync(join(app4, 'package.json'), JSON.stringify({ name: 'express4-app', private: true, version: '1.0.0' }));
    const asyncErrors = pack(dirname(localRequire.resolve('express-async-errors/package.json')), tmp);
    run('npm', ['install', ...npmFlags, packed.trestle.tarball, packed.logger.tarball, 'express@file:./express-shim', asyncErrors.tarball], app4, 300000);
    writeFileSync(join(app4, 'app.cjs'), asyncErrorsApp);
  }, { timeout: 600000 });

  after(() => {
    if (tmp) rmSync(tmp, { recursive: true, force: true });
  });

  test('each tarball holds dist with its .d.ts, README and LICENSE, and no tests or fixtures', () => {
    for (const [key, { files }] of Object.entries(packed)) {
      for (const wanted of ['package.json', 'README.md', 'LICENSE', 'dist/index.js', 'dist/index.mjs', 'dist/index.d.ts']) {
        assert.ok(files.includes(wanted), `${key} tarball lacks ${wanted}`);
      }
      const stray = files.filter((f) => /(^|\/)(test|tests|fixtures|src)\//.test(f) || /\.test\./.test(f) || f.endsWith('.ts') && !f.endsWith('.d.ts') && !f.endsWith('.d.mts'));
      assert.deepEqual(stray, [], `${key} tarball holds files a user does not need`);
    }
    for (const wanted of ['dist/v4.js', 'dist/v4.d.ts', 'dist/legacy.js', 'dist/legacy.d.ts', 'v4/package.json', 'legacy/package.json', 'dist/upgrade/index.js', 'dist/upgrade/index.d.ts', 'upgrade/package.json', 'dist/lambda.js', 'dist/lambda.mjs', 'dist/lambda.d.ts', 'lambda/package.json', 'lib/request.js', 'lib/router/layer.js', 'v4/lib/router/layer.js']) {
      assert.ok(packed.trestle.files.includes(wanted), `trestle tarball lacks ${wanted}`);
    }
  });

  test('CommonJS require of every entry answers over HTTP', () => {
    const answers = JSON.parse(run(process.execPath, ['app.cjs'], app, 60000));
    assert.deepEqual(answers, {
      trestle: '200 hi world', 'trestle/v4': '200 hi world', 'trestle/legacy': '200 hi world',
      logger: '200 logged', logLine: 'GET /hello/world 200\n',
    });
  });

  test('ESM import of every entry answers over HTTP', () => {
    const answers = JSON.parse(run(process.execPath, ['app.mjs'], app, 60000));
    assert.deepEqual(answers, {
      trestle: '200 hi world', 'trestle/v4': '200 hi world', 'trestle/legacy': '200 hi world',
      logger: '200 logged', logLine: 'GET /hello/world 200\n',
    });
  });

  test('trestle/upgrade from require and from import: the same functions', () => {
    const esm = "import { translatePath } from 'trestle/upgrade'; import { createRequire } from 'module'; const same = createRequire(import.meta.url)('trestle/upgrade').translatePath === translatePath; console.log(JSON.stringify([translatePath('/u/:id?').suggestion.path, same]));";
    assert.deepEqual(JSON.parse(run(process.execPath, ['--input-type=module', '-e', esm], app, 60000)), ['/u{/:id}', true]);
  });

  test('trestle/lambda from require and from import: the same function, answering an API Gateway event', () => {
    const event = JSON.stringify({ version: '2.0', rawPath: '/hi', rawQueryString: '', headers: { host: 'x.example' }, requestContext: { http: { method: 'GET', sourceIp: '192.0.2.1' }, stage: '$default' }, isBase64Encoded: false });
    const esm = `import { lambda } from 'trestle/lambda'; import trestle from 'trestle'; import { createRequire } from 'module'; const same = createRequire(import.meta.url)('trestle/lambda').lambda === lambda; const app = trestle().get('/hi', (req, res) => res.send('hi ' + req.ip)); const r = await lambda(app)(${event}, {}); console.log(JSON.stringify([r.statusCode, r.body, same]));`;
    assert.deepEqual(JSON.parse(run(process.execPath, ['--input-type=module', '-e', esm], app, 60000)), [200, 'hi 192.0.2.1', true]);
  });

  test('the upgrade report from the tarball: `trestle upgrade-report` (the bin) and trestle/upgrade/register', () => {
    writeFileSync(join(app, 'v4-app.cjs'), "const express = require('express');\nconst app = express();\napp.get('/u/:id?', (req, res) => res.send(200, 'x'));\nmodule.exports = app;\n");
    const bin = join(app, 'node_modules', '.bin', process.platform === 'win32' ? 'trestle.cmd' : 'trestle');
    const report = JSON.parse(run(bin, ['upgrade-report', 'v4-app.cjs', '--json'], app, 60000));
    assert.deepEqual(report.findings.map((f: { kind: string; line: number; express5: string }) => [f.kind, f.line, f.express5]), [['route-path', 3, "'/u{/:id}'"]]);
    const served = "const http = require('http'); const app = require('./v4-app.cjs'); const s = app.listen(0, () => http.get({ port: s.address().port, path: '/u/1' }, (r) => { r.resume(); r.on('end', () => s.close()); }));";
    const env = { ...process.env, TRESTLE_UPGRADE_REPORT: 'upgrade.json' };
    const result = spawnSync(process.execPath, ['--require', 'trestle/upgrade/register', '-e', served], { cwd: app, encoding: 'utf8', timeout: 60000, env });
    assert.equal(result.status, 0, result.stderr);
    const kinds = JSON.parse(readFileSync(join(app, 'upgrade.json'), 'utf8')).findings.map((f: { kind: string }) => f.kind);
    assert.deepEqual(kinds.sort(), ['route-path', 'send-status-body']);
  });

  test("a dependency's own require('express') runs on trestle installed under Express's name", () => {
    const out = run(process.execPath, ['-e', "require('uses-express')().then((a) => console.log(JSON.stringify(a)))"], app, 60000);
    assert.deepEqual(JSON.parse(out), ['Trestle', 'via express']);
  });

  test("Express's own files required by path under Express's name: Express 5's, and Express 4's router files", () => {
    const out = run(process.execPath, ['-e', deepRequires], app, 60000);
    assert.deepEqual(JSON.parse(out), { request: true, response: true, application: true, express: true, layerIsV4: 'function', router: true });
    // Resolvers that ignore exports find the same files.
    const installed = join(app, 'node_modules', 'express');
    for (const file of ['lib/request', 'lib/router/layer', 'lib/router', 'v4/lib/router/route']) {
      const expected = join(installed, file.endsWith('router') ? `${file}/index.js` : `${file}.js`);
      assert.equal(resolve.sync(`express/${file}`, { basedir: app }), expected, file);
    }
  });

  test('express-async-errors on an Express 4 app through the shim: each error answered once by the error handler', () => {
    // Outside NODE_ENV=test, the final handler prints what reaches it.
    const env = { ...process.env, NODE_ENV: 'production' };
    const result = spawnSync(process.execPath, ['app.cjs'], { cwd: app4, encoding: 'utf8', timeout: 60000, env });
    assert.equal(result.status, 0, result.stderr);
    assert.deepEqual(JSON.parse(result.stdout), { answers: ['500 handled: async failure', '500 handled: bad param'], handled: 2 });
    // A second report of the same failure would go on to the final handler, which would print it.
    assert.equal(result.stderr, '');
  });

  test('a resolver that ignores exports finds each entry and its types (Jest 26/27, older bundlers)', () => {
    const installed = join(app, 'node_modules');
    const expected: Record<string, string> = {
      trestle: join(installed, 'trestle', 'dist', 'index.js'),
      'trestle/v4': join(installed, 'trestle', 'dist', 'v4.js'),
      'trestle/legacy': join(installed, 'trestle', 'dist', 'legacy.js'),
      'trestle/upgrade': join(installed, 'trestle', 'dist', 'upgrade', 'index.js'),
      'trestle/lambda': join(installed, 'trestle', 'dist', 'lambda.js'),
      [loggerName]: join(installed, loggerName, 'dist', 'index.js'),
    };
    for (const [id, file] of Object.entries(expected)) {
      assert.equal(resolve.sync(id, { basedir: app }), file, id);
    }
    for (const [entry, dts] of [['v4', 'v4.d.ts'], ['legacy', 'legacy.d.ts'], ['upgrade', 'upgrade/index.d.ts'], ['lambda', 'lambda.d.ts']]) {
      const folder = JSON.parse(readFileSync(join(installed, 'trestle', entry!, 'package.json'), 'utf8'));
      const types = join(installed, 'trestle', entry!, folder.types);
      assert.equal(types, join(installed, 'trestle', 'dist', dts!));
      assert.ok(statSync(types).isFile(), `${types} is missing`);
    }
  });

  test('the published JavaScript requires built-ins without the node: scheme', () => {
    const bare = new Set(builtinModules);
    const offenders: string[] = [];
    for (const name of ['trestle', loggerName]) {
      for (const file of jsFiles(join(app, 'node_modules', name, 'dist'))) {
        const text = readFileSync(file, 'utf8');
        for (const match of text.matchAll(/(?:require\(|import\(|from )(["'])node:([\w/]+)\1/g)) {
          if (bare.has(match[2]!)) offenders.push(`${file}: ${match[0]}`);
        }
      }
    }
    assert.deepEqual(offenders, []);
  });
});
