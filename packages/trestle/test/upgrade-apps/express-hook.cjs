// Preloaded (NODE_OPTIONS=--require) into a real app's test run: makes
// `require('express')` and `require('express/...')`, from the app and from
// everything it loads, load the Express named by TRESTLE_APPS_EXPRESS
// instead of the one installed beside the app. The app's code is not
// touched: this is the "change only the require" step, done from outside.
'use strict';
const Module = require('node:module');

/** What each name loads: the package, and where its `lib/...` files are. */
const TARGETS = {
  'trestle/v4': { main: 'trestle/v4', files: 'trestle/v4/' },
  trestle: { main: 'trestle', files: 'trestle/' },
  express5: { main: 'express5', files: 'express5/' },
  express4: { main: 'express4', files: 'express4/' },
};

const name = process.env.TRESTLE_APPS_EXPRESS;
const target = name === undefined || name === '' || name === 'own' ? undefined : TARGETS[name];
if (name !== undefined && name !== '' && name !== 'own' && target === undefined) {
  throw new Error(`TRESTLE_APPS_EXPRESS=${name}: expected one of own, ${Object.keys(TARGETS).join(', ')}`);
}

if (target !== undefined) {
  // Resolved from this file: the workspace's trestle and its Express aliases.
  const resolveHere = (id) => require.resolve(id, { paths: [__dirname] });
  const main = resolveHere(target.main);
  const original = Module._resolveFilename;
  Module._resolveFilename = function (request, ...rest) {
    if (request === 'express') return main;
    if (request.startsWith('express/')) return resolveHere(target.files + request.slice('express/'.length));
    return original.call(this, request, ...rest);
  };
}
