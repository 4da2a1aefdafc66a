// The child process of `trestle upgrade-report` (cli.ts): loads the app on
// trestle/v4 and writes what it found to the record file the command named.
// The app has this process to itself: its output goes where the command sent
// this process's stdout (the command's stderr), with no stream replaced, and
// its process.argv is the one it would have run with. Options come in
// TRESTLE_UPGRADE_LOAD (JSON), so nothing in argv is the command's.
import { writeFileSync } from 'node:fs';
import net from 'node:net';
import { pathToFileURL } from 'node:url';
import type { Framework } from '../framework';
import { redirectExpress } from './hook';
import { instrument } from './instrument';
import { findings } from './store';
import type { Finding } from './store';

/** What the command passes its child. */
export interface LoadOptions {
  /** The app's module, absolute. */
  module: string;
  call: boolean;
  wait: number;
  /** Where to write the LoadRecord. */
  record: string;
}

/** What the child reports back: its findings and how loading ended. */
export interface LoadRecord {
  pid: number;
  argv: string[];
  findings: Finding[];
  /** `threw`: the module threw while loading (`error` holds the stack); `exited`: it called process.exit(`code`). */
  outcome: 'loaded' | 'threw' | 'exited';
  error?: string;
  code?: number;
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

function writeRecord(options: LoadOptions, outcome: LoadRecord['outcome'], extra: Partial<LoadRecord> = {}): void {
  const record: LoadRecord = { pid: process.pid, argv: process.argv.slice(1), findings: findings(), outcome, ...extra };
  writeFileSync(options.record, JSON.stringify(record));
}

async function main(options: LoadOptions): Promise<void> {
  redirectExpress();
  stopListening();
  instrument(require('../v4') as Framework);
  // An app that calls process.exit() while it loads still gets its report: the record is written as it exits.
  const onExit = (code: number) => writeRecord(options, 'exited', { code });
  process.on('exit', onExit);
  survive();
  const failure = await load(options.module, options.call);
  await new Promise((done) => setTimeout(done, options.wait));
  process.off('exit', onExit);
  if (failure === undefined) writeRecord(options, 'loaded');
  else writeRecord(options, 'threw', { error: (failure as Error)?.stack ?? String(failure) });
  // Servers, timers and connections the app left open must not keep the command waiting.
  process.exit(0);
}

const given = process.env.TRESTLE_UPGRADE_LOAD;
if (given !== undefined) {
  delete process.env.TRESTLE_UPGRADE_LOAD;
  const options = JSON.parse(given) as LoadOptions;
  // The app sees the command line it would have run with: `node app.js ...args`.
  process.argv = [process.argv[0]!, options.module, ...process.argv.slice(2)];
  void main(options);
}
