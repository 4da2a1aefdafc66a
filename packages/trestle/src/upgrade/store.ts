// The findings this process made, once per place: a form used at one line
// a thousand times is one finding with a count.
import type { FindingKind } from './kinds';
import { callSite, type Site } from './site';

/** A route or mount path's finding: the path, and its verified Express 5 form. */
export interface PathDetail {
  /** The path as the app registered it. */
  v4: string;
  /** `rejected`: Express 5 throws on it; `different`: Express 5 matches other URLs with it. */
  change: 'rejected' | 'different';
  /** Express 5's error for the path as written (`rejected`). */
  error?: string;
  /** The Express 5 path, as code (`'/users{/:id}'`, or a RegExp literal). */
  suggestion: string;
  /** The suggestion matches exactly the URLs the v4 path matched, on every sample tried. */
  equivalent: boolean;
  /** Parameters that change name: `req.params[0]` → `req.params.path`. */
  renames: { v4: string; v5: string; joined: boolean }[];
  notes: string[];
  /** A route's methods (upper case; `ALL` for app.all); empty for a mount. */
  methods: string[];
}

export interface Finding {
  kind: FindingKind;
  /** Where in the app: absolute file, line and column; `dependency` names the package when the place is in node_modules. */
  file: string;
  line: number;
  column: number;
  dependency?: string;
  /** The call or read as it happened at this place (`res.send(201, body)`, the query string read). */
  detail: string;
  /** The Express 5 form for this very place, where it can be said more exactly than the kind's. */
  express5?: string;
  /** How often this place did it (summed over processes). */
  count: number;
  path?: PathDetail;
  /** Why this place needs no change though it met the behaviour (a guarded read, a dependency's read): listed apart, never among the findings. */
  noChange?: string;
  /** Found by reading the source (source.ts), not seen running. */
  source?: true;
}

export interface Extra {
  express5?: string;
  path?: PathDetail;
  noChange?: string;
}

type Listener = () => void;

const found = new Map<string, Finding>();
let listener: Listener | undefined;

/** Called when a new finding is made (the writer schedules a flush). */
export function onFinding(fn: Listener): void {
  listener = fn;
}

/** Records `kind` at `site` (by default the caller of trestle's member, see callSite); nothing without a place. */
export function record(kind: FindingKind, detail: string, extra: Extra = {}, site: Site | undefined = callSite('caller')): void {
  if (site === undefined) return;
  const finding: Finding = { kind, file: site.file, line: site.line, column: site.column, detail, count: 1 };
  if (extra.path !== undefined) finding.path = extra.path;
  const key = findingKey(finding);
  const seen = found.get(key);
  if (seen !== undefined) {
    seen.count++;
    return;
  }
  if (site.dependency !== undefined) finding.dependency = site.dependency;
  if (extra.express5 !== undefined) finding.express5 = extra.express5;
  if (extra.noChange !== undefined) finding.noChange = extra.noChange;
  found.set(key, finding);
  listener?.();
}

/** This process's findings so far. */
export function findings(): Finding[] {
  return [...found.values()];
}

/** The identity of a finding: kind and place (and the path: one line may register two). */
export function findingKey(f: Finding): string {
  return `${f.kind}\u0000${f.file}:${f.line}:${f.column}\u0000${f.path?.v4 ?? ''}`;
}
