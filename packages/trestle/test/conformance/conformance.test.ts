// Runs every conformance case over real HTTP on `trestle`, `trestle/v4` and
// `trestle/legacy`, and on the real Express each follows (express@5, @4, @3):
// an expectation that drifts from Express fails here. Each generation's list
// of differences is checked against the cases, and each case trestle answers
// differently from its Express on purpose (TRESTLE_ONLY) or not yet
// (KNOWN_GAPS), or that Express itself cannot answer on the running Node
// (EXPRESS_BROKEN_HERE), must answer differently on that Express: a listed
// deviation that Express no longer shows fails too.
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { describe, test } from 'node:test';
import { CASES } from './cases/index';
import { DIFFERENCES, EXPRESS_BROKEN_HERE, EXPRESS_DIES, KNOWN_GAPS, TRESTLE_ONLY } from './differences';
import { type Case, differsFromV5, type Generation, GENERATIONS } from './harness';
import { PACKAGES, runCase, TARGETS } from './runner';

/** A listed deviation: the case as written must fail on the real Express. */
async function assertExpressDiffers(gen: Generation, c: Case): Promise<void> {
  if (EXPRESS_DIES[gen].includes(c.name)) {
    const child = spawnSync(process.execPath, ['--no-warnings', '--import', 'tsx', `${__dirname}/express-child.ts`, gen, c.name], { encoding: 'utf8', timeout: 20_000 });
    assert.match(child.stdout, /^crashed /, `${PACKAGES.express[gen]} ${c.name}: expected its process to die; ${child.stdout} ${child.stderr}`);
    return;
  }
  await assert.rejects(runCase('express', gen, c), `${PACKAGES.express[gen]} now answers "${c.name}" as the case expects: drop it from the lists of deviations`);
}

test('case names are unique', () => {
  const seen = new Set<string>();
  for (const c of CASES) {
    assert.ok(!seen.has(c.name), `duplicate case name: ${c.name}`);
    seen.add(c.name);
  }
});

for (const gen of GENERATIONS) {
  describe(`conformance lists: ${gen}`, () => {
    test('they name only cases that exist', () => {
      const names = new Set(CASES.map((c) => c.name));
      for (const name of [...Object.keys(TRESTLE_ONLY[gen]), ...Object.keys(KNOWN_GAPS[gen]), ...Object.keys(EXPRESS_BROKEN_HERE[gen]), ...EXPRESS_DIES[gen]]) assert.ok(names.has(name), `no case named ${name}`);
    });
    test('the list of differences names exactly the cases it answers differently from v5', () => {
      const listed = Object.keys(DIFFERENCES[gen]).sort();
      const differing = CASES.filter((c) => differsFromV5(c, gen)).map((c) => c.name).sort();
      assert.deepEqual(listed, differing);
    });
  });
}

for (const target of TARGETS) {
  for (const gen of GENERATIONS) {
    describe(`conformance: ${gen} on ${PACKAGES[target][gen]}`, () => {
      for (const c of CASES) {
        const deviation = target === 'express' ? (TRESTLE_ONLY[gen][c.name] ?? KNOWN_GAPS[gen][c.name] ?? EXPRESS_BROKEN_HERE[gen][c.name]) : undefined;
        if (deviation === undefined) test(c.name, { timeout: 10_000 }, () => runCase(target, gen, c));
        else test(`${c.name}: differs (${deviation})`, { timeout: 30_000 }, () => assertExpressDiffers(gen, c));
      }
    });
  }
}
