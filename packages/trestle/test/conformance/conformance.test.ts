// Runs every conformance case on `trestle`, `trestle/v4` and `trestle/legacy`
// over real HTTP, and checks each generation's list of differences against
// the cases. `CONFORMANCE_AGAINST=express` runs the same cases on express@5,
// express@4 and express@3 instead: how the expected answers were checked.
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import trestle from 'trestle';
import trestleLegacy from 'trestle/legacy';
import trestleV4 from 'trestle/v4';
import { rawRequest, serve } from '../helpers';
import { CASES } from './cases/index';
import { DIFFERENCES, KNOWN_GAPS, TRESTLE_ONLY } from './differences';
import { type Answer, type Case, type CaseFramework, differsFromV5, expectedFor, type Generation, GENERATIONS } from './harness';

const againstExpress = process.env.CONFORMANCE_AGAINST === 'express';

function factory(gen: Generation): CaseFramework {
  if (againstExpress) {
    // eslint-disable-next-line @typescript-eslint/no-require-imports
    return require({ v5: 'express5', v4: 'express4', legacy: 'express3' }[gen]) as CaseFramework;
  }
  const entries = { v5: trestle, v4: trestleV4, legacy: trestleLegacy };
  return entries[gen] as unknown as CaseFramework;
}

function assertAnswer(gen: Generation, c: Case, index: number, got: { status: number; headers: Record<string, unknown>; body: string }, want: Answer): void {
  const where = `${gen} ${c.name} (request ${index + 1})`;
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

async function run(gen: Generation, c: Case): Promise<void> {
  const fw = factory(gen);
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
      assertAnswer(gen, c, i, got, expected[i]!);
    }
  } finally {
    await server.close();
  }
}

test('case names are unique', () => {
  const seen = new Set<string>();
  for (const c of CASES) {
    assert.ok(!seen.has(c.name), `duplicate case name: ${c.name}`);
    seen.add(c.name);
  }
});

for (const gen of GENERATIONS) {
  describe(`conformance: ${gen}${againstExpress ? ' (real Express)' : ''}`, () => {
    test('its lists name only cases that exist', () => {
      const names = new Set(CASES.map((c) => c.name));
      for (const name of [...Object.keys(TRESTLE_ONLY[gen]), ...Object.keys(KNOWN_GAPS[gen])]) assert.ok(names.has(name), `no case named ${name}`);
    });
    test('its list of differences names exactly the cases it answers differently', () => {
      const listed = Object.keys(DIFFERENCES[gen]).sort();
      const differing = CASES.filter((c) => differsFromV5(c, gen)).map((c) => c.name).sort();
      assert.deepEqual(listed, differing);
    });
    for (const c of CASES) {
      const deviation = againstExpress ? (TRESTLE_ONLY[gen][c.name] ?? KNOWN_GAPS[gen][c.name]) : undefined;
      test(c.name, { skip: deviation, timeout: 10_000 }, () => run(gen, c));
    }
  });
}
