// Runs a fidelity test on trestle and on the real Express its expectations
// were checked against (the dev-dependency aliases express5/4/3), so an
// expectation that drifts from Express fails in CI. A test trestle answers
// differently on purpose (or not yet) says so with `differs`, and the real
// package must then answer differently: the test as written must fail on it,
// or, where it cannot run there, `real` asserts Express's own answer.
import assert from 'node:assert/strict';
import { createRequire } from 'node:module';
import { test } from 'node:test';
import trestle from 'trestle';
import trestleLegacy from 'trestle/legacy';
import trestleV4 from 'trestle/v4';

/** The three entries of one side, typed as trestle's (Express's share their API). */
export interface Family {
  /** 'trestle' or 'express' */
  side: 'trestle' | 'express';
  v5: typeof trestle;
  v4: typeof trestleV4;
  legacy: typeof trestleLegacy;
  /** What X-Powered-By says on this side. */
  poweredBy: string;
}

const localRequire = createRequire(__filename);

export const TRESTLE: Family = { side: 'trestle', v5: trestle, v4: trestleV4, legacy: trestleLegacy, poweredBy: 'Trestle' };
export const EXPRESS: Family = {
  side: 'express',
  v5: localRequire('express5') as typeof trestle,
  v4: localRequire('express4') as typeof trestleV4,
  legacy: localRequire('express3') as typeof trestleLegacy,
  poweredBy: 'Express',
};

export interface Differs {
  /** Why trestle answers differently from the real package. */
  why: string;
  /** Asserts the real package's answer, where running the test there cannot work (it would end the process). */
  real?: (x: Family) => void | Promise<void>;
}

/**
 * Defines the test `name` on trestle and on the real Express. Without
 * `differs`, both must pass; with it, the real package must fail the test
 * (or pass `differs.real`), and the test's name gives the reason.
 */
export function twinTest(name: string, body: (x: Family) => void | Promise<void>, differs?: Differs | string): void {
  test(`${name} (trestle)`, () => body(TRESTLE));
  const d = typeof differs === 'string' ? { why: differs } : differs;
  if (d === undefined) test(`${name} (express)`, () => body(EXPRESS));
  else if (d.real !== undefined) test(`${name} (express differs: ${d.why})`, () => d.real!(EXPRESS));
  else test(`${name} (express differs: ${d.why})`, () => assert.rejects(async () => body(EXPRESS), `Express now answers "${name}" as trestle does: drop its differs note`));
}
