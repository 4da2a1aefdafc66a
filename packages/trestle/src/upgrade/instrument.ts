// Installs the upgrade report's checks on a trestle/v4 framework: its
// prototypes' members are replaced by checked ones, once. Only done when
// the report is on (TRESTLE_UPGRADE_REPORT, or the command), so an app
// running without it runs the prototypes as built.
import type { Framework } from '../framework';
import { checkApplication, checkFactory, checkRequest, checkResponse } from './calls';
import { checkContentTypes, checkFileTypes } from './content-types';
import { hideReportFrames } from './deprecations';
import { checkRegistrations } from './paths';
import { checkBodyParsers, checkHost, checkQuery, checkQueryMembers, checkRejections } from './runtime';

const instrumented = new WeakSet<object>();

/** Makes `framework` (trestle/v4's factory) record every upgrade finding from now on. */
export function instrument(framework: Framework): void {
  if (instrumented.has(framework)) return;
  instrumented.add(framework);
  hideReportFrames();
  checkResponse(framework.response);
  checkContentTypes(framework.response);
  checkFileTypes(framework as unknown as { static: unknown }, framework.response);
  checkRequest(framework.request);
  checkApplication(framework.application, framework.Router);
  checkFactory(framework);
  checkBodyParsers(framework as unknown as Record<string, unknown>);
  checkQuery(framework.request, framework.application);
  // After checkQuery: its reads see the parsed object, the app the Proxy.
  checkQueryMembers(framework.request);
  checkHost(framework.request);
  checkRejections();
  checkRegistrations(framework.Router);
}
