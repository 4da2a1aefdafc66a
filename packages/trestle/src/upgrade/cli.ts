#!/usr/bin/env node
// `trestle upgrade-report ./app.js [--out report.md | --json] [--wait ms]`:
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

const USAGE = `Usage: trestle upgrade-report <app module> [--out <file.md|file.json>] [--json] [--wait <ms>] [--call]

Loads the module on trestle/v4 (require('express') answers trestle/v4; servers do
not listen) and reports what it registered that changes on Express 5: route and
mount paths with their verified Express 5 form, and the removed forms used while
loading. Markdown on stdout unless --out names a file (.json: JSON) or --json.
--call: the module exports a function that makes the app: call it (no arguments).
--wait: milliseconds to wait after loading, for apps that add routes later.
For what the app does on requests, run it or its tests with
TRESTLE_UPGRADE_REPORT=report.md (see trestle's docs/migrating-v4.md).`;

interface Options {
  module: string;
  out?: string;
  json: boolean;
  wait: number;
  call: boolean;
}

function parse(argv: string[]): Options | string {
  if (argv[0] !== 'upgrade-report') return argv[0] === undefined || argv[0] === '--help' || argv[0] === '-h' ? '' : `unknown command ${argv[0]}`;
  const options: Partial<Options> = { json: false, wait: 0, call: false };
  for (let i = 1; i < argv.length; i++) {
    const arg = argv[i]!;
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

async function main(argv: string[]): Promise<number> {
  const options = parse(argv);
  if (typeof options === 'string') {
    process[options ? 'stderr' : 'stdout'].write(`${options ? `trestle: ${options}\n\n` : ''}${USAGE}\n`);
    return options ? 2 : 0;
  }
  // The report names each place; Express 4's deprecation warnings would repeat them, with the wrong place.
  process.env.NO_DEPRECATION = [process.env.NO_DEPRECATION, 'trestle'].filter(Boolean).join(',');
  redirectExpress();
  stopListening();
  instrument(require('../v4') as Framework);
  // What the app prints goes to stderr: stdout is the report's.
  const write = process.stdout.write;
  process.stdout.write = process.stderr.write.bind(process.stderr) as typeof write;
  survive();
  const failure = await load(resolve(options.module), options.call);
  await new Promise((done) => setTimeout(done, options.wait));
  process.stdout.write = write;
  const report = buildReport(findings(), 1);
  if (options.out !== undefined) {
    const out = resolve(options.out);
    mkdirSync(dirname(out), { recursive: true });
    writeFileSync(out, options.json ? renderJson(report) : render(report, out));
  } else process.stdout.write(options.json ? renderJson(report) : renderMarkdown(report, process.cwd()));
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
