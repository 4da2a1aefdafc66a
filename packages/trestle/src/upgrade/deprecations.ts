// Express 4's deprecation warnings (depd: `trestle deprecated res.send(status,
// body) ... at app.js:12:9`) name the first frame below the module that
// warned. With the report on, the report's wrapper is that frame: depd would
// name dist/upgrade/wrap.js. depd reads the stack as call sites, through
// Error.captureStackTrace with its own Error.prepareStackTrace; while that
// one is installed, the report's frames are taken out of what it gets, so
// the warning names the app's line again. Other stacks are left alone.
import { sep } from 'node:path';

type CallSite = NodeJS.CallSite;
type Capture = (target: object, constructorOpt?: Function) => void;

// This file's folder: dist/upgrade/.
const REPORT = __dirname + sep;

/** depd's Error.prepareStackTrace: it returns the call sites themselves. */
function isDepds(prepare: unknown): boolean {
  return typeof prepare === 'function' && prepare.name === 'prepareObjectStackTrace';
}

function notReport(site: CallSite): boolean {
  return !(site.getFileName() ?? '').startsWith(REPORT);
}

let installed = false;

/** From now on, depd's stacks leave out the report's frames. */
export function hideReportFrames(): void {
  if (installed) return;
  installed = true;
  const capture = Error.captureStackTrace as Capture;
  const captureStackTrace: Capture = function captureStackTrace(target, constructorOpt) {
    // This function's own frame is never part of the stack.
    capture(target, constructorOpt ?? captureStackTrace);
    if (!isDepds(Error.prepareStackTrace)) return;
    const sites = (target as { stack?: unknown }).stack;
    if (Array.isArray(sites)) {
      Object.defineProperty(target, 'stack', { value: (sites as CallSite[]).filter(notReport), writable: true, configurable: true });
    }
  };
  Error.captureStackTrace = captureStackTrace as typeof Error.captureStackTrace;
}
