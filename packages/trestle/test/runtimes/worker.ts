// A trestle app as a Cloudflare Worker, under workerd driven by miniflare (both
// from the npm registry, as Workers projects test): bundled by esbuild at
// test time into a temporary directory, as wrangler bundles a Worker (node's
// modules left to the runtime's `nodejs_compat`, a `require()` of one made an
// import).
import { builtinModules } from 'node:module';
import { build, type Plugin } from 'esbuild';

/** The compatibility date the Workers tests and examples use: the installed workerd's own. */
export const COMPATIBILITY_DATE = '2026-04-26';

const builtins = new Set(builtinModules);

/** node's modules stay imports for workerd; a `require()` of one becomes an import, as wrangler does. */
const nodeModules: Plugin = {
  name: 'node-modules',
  setup(build) {
    build.onResolve({ filter: /^(node:)?[a-z0-9_/]+$/ }, (args) => {
      const name = args.path.replace(/^node:/, '');
      if (!builtins.has(name)) return undefined;
      if (args.kind === 'require-call') return { path: `node:${name}`, namespace: 'node-module' };
      return { path: `node:${name}`, external: true };
    });
    build.onLoad({ filter: /.*/, namespace: 'node-module' }, (args) => ({ contents: `import m from '${args.path}'; module.exports = m;` }));
  },
};

/** Bundles the module `source` (resolving from `dir`) into one ES module, returned as text. */
export async function bundleWorker(source: string, dir: string): Promise<string> {
  const result = await build({
    stdin: { contents: source, resolveDir: dir, sourcefile: 'worker.mjs', loader: 'js' },
    bundle: true,
    format: 'esm',
    platform: 'neutral',
    // As wrangler bundles (esbuild's browser platform): a package's browser build first. depd's is the one a Worker can load
    // (its node build makes functions from strings, which a Worker refuses), and send 0.19, Express 4's, loads depd.
    mainFields: ['browser', 'module', 'main'],
    conditions: ['workerd', 'worker', 'browser'],
    // Modules that name their own directory get the Worker's: it has no other.
    define: { __dirname: '"/bundle"', __filename: '"/bundle/worker.mjs"' },
    // Cloudflare's own modules (cloudflare:node) are the runtime's.
    external: ['cloudflare:*'],
    plugins: [nodeModules],
    write: false,
    logLevel: 'silent',
  });
  return result.outputFiles[0]!.text;
}
