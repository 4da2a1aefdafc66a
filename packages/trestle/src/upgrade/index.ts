// `trestle/upgrade`: what an Express 4 app must change for Express 5. This
// part reads route paths (translate, verify, the route table); nothing here
// is loaded by the framework entries, so an app that does not ask pays nothing.
export { translatePath, regexpForm, type PathTranslation, type Suggestion } from './translate';
export { verifyPath, type Verification, type Counterexample, type Outcome, type ParamRename, type MatchOptions } from './verify';
export { routeTable, routeFindings, type TableEntry, type RouteEntry, type ParamEntry } from './routes';
