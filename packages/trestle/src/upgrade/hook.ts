// `require('express')` (and Express's own files, `express/lib/router/layer`)
// answered with trestle/v4, so an Express 4 app runs on it unchanged: for
// the upgrade report's command and `trestle/upgrade/register`.
import Module from 'node:module';
import { join, resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import { redirectRequires } from '../node-internals';

// This file is dist/upgrade/hook.js.
const packageRoot = resolve(__dirname, '..', '..');
const v4Entry = join(packageRoot, 'dist', 'v4.js');


/** Where trestle/v4 keeps what `request` (an `express...` specifier) names; undefined for other modules. */
export function expressTarget(request: string): string | undefined {
  if (request === 'express') return v4Entry;
  if (request.startsWith('express/lib/')) return join(packageRoot, 'v4', request.slice('express/'.length));
  return undefined;
}

/** trestle/v4's file for an `express...` specifier an `import` names (a URL); undefined for other modules. */
function expressImportTarget(request: string): string | undefined {
  if (request === 'express') return pathToFileURL(join(packageRoot, 'dist', 'v4.mjs')).href;
  const file = expressTarget(request);
  if (file === undefined) return undefined;
  return pathToFileURL(/[\\/]router$/.test(file) ? join(file, 'index.js') : file.endsWith('.js') ? file : `${file}.js`).href;
}

interface HookContext {
  conditions?: string[];
}
type NextResolve = (specifier: string, context: HookContext) => unknown;
type RegisterHooks = (hooks: { resolve(specifier: string, context: HookContext, next: NextResolve): unknown }) => unknown;

let hooked = false;

/** From now on `require('express')` and `import 'express'` in this process load trestle/v4 (`import` from Node 20.6). */
export function redirectExpress(): void {
  if (hooked) return;
  hooked = true;
  const registerHooks = (Module as typeof Module & { registerHooks?: RegisterHooks }).registerHooks;
  if (registerHooks !== undefined) {
    // Node 22.15 and later: one synchronous hook for both.
    registerHooks({
      resolve(specifier, context, next) {
        const target = context.conditions?.includes('import') ? expressImportTarget(specifier) : expressTarget(specifier);
        return next(target ?? specifier, context);
      },
    });
    return;
  }
  redirectRequires(Module, expressTarget);
  const register = (Module as typeof Module & { register?: (url: string, parentURL: string, options: object) => void }).register;
  register?.(pathToFileURL(join(__dirname, 'hooks.mjs')).href, pathToFileURL(__filename).href, {
    data: { v4: pathToFileURL(join(packageRoot, 'dist', 'v4.mjs')).href, v4Lib: pathToFileURL(join(packageRoot, 'v4', 'lib')).href },
  });
}
