// `trestle/upgrade`: what an Express 4 app must change for Express 5: route
// paths (translate, verify, the route table), and the report's findings
// and formats for tools that read or write reports. The framework entries
// load none of it unless the report is on (TRESTLE_UPGRADE_REPORT).
export { translatePath, regexpForm, type PathTranslation, type Suggestion } from './translate';
export { verifyPath, type Verification, type Counterexample, type Outcome, type ParamRename, type MatchOptions } from './verify';
export { routeTable, routeFindings, type TableEntry, type RouteEntry, type ParamEntry } from './routes';
export { KINDS, type FindingKind, type KindInfo } from './kinds';
export type { Finding, PathDetail } from './store';
export { buildReport, mergeFindings, renderMarkdown, renderJson, type Report, type ReportFinding } from './report';
