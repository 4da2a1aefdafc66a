// The ESM side of hook.ts: `import express from 'express'` (and
// `express/lib/...`) resolved to trestle/v4. Registered with module.register.

interface Data {
  v4: string;
  v4Lib: string;
}

let target: Data | undefined;

export function initialize(data: Data): void {
  target = data;
}

type Next = (specifier: string, context: unknown) => unknown;

export function resolve(specifier: string, context: unknown, next: Next): unknown {
  if (target !== undefined && specifier === 'express') return { url: target.v4, shortCircuit: true };
  if (target !== undefined && specifier.startsWith('express/lib/')) {
    const file = specifier.slice('express/lib/'.length).replace(/\.js$/, '');
    return next(`${target.v4Lib}/${file === 'router' ? 'router/index' : file}.js`, context);
  }
  return next(specifier, context);
}
