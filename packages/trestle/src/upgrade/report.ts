// The report itself: findings merged (from one process or several) and
// written as Markdown for people or JSON for tools. The JSON schema is in
// docs/migrating-v4.md ("The upgrade report").
import { existsSync } from 'node:fs';
import { dirname, join, relative, resolve, sep } from 'node:path';
import { anchorOf, DOCS_PAGE, KINDS } from './kinds';
import { type Finding, findingKey } from './store';

export interface ReportFinding extends Finding {
  /** The Express 4 form, what Express 5 does instead, and the Express 5 form (this place's, or the kind's). */
  form: string;
  change: string;
  express5: string;
  /** The finding's entry in the migration guide: `migrating-v4.md#upgrade-<kind>`. */
  docs: string;
}

/** A process that loaded trestle/v4 with the report on: its id and command line. */
export interface ProcessInfo {
  pid: number;
  argv: string[];
}

export interface Report {
  version: 1;
  /** How many processes' findings were merged. */
  processes: number;
  /** The processes that loaded trestle/v4 (their findings merged); empty when none did: then nothing was checked. */
  loadedBy: ProcessInfo[];
  /** Sorted by dependency (the app's own first), file, line and column. */
  findings: ReportFinding[];
  /** Places that met a changed behaviour but need no change (a guarded read, a dependency's read), each with its `noChange` reason: never among `findings`. */
  noChange: ReportFinding[];
  /** Places the source pass found (`source: true`) that the run never reached: apart from what was seen running. */
  fromSource: ReportFinding[];
}

/** Findings from several processes, one per place (counts summed). */
export function mergeFindings(lists: Finding[][]): Finding[] {
  const merged = new Map<string, Finding>();
  for (const list of lists) {
    for (const f of list) {
      const key = findingKey(f);
      const seen = merged.get(key);
      if (seen === undefined) merged.set(key, { ...f });
      else seen.count += f.count;
    }
  }
  return [...merged.values()];
}

function order(a: Finding, b: Finding): number {
  return (a.dependency ?? '').localeCompare(b.dependency ?? '') || a.file.localeCompare(b.file) || a.line - b.line || a.column - b.column || a.kind.localeCompare(b.kind);
}

function describe(f: Finding): ReportFinding {
  const kind = KINDS[f.kind];
  return { ...f, form: kind.form, change: kind.change, express5: f.express5 ?? kind.express5, docs: `${DOCS_PAGE}#${anchorOf(f.kind)}` };
}

/** The report of `findings` (seen running) and `source` (found in the source: kept where the run saw nothing of that kind on that line). */
export function buildReport(findings: Finding[], processes: number, loadedBy: ProcessInfo[] = [], source: Finding[] = []): Report {
  const list = findings.filter((f) => f.kind in KINDS).sort(order).map(describe);
  const seen = new Set(list.map((f) => `${f.kind} ${f.file}:${f.line}`));
  const fromSource = source.filter((f) => f.kind in KINDS && !seen.has(`${f.kind} ${f.file}:${f.line}`)).sort(order).map(describe);
  return { version: 1, processes, loadedBy, findings: list.filter((f) => f.noChange === undefined), noChange: list.filter((f) => f.noChange !== undefined), fromSource };
}

// This file is dist/upgrade/report.js: the package's root is two folders up.
const packageRoot = resolve(__dirname, '..', '..');

/**
 * The migration guide the report links, as a file: the copy shipped in the
 * installed package (`trestle/docs/migrating-v4.md`, see scripts/package-docs.mjs),
 * or in trestle's checkout (it has `src/`, which the package does not ship)
 * the repository's own page.
 */
export function guideFile(): string | undefined {
  const checkout = existsSync(join(packageRoot, 'src')) ? resolve(packageRoot, '..', '..', 'docs', DOCS_PAGE) : undefined;
  for (const file of [checkout, join(packageRoot, 'docs', DOCS_PAGE)]) if (file !== undefined && existsSync(file)) return file;
  return undefined;
}

/**
 * Where the Markdown links the guide: TRESTLE_UPGRADE_DOCS if set (a URL),
 * else the guide's file as a path relative to the report, so the links
 * resolve from the user's project; the page's name only when no copy is
 * on disk.
 */
function docsBase(reportDir: string): string {
  const given = process.env.TRESTLE_UPGRADE_DOCS;
  if (given) return given;
  const file = guideFile();
  return file === undefined ? DOCS_PAGE : relative(reportDir, file).split(sep).join('/');
}

function plural(n: number, noun: string): string {
  return `${n} ${noun}${n === 1 ? '' : 's'}`;
}

function code(text: string): string {
  const ticks = text.includes('`') ? '`` ' : '`';
  return `${ticks}${text}${ticks === '`' ? '`' : ' ``'}`;
}

/** A path finding's first line: the path, its methods, what Express 5 does with it. */
function pathWhat(f: ReportFinding): string {
  const p = f.path!;
  const methods = p.methods.length === 0 ? '' : ` (${p.methods.join(', ')})`;
  const what = p.change === 'rejected' ? `Express 5 rejects it${p.error ? ` (${p.error})` : ''}` : 'Express 5 matches other URLs with it as written';
  return `${f.kind === 'mount-path' ? 'mount path' : 'route path'} ${code(p.v4)}${methods}: ${what}.`;
}

function findingLines(f: ReportFinding, docs: string): string[] {
  const where = `- **line ${f.line}**`;
  const tail = ` · [guide](${docs}#${anchorOf(f.kind)})${f.count > 1 ? ` · ${f.count} times` : ''}`;
  const p = f.path;
  if (p === undefined) return [`${where} ${code(f.detail)}: ${f.change}.`, `  Express 5: ${code(f.express5)}${tail}`];
  const check = p.equivalent ? 'verified: the same URLs, the same params' : 'not equivalent on every sample: see the notes';
  return [`${where} ${pathWhat(f)}`, `  Express 5: ${code(p.suggestion)} (${check})${tail}`, ...p.notes.map((note) => `  ${note}`)];
}

function summary(report: Report, docs: string): string[] {
  const counts = new Map<string, number>();
  for (const f of report.findings) counts.set(f.kind, (counts.get(f.kind) ?? 0) + 1);
  const rows = [...counts].map(([kind, n]) => `| [${KINDS[kind as keyof typeof KINDS].form}](${docs}#${anchorOf(kind as keyof typeof KINDS)}) | ${n} |`);
  return ['| finding | places |', '|---|---:|', ...rows];
}

/** The loud notice of a run in which no process loaded trestle/v4 (also printed on stderr). */
export const NOTHING_LOADED =
  "NO PROCESS LOADED trestle/v4: nothing was checked, so this is not a report of \"nothing to change\". The app's require('express') never reached trestle/v4: under Vitest or Jest, map express to trestle/v4 in the runner's configuration (see the guide's recipes).";

const SHOWN_PROCESSES = 20;

/** Which processes loaded trestle/v4: the run's proof that something was checked. */
function processLines(report: Report, docs: string): string[] {
  if (report.loadedBy.length === 0) return [`**${NOTHING_LOADED}** ([recipes](${docs}#upgrade-runners))`, ''];
  const shown = report.loadedBy.slice(0, SHOWN_PROCESSES).map((p) => `- pid ${p.pid}: ${code(p.argv.length === 0 ? 'node -e (no script)' : p.argv.join(' ').slice(0, 200))}`);
  const more = report.loadedBy.length - shown.length;
  return [`Loaded trestle/v4 with the report on: ${report.loadedBy.length} process${report.loadedBy.length === 1 ? '' : 'es'}.`, '', ...shown, ...(more > 0 ? [`- and ${more} more`] : []), ''];
}

/** The places only the source pass found, apart from what ran. */
function sourceLines(report: Report, reportDir: string, docs: string): string[] {
  if (report.fromSource.length === 0) return [];
  const out = ['## Found in the source, not seen running', '', `Places the run never reached, found by reading the app's source: ${report.fromSource.length}. Check each: a read the app's requests always give a value to needs no change.`, ''];
  let heading = '';
  for (const f of report.fromSource) {
    const title = `### ${code(relative(reportDir, f.file) || f.file)}`;
    if (title !== heading) out.push(...(heading === '' ? [] : ['']), title, '');
    heading = title;
    out.push(...findingLines(f, docs));
  }
  return [...out, ''];
}

/** The places that need no change, apart from the findings: each with why. */
function noChangeLines(report: Report, reportDir: string): string[] {
  if (report.noChange.length === 0) return [];
  const lines = report.noChange.map((f) => `- ${code(`${relative(reportDir, f.file) || f.file}:${f.line}`)} ${f.form}: ${f.noChange}${f.count > 1 ? ` · ${f.count} times` : ''}`);
  return ['## No change expected', '', `Places that met a changed behaviour where the code already copes (not findings: nothing to change there): ${report.noChange.length}.`, '', ...lines, ''];
}

/** The report as Markdown; file names relative to `reportDir`. */
export function renderMarkdown(report: Report, reportDir: string): string {
  const docs = docsBase(reportDir);
  const files = new Set(report.findings.map((f) => f.file));
  const from = report.processes === 1 ? '' : ` (merged from ${report.processes} processes)`;
  const out = ['# Express 5 upgrade report', ''];
  if (report.loadedBy.length === 0) return [...out, ...processLines(report, docs)].join('\n');
  if (report.findings.length === 0) {
    out.push(`No finding${from}: nothing this app did on trestle/v4 behaves differently on Express 5. Only the code that ran was checked.`, '');
    out.push(...processLines(report, docs), ...sourceLines(report, reportDir, docs), ...noChangeLines(report, reportDir));
    return out.join('\n');
  }
  out.push(`What this app does on trestle/v4 that Express 5 does differently: ${plural(report.findings.length, 'finding')} in ${plural(files.size, 'file')}${from}. Only the code that ran was checked; each finding links to its entry in the migration guide.`, '');
  out.push(...summary(report, docs), '');
  out.push(...processLines(report, docs));
  let heading = '';
  for (const f of report.findings) {
    const name = relative(reportDir, f.file) || f.file;
    const title = f.dependency === undefined ? `## ${code(name)}` : `## ${code(name)} (in the dependency ${f.dependency})`;
    if (title !== heading) out.push(...(heading === '' ? [] : ['']), title, '');
    heading = title;
    out.push(...findingLines(f, docs));
  }
  out.push('', ...sourceLines(report, reportDir, docs), ...noChangeLines(report, reportDir));
  return out.join('\n');
}

export function renderJson(report: Report): string {
  return `${JSON.stringify(report, null, 2)}\n`;
}

/** The report in the format its file name says (`.json`: JSON, else Markdown). */
export function render(report: Report, target: string): string {
  return target.endsWith('.json') ? renderJson(report) : renderMarkdown(report, dirname(target));
}
