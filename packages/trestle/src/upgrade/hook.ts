// `require('express')` (and Express's own files, `express/lib/router/layer`)
// answered with trestle/v4, so an Express 4 app runs on it unchanged: for
// the upgrade report's command and `trestle/upgrade/register`.
import Module from 'node:module';
import { join, resolve } from 'node:path';
import { pathToFileURL } from 'node:url';

// This file is dist/upgrade/hook.js.
const packageRoot = resolve(__dirname, '..', '..');
const v4Entry = join(packageRoot, 'dist', 'v4.js');

type Resolve = (request: string, parent: unknown, isMain: boolean, options?: unknown) => string;
const moduleWithResolve = Module as unknown as { _resolveFilename: Resolve };

/** Where trestle/v4 keeps what `request` (an `express...` specifier) names; undefined for other modules. */
export function expressTarget(request: string): string | undefined {
  if (request === 'express') return v4Entry;
  if (request.startsWith('express/lib/')) return join(packageRoot, 'v4', request.slice('express/'.length));
  return undefined;
}

let hooked = false;

/** From now on `require('express')` in this process loads trestle/v4; `import` too where node has `module.register`. */
export function redirectExpress(): void {
  if (hooked) return;
  hooked = true;
  const original = moduleWithResolve._resolveFilename;
  moduleWithResolve._resolveFilename = function (this: unknown, request, parent, isMain, options) {
    const target = typeof request === 'string' ? expressTarget(request) : undefined;
    return original.call(this, target ?? request, parent, isMain, options);
  };
  const register = (Module as unknown as { register?: (url: string, parentURL: string, options: object) => void }).register;
  register?.(pathToFileURL(join(__dirname, 'hooks.mjs')).href, pathToFileURL(__filename).href, {
    data: { v4: pathToFileURL(join(packageRoot, 'dist', 'v4.mjs')).href, v4Lib: pathToFileURL(join(packageRoot, 'v4', 'lib')).href },
  });
}
