// TRESTLE_UPGRADE_REPORT set when trestle/v4 loads: the report's checks are
// installed and the report is written when the process exits. The entry
// asks for this module only then, so without the variable it is not loaded.
import type { Framework } from '../framework';
import { instrument } from './instrument';
import { reportTarget, writeAtExit } from './persist';

let target: string | undefined;

export function enableFromEnv(framework: Framework, value: string): void {
  instrument(framework);
  if (target !== undefined) return;
  target = reportTarget(value);
  // Child processes (a test runner's workers) inherit the same file, whatever their working directory.
  process.env.TRESTLE_UPGRADE_REPORT = target;
  writeAtExit(target);
}
