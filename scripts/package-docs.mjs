// Copies the docs a package links to at run time into it, so they ship in
// its tarball: trestle's upgrade report links docs/migrating-v4.md, which
// must resolve from a user's project (node_modules/trestle/docs/...).
// Run by scripts/pack.mjs and by trestle's prepack.
import { copyFileSync, mkdirSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const into = join(root, 'packages', 'trestle', 'docs');
mkdirSync(into, { recursive: true });
copyFileSync(join(root, 'docs', 'migrating-v4.md'), join(into, 'migrating-v4.md'));
