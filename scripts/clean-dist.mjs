// Empties each package's dist/ before a build: tsc never deletes what a moved
// or removed source once emitted, and a stale file can shadow a new folder
// (dist/types.d.ts would hide dist/types/index.d.ts) or end up in a tarball.
import { readdirSync, rmSync } from 'node:fs';
import { join } from 'node:path';

for (const pkg of readdirSync('packages')) rmSync(join('packages', pkg, 'dist'), { recursive: true, force: true });
