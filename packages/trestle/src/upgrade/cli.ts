#!/usr/bin/env node
// `trestle upgrade-report ./app.js [--out report.md | --json] [--wait ms] [-- app args]`:
// loads an Express 4 app's module on trestle/v4 (its `require('express')`
// answered with trestle/v4), without letting it listen, and writes what
// its loading registered that changes on Express 5: route and mount paths
// with their verified Express 5 form, and the forms used while loading
// (app.del, app.param(fn), express.static.mime ...).
import { mkdirSync, writeFileSync } from 'node:fs';
import net from 'node:net';
import { dirname, resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import type { Framework } from '../framework';
import { redirectExpress } from './hook';
import { instrument } from './instrument';
import { buildReport, render, renderJson, renderMarkdown } from './report';
import { findings } from './store';

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

/** Servers the app starts are told they listen, without binding: the command serves nothing. */
function stopListening(): void {
  net.Server.prototype.listen = function (this: net.Server) {
    return this;
  } as typeof net.Server.prototype.listen;
}

/** The module's export (`default` for an ES module). */
async function importModule(file: string): Promise<unknown> {
  try {
    const exported = require(file) as { default?: unknown; [Symbol.toStringTag]?: unknown } | undefined;
    // Node 20.19 and 22.12 on require an ES module: its namespace.
    return exported?.[Symbol.toStringTag] === 'Module' ? exported.default : exported;
  } catch (err) {
    if ((err as { code?: string }).code !== 'ERR_REQUIRE_ESM' && !file.endsWith('.mjs')) throw err;
  }
  return ((await import(pathToFileURL(file).href)) as { default?: unknown }).default;
}

/** Loads the app (calling its factory with `call`); the error it threw, if any. */
async function load(file: string, call: boolean): Promise<unknown> {
  try {
    const exported = await importModule(file);
    if (call && typeof exported === 'function') await (exported as () => unknown)();
    return undefined;
  } catch (err) {
    return err;
  }
}

/** A database the app cannot reach rejects later: said on stderr, and the report is written all the same. */
function survive(): void {
  const say = (err: unknown) => process.stderr.write(`trestle: the app failed after loading (ignored): ${(err as Error)?.stack ?? String(err)}\n`);
  process.on('unhandledRejection', say);
  process.on('uncaughtException', say);
}

/** Writes the report of what was found so far: to `--out`, else on stdout. */
function writeReport(options: Options): void {
  const report = buildReport(findings(), 1);
  if (options.out !== undefined) {
    const out = resolve(options.out);
    mkdirSync(dirname(out), { recursive: true });
    writeFileSync(out, options.json ? renderJson(report) : render(report, out));
  } else process.stdout.write(options.json ? renderJson(report) : renderMarkdown(report, process.cwd()));
}

/**
 * An app that calls process.exit() while it loads (a command line it finds
 * wrong, a config it cannot read) still gets its report, written as the
 * process exits, and the command's exit code says it exited.
 */
function reportOnExit(options: Options, restore: () => void): () => void {
  const onExit = (code: number) => {
    restore();
    writeReport(options);
    process.stderr.write(`trestle: ${options.module} called process.exit(${code}) before the report was written; the report holds what it registered before\n`);
    process.exitCode = APP_EXITED;
  };
  process.on('exit', onExit);
  return () => process.off('exit', onExit);
}

async function main(argv: string[]): Promise<number> {
  const options = parse(argv);
  if (typeof options === 'string') {
    process[options ? 'stderr' : 'stdout'].write(`${options ? `trestle: ${options}\n\n` : ''}${USAGE}\n`);
    return options ? 2 : 0;
  }
  // The report names each place; Express 4's deprecation warnings would repeat them.
  process.env.NO_DEPRECATION = [process.env.NO_DEPRECATION, 'trestle'].filter(Boolean).join(',');
  redirectExpress();
  stopListening();
  instrument(require('../v4') as Framework);
  const file = resolve(options.module);
  // The app sees the command line it would have run with: `node app.js ...args`.
  process.argv = [process.argv[0]!, file, ...options.args];
  // What the app prints goes to stderr: stdout is the report's.
  const write = process.stdout.write;
  const restore = () => {
    process.stdout.write = write;
  };
  process.stdout.write = process.stderr.write.bind(process.stderr) as typeof write;
  const stopWatchingExit = reportOnExit(options, restore);
  survive();
  const failure = await load(file, options.call);
  await new Promise((done) => setTimeout(done, options.wait));
  stopWatchingExit();
  restore();
  writeReport(options);
  if (failure === undefined) return 0;
  process.stderr.write(`trestle: ${options.module} threw while loading (the report holds what it registered before):\n${(failure as Error)?.stack ?? String(failure)}\n`);
  return 1;
}

main(process.argv.slice(2)).then(
  (code) => process.exit(code),
  (err: unknown) => {
    process.stderr.write(`${(err as Error)?.stack ?? String(err)}\n`);
    process.exit(1);
  },
);
