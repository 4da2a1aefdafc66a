// Tools that find Express by its package name (`require('express')`, or
// OpenTelemetry's hook on the module named `express`) are tested with
// trestle installed under that name. Each alias is a package folder made
// for the test, `<tmp>/node_modules/express/`, whose package.json carries
// the Express version being emulated and whose index.js re-exports the
// target. A hook on node's resolver sends `require('express')` from
// anywhere to the alias chosen last: the tools themselves sit in the
// workspace's node_modules, beside a real Express the benchmarks use.
import { mkdtempSync, mkdirSync, rmSync, writeFileSync } from 'node:fs';
import Module, { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { dirname, join, sep } from 'node:path';

const localRequire = createRequire(__filename);
const resolver = Module as unknown as { _resolveFilename(request: string, ...rest: unknown[]): string };
const original = resolver._resolveFilename;
let current: string | undefined;
const folders: string[] = [];
/** `require(request)` from inside the package folder `from` loads `to` instead. */
const pins: Array<{ from: string; request: string; to: string }> = [];

resolver._resolveFilename = function (request: string, ...rest: unknown[]): string {
  if (request === 'express' && current !== undefined) return current;
  const parent = (rest[0] as { filename?: string } | undefined)?.filename;
  const pin = parent === undefined ? undefined : pins.find((p) => p.request === request && parent.startsWith(p.from));
  if (pin !== undefined) return pin.to;
  return original.call(this, request, ...rest);
};

/**
 * Makes the package `pkg` load `target` when it requires `request`: to
 * compare against the Express release a behaviour comes from when a
 * dependency's newer version changed it.
 */
export function pinDependency(pkg: string, request: string, target: string): void {
  pins.push({ from: dirname(localRequire.resolve(`${pkg}/package.json`)) + sep, request, to: localRequire.resolve(target) });
}

/**
 * Makes `require('express')` load `target` (a module id resolved from
 * here, such as `trestle/v4` or `express4`) as the package `express` at
 * `version`. Returns the alias's entry file.
 */
export function aliasExpress(target: string, version: string): string {
  const root = mkdtempSync(join(tmpdir(), 'trestle-express-alias-'));
  folders.push(root);
  const dir = join(root, 'node_modules', 'express');
  mkdirSync(dir, { recursive: true });
  writeFileSync(join(dir, 'package.json'), JSON.stringify({ name: 'express', version, main: 'index.js' }));
  writeFileSync(join(dir, 'index.js'), `module.exports = require(${JSON.stringify(localRequire.resolve(target))});\n`);
  current = join(dir, 'index.js');
  return current;
}

/** Removes the alias folders and the resolver hook. */
export function removeAliases(): void {
  resolver._resolveFilename = original;
  current = undefined;
  pins.length = 0;
  for (const root of folders.splice(0)) rmSync(root, { recursive: true, force: true });
}

/** `require` from this test folder, for tools that ship no types. */
export { localRequire };
