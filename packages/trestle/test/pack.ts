// Packs a workspace package as npm would publish it, for the tests that
// install the tarballs into a fresh project (packaging.test.ts,
// types-install.ts). `npm test` has built dist/ already, so the prepack
// build is skipped (`--ignore-scripts`): the tarball holds the dist/ under test.
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';

export const root = join(__dirname, '..', '..', '..');
export const packageDirs = { trestle: join(root, 'packages', 'trestle'), logger: join(root, 'packages', 'logline') };
/** The logger's published name, read from its package.json. */
export const loggerName: string = JSON.parse(readFileSync(join(packageDirs.logger, 'package.json'), 'utf8')).name;
/** npm flags for a quiet install that works from the cache when offline. */
export const npmFlags = ['--prefer-offline', '--no-audit', '--no-fund', '--loglevel=error'];

/** Runs a command to completion (bounded by `timeout`) and returns its output; fails the test on a non-zero exit. */
export function run(cmd: string, args: string[], cwd: string, timeout = 120000): string {
  const result = spawnSync(cmd, args, { cwd, encoding: 'utf8', timeout });
  assert.equal(result.status, 0, `${cmd} ${args.join(' ')}\n${result.stdout}\n${result.stderr}`);
  return result.stdout;
}

/** Packs the package in `dir` into `dest`: the tarball's path and the files npm put in it. */
export function pack(dir: string, dest: string): { tarball: string; files: string[] } {
  const out = run('npm', ['pack', '--ignore-scripts', '--json', '--pack-destination', dest, ...npmFlags], dir);
  const [info] = JSON.parse(out) as Array<{ filename: string; files: Array<{ path: string }> }>;
  return { tarball: join(dest, info!.filename), files: info!.files.map((f) => f.path) };
}
