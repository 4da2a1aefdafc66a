// `npm run pack`: packs every published package of the workspace (trestle,
// logline-http, trestle-otel) into one folder, as npm would publish them,
// and prints the command that installs them into another project. Until the
// packages are on the registry, this is how an app gets them: trestle depends
// on logline-http, so their two tarballs are installed in one `npm install`.
//
//   node scripts/pack.mjs [folder]      (default: packs/; `npm run pack` builds first)
import { spawnSync } from 'node:child_process';
import { mkdirSync, readFileSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const packages = ['packages/trestle', 'packages/logline', 'packages/trestle-otel'];
const dest = resolve(process.argv[2] ?? join(root, 'packs'));
mkdirSync(dest, { recursive: true });

// The docs trestle links at run time ship inside it.
spawnSync(process.execPath, [join(root, 'scripts', 'package-docs.mjs')], { stdio: 'inherit' });

const tarballs = {};
for (const dir of packages) {
  const { name } = JSON.parse(readFileSync(join(root, dir, 'package.json'), 'utf8'));
  if (!existsBuilt(join(root, dir))) fail(`${dir}/dist is missing: run \`npm run build\` first (or \`npm run pack\`, which builds)`);
  // The build ran already (npm run pack builds once for all three): skip each package's prepack build.
  const result = spawnSync('npm', ['pack', '--ignore-scripts', '--json', '--pack-destination', dest, '--loglevel=error'], {
    cwd: join(root, dir),
    encoding: 'utf8',
    timeout: 120_000,
  });
  if (result.status !== 0) fail(`npm pack in ${dir} failed:\n${result.stdout}\n${result.stderr}`);
  tarballs[name] = join(dest, JSON.parse(result.stdout)[0].filename);
}

const shown = (file) => {
  const rel = relative(process.cwd(), file);
  return rel.startsWith('..') ? file : `./${rel}`;
};
console.log(`Packed into ${shown(dest)}:`);
for (const file of Object.values(tarballs)) console.log(`  ${shown(file)}`);
console.log('\nIn your app (trestle needs logline-http, so the two go in one command):');
console.log(`  npm install ${tarballs.trestle} ${tarballs['logline-http']}`);
console.log("Under Express's name (the alias; see README):");
console.log(`  npm install express@file:${tarballs.trestle} ${tarballs['logline-http']}`);

function existsBuilt(dir) {
  try {
    readFileSync(join(dir, 'dist', 'index.js'));
    return true;
  } catch {
    return false;
  }
}

function fail(message) {
  console.error(`pack: ${message}`);
  process.exit(1);
}
