// `node --require trestle/upgrade/register app.js` (or in NODE_OPTIONS for a
// test run): the app's `require('express')` loads trestle/v4 and the upgrade
// report is on, written to TRESTLE_UPGRADE_REPORT (upgrade-report.md when
// unset) when each process exits. The run's first process (the one whose
// parent did not have the report on) also writes the report when it exits,
// and says loudly when no process of the run loaded trestle/v4.
import { randomBytes } from 'node:crypto';
import { isMainThread } from 'node:worker_threads';
import { redirectExpress } from './hook';
import { finishRun, reportTarget } from './persist';

// Absolute, so every process of the run (whatever its working directory) writes the same file.
const target = reportTarget(process.env.TRESTLE_UPGRADE_REPORT || 'upgrade-report.md');
process.env.TRESTLE_UPGRADE_REPORT = target;
if (!process.env.TRESTLE_UPGRADE_RUN && isMainThread) {
  const run = `${process.pid}-${randomBytes(4).toString('hex')}`;
  process.env.TRESTLE_UPGRADE_RUN = run;
  process.on('exit', () => {
    try {
      finishRun(target, run);
    } catch (err) {
      process.stderr.write(`trestle upgrade report: cannot write ${target}: ${(err as Error).message}\n`);
    }
  });
}
redirectExpress();
