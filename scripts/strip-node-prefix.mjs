// Rewrites `require("node:fs")` to `require("fs")` in the built JavaScript of
// the packages given as arguments (default: every package). Older tools that
// read a module id as a file name (Jest 26's resolver, some bundlers) fail on
// the `node:` scheme with `ENOENT ... 'node:events'`; the bare name means the
// same built-in to Node. Sources keep `node:` (clearer, and what TypeScript
// and linters prefer); only the published JavaScript drops it. Built-ins that
// exist only under the scheme (`node:test`, `node:sqlite`, ...) keep it.
import { builtinModules } from 'node:module';
import { existsSync, readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

const bare = new Set(builtinModules);
const call = /\b(require|import)\((["'])node:([\w/]+)\2\)/g;
const from = /\bfrom (["'])node:([\w/]+)\1/g;

/** The text with `node:` dropped from the built-ins that also exist without it. */
export function stripNodePrefix(text) {
  return text
    .replace(call, (match, fn, quote, id) => (bare.has(id) ? `${fn}(${quote}${id}${quote})` : match))
    .replace(from, (match, quote, id) => (bare.has(id) ? `from ${quote}${id}${quote}` : match));
}

function walk(dir, out) {
  for (const name of readdirSync(dir)) {
    const path = join(dir, name);
    if (statSync(path).isDirectory()) walk(path, out);
    else if (/\.(c|m)?js$/.test(name)) out.push(path);
  }
  return out;
}

const root = new URL('..', import.meta.url).pathname;
const packages = process.argv.slice(2);
const dirs = packages.length > 0 ? packages : readdirSync(join(root, 'packages')).map((p) => join(root, 'packages', p));
let changed = 0;
for (const dir of dirs) {
  if (!existsSync(join(dir, 'dist'))) continue;
  for (const file of walk(join(dir, 'dist'), [])) {
    const text = readFileSync(file, 'utf8');
    const out = stripNodePrefix(text);
    if (out !== text) { writeFileSync(file, out); changed++; }
  }
}
console.log(`strip-node-prefix: ${changed} files rewritten`);
