// The seam between the core and the platforms (issue 41): the core (app/,
// router/, request/, response/, middleware/) imports nothing from
// platforms/, the platform installs itself through app/platform-seam.ts, and
// nothing of the platforms replaces a global (globalThis.Function was, on
// Workers, while send 0.19 loaded).
import assert from 'node:assert/strict';
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join, relative } from 'node:path';
import { test } from 'node:test';

const SRC = join(__dirname, '..', '..', 'src');
const CORE = ['app', 'router', 'request', 'response', 'middleware'];

function files(dir: string, out: string[] = []): string[] {
  for (const name of readdirSync(dir)) {
    const path = join(dir, name);
    if (statSync(path).isDirectory()) files(path, out);
    else if (name.endsWith('.ts')) out.push(path);
  }
  return out;
}

test('the core imports nothing from platforms/', () => {
  const found: string[] = [];
  for (const folder of CORE) {
    for (const file of files(join(SRC, folder))) {
      const text = readFileSync(file, 'utf8');
      for (const m of text.matchAll(/(?:from\s+|require\()\s*['"]([^'"]+)['"]/g)) {
        if (/(^|\/)platforms(\/|$)/.test(m[1]!)) found.push(`${relative(SRC, file)}: ${m[1]}`);
      }
    }
  }
  assert.deepEqual(found, [], 'core files importing from platforms/');
});

test('no platform module assigns a global (globalThis.Function, or any other)', () => {
  const found: string[] = [];
  for (const file of files(join(SRC, 'platforms'))) {
    const text = readFileSync(file, 'utf8');
    if (/globalThis\.\w+\s*=[^=]|global\.\w+\s*=[^=]|\bFunction\s*=[^=>]/.test(text)) found.push(relative(SRC, file));
  }
  assert.deepEqual(found, [], 'platform modules that replace a global');
});

test('app.fetch and the refusals go through the installed platform (an app answers through app.fetch)', async () => {
  // eslint-disable-next-line @typescript-eslint/no-require-imports
  const trestle = (require('../../src/index') as { default?: unknown }).default ?? require('../../src/index');
  const app = (trestle as () => { get(p: string, h: (req: unknown, res: { send(b: string): void }) => void): void; fetch(r: Request): Promise<Response> })();
  app.get('/', (req, res) => res.send('through the seam'));
  const res = await app.fetch(new Request('http://127.0.0.1/'));
  assert.equal(await res.text(), 'through the seam');
});
