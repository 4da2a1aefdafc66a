#!/usr/bin/env node
// `trestle upgrade-report ./app.js [--out report.md | --json] [--wait ms] [-- app args]`:
// loads an Express 4 app's module on trestle/v4 (its `require('express')`
// answered with trestle/v4) in a child process (load.ts), without letting
// it listen, and writes what its loading registered that changes on
// Express 5: route and mount paths with their verified Express 5 form, and
// the forms used while loading (app.del, app.param(fn), express.static.mime ...).
import { spawn } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import type { LoadOptions, LoadRecord } from './load';
import { buildReport, render, renderJson, renderMarkdown, type Report } from './report';

const USAGE = `Usage: trestle upgrade-report <app module> [--out <file.md|file.json>] [--json] [--wait <ms>] [--call] [-- <app arguments>]

Loads the module on trestle/v4 (require('express') answers trestle/v4; servers do
not listen) and reports what it registered that changes on Express 5: route and
mount paths with their verified Express 5 form, and the removed forms used while
loading. Markdown on stdout unless --out names a file (.json: JSON) or --json.
--call: the module exports a function that makes the app: call it (no arguments).
--wait: milliseconds to wait after loading, for apps that add routes later.
After --, arguments for the app: its process.argv is [node, <app module>, ...them].
Exit code: 0; 1 if the app threw while loading; 3 if it called process.exit()
before the report was written (the report is written all the same); 2 for usage.
For what the app does on requests, run it or its tests with
TRESTLE_UPGRADE_REPORT=report.md (see trestle's docs/migrating-v4.md).`;

interface Options {
  module: string;
  out?: string;
  json: boolean;
  wait: number;
  call: boolean;
  /** The app's own arguments, after `--`. */
  args: string[];
}

/** The exit code when the app called process.exit() before the report was written. */
const APP_EXITED = 3;

function parse(argv: string[]): Options | string {
  if (argv[0] !== 'upgrade-report') return argv[0] === undefined || argv[0] === '--help' || argv[0] === '-h' ? '' : `unknown command ${argv[0]}`;
  const options: Partial<Options> = { json: false, wait: 0, call: false, args: [] };
  for (let i = 1; i < argv.length; i++) {
    const arg = argv[i]!;
    if (arg === '--') {
      options.args = argv.slice(i + 1);
      break;
    }
    if (arg === '--json') options.json = true;
    else if (arg === '--call') options.call = true;
    else if (arg === '--out') options.out = argv[++i];
    else if (arg === '--wait') options.wait = Number(argv[++i]);
    else if (arg === '--help' || arg === '-h') return '';
    else if (arg.startsWith('-') || options.module !== undefined) return `unexpected argument ${arg}`;
    else options.module = arg;
  }
  if (options.module === undefined) return 'no app module given';
  if (options.out === '' || !Number.isFinite(options.wait)) return 'bad --out or --wait';
  return options as Options;
}

/** Writes the report: to `--out`, else on stdout (only the report is ever written there). */
function writeReport(options: Options, report: Report): void {
  if (options.out !== undefined) {
    const out = resolve(options.out);
    mkdirSync(dirname(out), { recursive: true });
    writeFileSync(out, options.json ? renderJson(report) : render(report, out));
  } else process.stdout.write(options.json ? renderJson(report) : renderMarkdown(report, process.cwd()));
}

/**
 * Runs load.js in a child process of its own: the app's stdout is this
 * command's stderr (stdout is the report's), nothing of this process is
 * replaced, and an app that calls process.exit() ends only its own process.
 */
function runChild(options: Options, record: string): Promise<{ code: number | null; signal: NodeJS.Signals | null }> {
  const load: LoadOptions = { module: resolve(options.module), call: options.call, wait: options.wait, record };
  // The report names each place; Express 4's deprecation warnings would repeat them.
  const noDeprecation = [process.env.NO_DEPRECATION, 'trestle'].filter(Boolean).join(',');
  const child = spawn(process.execPath, [...process.execArgv, join(__dirname, 'load.js'), ...options.args], {
    env: { ...process.env, NO_DEPRECATION: noDeprecation, TRESTLE_UPGRADE_LOAD: JSON.stringify(load) },
    stdio: ['inherit', 2, 'inherit'],
  });
  return new Promise((done, fail) => {
    child.on('error', fail);
    child.on('exit', (code, signal) => done({ code, signal }));
  });
}

function readRecord(file: string): LoadRecord | undefined {
  try {
    return JSON.parse(readFileSync(file, 'utf8')) as LoadRecord;
  } catch {
    return undefined;
  }
}

async function main(argv: string[]): Promise<number> {
  const options = parse(argv);
  if (typeof options === 'string') {
    process[options ? 'stderr' : 'stdout'].write(`${options ? `trestle: ${options}\n\n` : ''}${USAGE}\n`);
    return options ? 2 : 0;
  }
  const scratch = mkdtempSync(join(tmpdir(), 'trestle-upgrade-report-'));
  try {
    const ended = await runChild(options, join(scratch, 'record.json'));
    const record = readRecord(join(scratch, 'record.json'));
    if (record === undefined) {
      process.stderr.write(`trestle: the process loading ${options.module} ended (${ended.signal ?? `exit code ${ended.code}`}) without writing what it found: no report\n`);
      return 1;
    }
    const source = process.env.TRESTLE_UPGRADE_SOURCE === '0' ? [] : (require('./source') as typeof import('./source')).scanSources(process.cwd());
    writeReport(options, buildReport(record.findings, 1, [{ pid: record.pid, argv: record.argv }], source));
    if (record.outcome === 'exited') {
      process.stderr.write(`trestle: ${options.module} called process.exit(${record.code}) before the report was written; the report holds what it registered before\n`);
      return APP_EXITED;
    }
    if (record.outcome === 'loaded') return 0;
    process.stderr.write(`trestle: ${options.module} threw while loading (the report holds what it registered before):\n${record.error}\n`);
    return 1;
  } finally {
    rmSync(scratch, { recursive: true, force: true });
  }
}

main(process.argv.slice(2)).then(
  (code) => {
    // Nothing else is open here: the process ends once stdout is written.
    process.exitCode = code;
  },
  (err: unknown) => {
    process.stderr.write(`${(err as Error)?.stack ?? String(err)}\n`);
    process.exitCode = 1;
  },
);
