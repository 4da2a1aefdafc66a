// Each deprecation warning names the app's own call, where Express 4 names it:
// one app file, run in a child process on real Express 4 and on trestle/v4,
// prints its warnings to stderr; the place each names is compared.
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, test } from 'node:test';
import { localRequire } from '../express-alias';

const dir = mkdtempSync(join(tmpdir(), 'trestle-deprecations-'));
after(() => rmSync(dir, { recursive: true, force: true }));

// The framework's path comes in argv[2]; line numbers below are what the warnings must name.
const appFile = `const express = require(process.argv[2]);
const app = express();
const router = express.Router();
app.use(express.urlencoded());
app.del('/gone', (req, res) => res.end());
router.param((name, fn) => (req, res, next) => next());
app.get('/r', (req, res) => { req.host; req.param('a'); res.send(200, 'x'); });
app.get('/moved', (req, res) => res.redirect('/r', 301));
app.get('/nowhere', (req, res) => res.redirect());
const server = app.listen(0, '127.0.0.1', async () => {
  for (const path of ['/r', '/moved', '/nowhere']) await (await fetch('http://127.0.0.1:' + server.address().port + path, { redirect: 'manual' })).text();
  server.close();
});
`;
writeFileSync(join(dir, 'app.js'), appFile);

/** Each warning printed, as `message -> place`, the date left out. */
function warnings(framework: string): string[] {
  const result = spawnSync(process.execPath, ['app.js', framework], { cwd: dir, encoding: 'utf8', timeout: 30_000 });
  assert.equal(result.status, 0, `app.js on ${framework} did not exit cleanly within 30 s:\n${result.stderr}`);
  return result.stderr.split('\n').filter((line) => line.includes(' deprecated ')).map((line) => line.replace(/^.*? (express|trestle|body-parser) deprecated /, '$1 ').replace(/^(express|trestle) /, ''));
}

test('trestle/v4 names the app file and line Express 4 names, for every warning the app triggers', () => {
  const express4 = warnings(localRequire.resolve('express4'));
  const trestle4 = warnings(require.resolve('../../dist/v4.js'));
  // res.redirect() without a url: Express 4 prints nothing (Express 5 does), so neither does trestle/v4.
  assert.equal(express4.length, 7, `Express 4 printed:\n${express4.join('\n')}`);
  assert.deepEqual(trestle4, express4);
  assert.ok(trestle4.includes('body-parser undefined extended: provide extended option at app.js:4:17'), trestle4.join('\n'));
  assert.ok(trestle4.every((line) => / at app\.js:\d+:\d+$/.test(line)), `a warning names trestle's files:\n${trestle4.join('\n')}`);
});
