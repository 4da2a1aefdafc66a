// Installs the benchmark's peers (Fastify, Hono, Koa, Express, autocannon,
// pino, ...) into bench/node_modules the first time `npm run bench` or
// `npm run bench:js` needs them, so a plain `npm install` of the workspace
// does not fetch them. bench/ is its own npm project (not a workspace) with
// its own lock file; it reaches trestle and the logger through the
// workspace's node_modules, one folder up.
import { spawnSync } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';

const bench = new URL('../bench/', import.meta.url).pathname;
const manifest = JSON.parse(readFileSync(join(bench, 'package.json'), 'utf8'));
const wanted = Object.keys({ ...manifest.dependencies, ...manifest.devDependencies });
const missing = wanted.filter((name) => !existsSync(join(bench, 'node_modules', name, 'package.json')));
if (missing.length > 0) {
  console.log(`bench: installing the benchmark's peers into bench/node_modules (missing: ${missing.join(', ')})`);
  const npm = process.platform === 'win32' ? 'npm.cmd' : 'npm';
  const result = spawnSync(npm, ['ci', '--no-audit', '--no-fund'], { cwd: bench, stdio: 'inherit', shell: process.platform === 'win32' });
  if (result.status !== 0) process.exit(result.status ?? 1);
}
