// TRESTLE_UPGRADE_REPORT=report.md: each process that ran trestle/v4 keeps
// its findings in a file of its own in `report.md.d/` and writes the merged
// report from all of them. Files are written whole and renamed into place,
// so a reader never sees half of one; after writing the report a process
// lists the records again and writes once more if any changed meanwhile, so
// the last report written holds every process's findings, whatever order
// a test runner's workers exit in.
import { randomBytes } from 'node:crypto';
import { mkdirSync, readdirSync, readFileSync, renameSync, statSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { buildReport, mergeFindings, NOTHING_LOADED, render } from './report';
import { type Finding, findings, onFinding } from './store';

/** A process's record in the sidecar directory. */
interface ProcessRecord {
  version: 1;
  pid: number;
  argv: string[];
  /** The run it belongs to (TRESTLE_UPGRADE_RUN, set by trestle/upgrade/register in the run's first process). */
  run?: string;
  findings: Finding[];
}

/** The report file the variable names: relative to the working directory; `1` or `true` for `upgrade-report.md`. */
export function reportTarget(value: string): string {
  return resolve(value === '1' || value === 'true' ? 'upgrade-report.md' : value);
}

export function sidecarOf(target: string): string {
  return `${target}.d`;
}

/** Does this process write its record at exit (it loaded trestle/v4 with the report on)? */
let writesAtExit = false;

const token = `${process.pid}-${randomBytes(4).toString('hex')}`;

function writeWhole(file: string, text: string): void {
  const tmp = `${file}.${token}.tmp`;
  writeFileSync(tmp, text);
  renameSync(tmp, file);
}

/** The records present, each with what identifies its version (size and mtime). */
function listRecords(dir: string): Map<string, string> {
  const out = new Map<string, string>();
  for (const name of readdirSync(dir)) {
    if (!name.endsWith('.json')) continue;
    try {
      const s = statSync(join(dir, name));
      out.set(name, `${s.size}:${s.mtimeMs}`);
    } catch {
      // Removed meanwhile: it is not part of the report.
    }
  }
  return out;
}

function sameRecords(a: Map<string, string>, b: Map<string, string>): boolean {
  return a.size === b.size && [...a].every(([name, version]) => b.get(name) === version);
}

function readRecords(dir: string, names: Iterable<string>): ProcessRecord[] {
  const out: ProcessRecord[] = [];
  for (const name of names) {
    try {
      out.push(JSON.parse(readFileSync(join(dir, name), 'utf8')) as ProcessRecord);
    } catch {
      // Not a record (or removed): left out.
    }
  }
  return out;
}

/** The source pass's findings, written by the run's first process (SOURCE_FILE in the sidecar). */
const SOURCE_FILE = 'source-findings';

function readSource(dir: string): Finding[] {
  try {
    return JSON.parse(readFileSync(join(dir, SOURCE_FILE), 'utf8')) as Finding[];
  } catch {
    return [];
  }
}

/**
 * Reads the app's source (the run's working directory) for the places the
 * run never reached; off with TRESTLE_UPGRADE_SOURCE=0. source.ts and its
 * parser are loaded only now.
 */
function writeSource(dir: string): void {
  if (process.env.TRESTLE_UPGRADE_SOURCE === '0') return;
  const { scanSources } = require('./source') as typeof import('./source');
  writeWhole(join(dir, SOURCE_FILE), JSON.stringify(scanSources(process.cwd())));
}

/** Writes `target` from every record in its sidecar directory. */
export function regenerate(target: string): void {
  const dir = sidecarOf(target);
  // Bounded: each round is caused by another process writing, which then writes the report itself.
  for (let round = 0; round < 20; round++) {
    const before = listRecords(dir);
    const records = readRecords(dir, before.keys());
    const loadedBy = records.map((r) => ({ pid: r.pid, argv: r.argv }));
    const report = buildReport(mergeFindings(records.map((r) => r.findings)), records.length, loadedBy, readSource(dir));
    writeWhole(target, render(report, target));
    if (sameRecords(before, listRecords(dir))) return;
  }
}

/** Writes this process's record, then the merged report. */
export function flush(target: string): void {
  const dir = sidecarOf(target);
  mkdirSync(dir, { recursive: true });
  const record: ProcessRecord = { version: 1, pid: process.pid, argv: process.argv.slice(1), findings: findings() };
  const run = process.env.TRESTLE_UPGRADE_RUN;
  if (run) record.run = run;
  writeWhole(join(dir, `${token}.json`), JSON.stringify(record));
  regenerate(target);
}

/**
 * Writes when new findings were made (once the code that made them has run:
 * a promise job, which test runners' fake timers leave alone) and at exit
 * (for the counts). A worker its test runner kills has written its places.
 */
export function writeAtExit(target: string): void {
  writesAtExit = true;
  let pending = false;
  const write = () => {
    pending = false;
    try {
      flush(target);
    } catch (err) {
      process.emitWarning(`trestle upgrade report: cannot write ${target}: ${(err as Error).message}`);
    }
  };
  onFinding(() => {
    if (pending) return;
    pending = true;
    void Promise.resolve().then(write);
  });
  process.on('exit', write);
}

/**
 * The end of a run (its first process exiting, see register.ts): the report
 * is written whatever happened, and when no process of this run loaded
 * trestle/v4 (Vitest's own module loader, a wrong mapping), it says so, and
 * so does stderr: a silent run must not read as "nothing to change".
 */
export function finishRun(target: string, run: string): void {
  const dir = sidecarOf(target);
  mkdirSync(dir, { recursive: true });
  writeSource(dir);
  // This process loaded trestle/v4: its own exit handler writes the report (it runs after this one).
  if (writesAtExit) return;
  const loaded = readRecords(dir, listRecords(dir).keys()).some((r) => r.run === run);
  if (loaded) return regenerate(target);
  const report = buildReport([], 0, []);
  writeWhole(target, render(report, target));
  process.stderr.write(`\ntrestle upgrade report: ${NOTHING_LOADED}\n  Run: ${process.argv.slice(1).join(' ')}\n  Written to ${target}\n\n`);
}
