// Runs one conformance case on one framework over real HTTP: shared by the
// suite and by the child process that runs a case whose real Express dies.
import assert from 'node:assert/strict';
import { createRequire } from 'node:module';
import trestle from 'trestle';
import trestleLegacy from 'trestle/legacy';
import trestleV4 from 'trestle/v4';
import { rawRequest, serve } from '../helpers';
import { type Answer, type Case, type CaseFramework, expectedFor, type Generation } from './harness';

/** What a case runs on: trestle's entry of the generation, or the real Express it follows. */
export type Target = 'trestle' | 'express';
export const TARGETS: readonly Target[] = ['trestle', 'express'];

/** The package each target is for a generation (the real ones as devDependency aliases). */
export const PACKAGES: Record<Target, Record<Generation, string>> = {
  trestle: { v5: 'trestle', v4: 'trestle/v4', legacy: 'trestle/legacy' },
  express: { v5: 'express5', v4: 'express4', legacy: 'express3' },
};

// Express 3 takes its environment from NODE_ENV, not from app.set('env'):
// connect's final handler reads it once when loaded (stacks unless
// 'production'), and each new app sets 'json spaces' to 2 in 'development'.
// The cases expect production answers, so the process runs as production
// for both targets (the trestle runs also set it on each app).
process.env.NODE_ENV = 'production';

const localRequire = createRequire(__filename);
const entries: Record<Generation, unknown> = { v5: trestle, v4: trestleV4, legacy: trestleLegacy };

export function factory(target: Target, gen: Generation): CaseFramework {
  if (target === 'express') return localRequire(PACKAGES.express[gen]) as CaseFramework;
  return entries[gen] as CaseFramework;
}

function assertAnswer(where: string, got: { status: number; headers: Record<string, unknown>; body: string }, want: Answer): void {
  assert.equal(got.status, want.status, `${where}: status; body ${JSON.stringify(got.body)}`);
  for (const [name, value] of Object.entries(want.headers ?? {})) {
    const actual = got.headers[name];
    if (value === null) assert.equal(actual, undefined, `${where}: ${name} must be absent`);
    else if (value instanceof RegExp) assert.match(String(actual), value, `${where}: ${name}`);
    else assert.equal(actual, value, `${where}: ${name}`);
  }
  if (want.body instanceof RegExp) assert.match(got.body, want.body, `${where}: body`);
  else if (want.body !== undefined) assert.equal(got.body, want.body, `${where}: body`);
}

/** Sets an app up as the case says, sends its requests and checks each answer against the generation's expectation. */
export async function runCase(target: Target, gen: Generation, c: Case): Promise<void> {
  const fw = factory(target, gen);
  const expected = expectedFor(c, gen);
  const app = fw();
  // Error pages without stacks, and JSON without spaces: the same answer on every machine.
  app.set('env', 'production');
  if (!Array.isArray(expected)) {
    assert.throws(() => c.setup(app, fw), expected.throws, `${gen} ${c.name}: setup must throw`);
    return;
  }
  c.setup(app, fw);
  assert.equal(expected.length, c.send.length, `${c.name}: one expected answer per request`);
  const server = await serve(app as unknown as Parameters<typeof serve>[0]);
  try {
    for (const [i, s] of c.send.entries()) {
      const got = await rawRequest(server.port, s.method ?? 'GET', s.path, s.headers, s.body);
      assertAnswer(`${PACKAGES[target][gen]} ${c.name} (request ${i + 1})`, got, expected[i]!);
    }
  } finally {
    await server.close();
  }
}
