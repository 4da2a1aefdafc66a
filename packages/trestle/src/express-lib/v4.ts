// What Express 4's own files export, for code that requires them by path:
// `express/lib/router/layer`, whose prototype express-async-errors and
// tracers patch, `lib/router/route`, `lib/router/index`, and the files
// Express 5 kept (`lib/request`...). `v4/lib/*.js` of the package forwards
// here (an Express 4 shim forwards to those), and so does `lib/router/*.js`:
// only Express 4 has those files. See docs/migrating-v4.md.
import trestle = require('../v4');
import { v4 } from '../generations/v4/index';
import { type AnyHandler, Layer as CoreLayer, layerClass } from '../router/layer';
import { makeLayer } from '../router/router';

/** `express/lib/express`: the factory itself, as `require('express')`. */
export const express = trestle;
/** `express/lib/application`: the prototype of every app. */
export const application = trestle.application;
/** `express/lib/request`: the prototype of every request. */
export const request = trestle.request;
/** `express/lib/response`: the prototype of every response. */
export const response = trestle.response;
/** `express/lib/router` and `express/lib/router/index`: `express.Router`, the prototype of every router. */
export const Router = trestle.Router;
/** `express/lib/router/route`: `express.Route`. */
export const Route = trestle.Route;
/** `express/lib/view`: the class `app.get('view')` is by default. */
export { View } from '../app/view';

/** The options of Express 4's `new Layer(path, options, fn)`. */
export interface LayerOptions {
  end?: boolean;
  strict?: boolean;
  sensitive?: boolean;
}

/** `express/lib/router/layer`: a v4 layer, made with or without `new` as in Express 4. */
export interface LayerConstructor {
  new (path: string | RegExp | Array<string | RegExp>, options: LayerOptions | undefined, fn: AnyHandler): CoreLayer;
  (path: string | RegExp | Array<string | RegExp>, options: LayerOptions | undefined, fn: AnyHandler): CoreLayer;
  prototype: CoreLayer;
}

/**
 * Express 4's `Layer(path, options, fn)`. Its prototype is the one every
 * trestle/v4 layer has, so a method patched there (`handle_request`,
 * `handle_error`) is the one the router calls; a layer made with it can be
 * put in a router's stack.
 */
export const Layer = function Layer(path: string | RegExp | Array<string | RegExp>, options: LayerOptions | undefined, fn: AnyHandler): CoreLayer {
  const end = options?.end !== false;
  const pathOptions = { end, strict: Boolean(options?.strict), sensitive: Boolean(options?.sensitive) };
  return makeLayer(v4.router, path, fn, pathOptions, path === '/' && !end);
} as unknown as LayerConstructor;
Layer.prototype = layerClass(v4.router.shape).prototype;
