// `node --require trestle/upgrade/register app.js` (or in NODE_OPTIONS for a
// test run): the app's `require('express')` loads trestle/v4 and the upgrade
// report is on, written to TRESTLE_UPGRADE_REPORT (upgrade-report.md when
// unset) when each process exits.
import { redirectExpress } from './hook';

process.env.TRESTLE_UPGRADE_REPORT ||= 'upgrade-report.md';
redirectExpress();
