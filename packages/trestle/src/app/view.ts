// A view: a template name resolved to a file under the `views` directories,
// and the engine registered (or loaded) for its extension.
import { statSync } from 'node:fs';
import { createRequire } from 'node:module';
import { basename, dirname, extname, join, resolve } from 'node:path';
import type { EngineCallback, RenderCallback } from '../types';
import { createError } from '../errors';
import { refuseOnPlatform } from './platform-seam';

export interface ViewOptions {
  defaultEngine: string | undefined;
  root: string | string[];
  engines: Record<string, EngineCallback>;
}

export class View {
  defaultEngine: string | undefined;
  ext: string;
  name: string;
  root: string | string[];
  engine: EngineCallback;
  path: string | undefined;

  constructor(name: string, options: ViewOptions) {
    // Before the engine is loaded: the disk lookup is what cannot work there (a subclass with its own lookup can).
    if (this.lookup === View.prototype.lookup) refuseOnPlatform('res.render()', 'views');
    this.defaultEngine = options.defaultEngine;
    this.ext = extname(name);
    this.name = name;
    this.root = options.root;
    if (!this.ext && !this.defaultEngine) {
      throw createError(Error, 'TRESTLE_ERR_VIEW_ENGINE_REQUIRED', 'No default engine was specified and no extension was provided.');
    }
    let fileName = name;
    if (!this.ext) {
      const engine = this.defaultEngine!;
      this.ext = engine[0] !== '.' ? `.${engine}` : engine;
      fileName += this.ext;
    }
    options.engines[this.ext] ??= loadEngine(this.ext.slice(1));
    this.engine = options.engines[this.ext]!;
    this.path = this.lookup(fileName);
  }

  /** The first `root` that holds `name` (or `name/index.<ext>`). */
  lookup(name: string): string | undefined {
    const roots = ([] as string[]).concat(this.root);
    for (const root of roots) {
      const loc = resolve(root, name);
      const found = this.resolve(dirname(loc), basename(loc));
      if (found) return found;
    }
    return undefined;
  }

  /** Engines may call back synchronously; the caller always hears back asynchronously. */
  render(options: object, callback: RenderCallback): void {
    let sync = true;
    this.engine(this.path!, options, function onRender(err, html) {
      if (!sync) return callback(err, html);
      process.nextTick(() => callback(err, html));
    });
    sync = false;
  }

  resolve(dir: string, file: string): string | undefined {
    const direct = join(dir, file);
    if (isFile(direct)) return direct;
    const index = join(dir, basename(file, this.ext), `index${this.ext}`);
    if (isFile(index)) return index;
    return undefined;
  }
}

function isFile(path: string): boolean {
  try {
    // No exception (and its stack) for the common miss: lookup probes several paths.
    const stat = statSync(path, { throwIfNoEntry: false });
    return stat !== undefined && stat.isFile();
  } catch {
    return false;
  }
}

/**
 * Loads an engine by extension (`ejs` -> require('ejs').__express), looking
 * first from the application's directory, then from trestle's own.
 */
function loadEngine(mod: string): EngineCallback {
  let loaded: { __express?: unknown } | undefined;
  for (const from of [join(process.cwd(), 'index.js'), __filename]) {
    try {
      loaded = createRequire(from)(mod) as { __express?: unknown };
      break;
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code !== 'MODULE_NOT_FOUND') throw err;
    }
  }
  if (loaded === undefined) {
    // The code of the error Express lets through from require().
    const message = `Cannot find module '${mod}' to render ".${mod}" views: install it or register an engine with app.engine('${mod}', fn)`;
    throw createError(Error, 'MODULE_NOT_FOUND', message);
  }
  if (typeof loaded.__express !== 'function') throw createError(Error, 'TRESTLE_ERR_NOT_A_VIEW_ENGINE', `Module "${mod}" does not provide a view engine.`);
  return loaded.__express as EngineCallback;
}
