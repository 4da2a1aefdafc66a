// Runs every test file of the workspace with node:test; .ts files load through tsx.
// Usage: node scripts/run-tests.mjs [--file-timeout=MS] [--concurrency=N] [--exclude=PATH ...] [dir-or-file ...]
//   (default: packages/*/test and scripts/test; a file named on the command line runs whatever its name;
//   --exclude leaves out the files under PATH, as CI does with the other runtimes' tests after its first Node)
//
// Each file runs in a node process of its own, a few at a time, each with a
// deadline: a file still running at its deadline (a test that never settles, or
// a server a failed test left open) is killed with everything it started, and
// counted as a failure naming the file and the test that was running. One
// `node --test` over all files would wait for such a file for ever. The file is
// run as a script (node:test reports it itself): `node --test FILE` would start
// a second process for it, about a second more per file on a busy machine.
import { spawn } from 'node:child_process';
import { mkdtempSync, readdirSync, readFileSync, rmSync, statSync } from 'node:fs';
import { availableParallelism, tmpdir } from 'node:os';
import { join } from 'node:path';
import { Tally } from './summary-reporter.mjs';

const TEST_FILE = /\.test\.(ts|mts|cts|js|mjs|cjs)$/;

function collect(path, out) {
  if (statSync(path).isDirectory()) {
    for (const name of readdirSync(path).sort()) {
      const child = join(path, name);
      // A fixtures folder holds other projects' test files (the upgrade report's runner apps), run by their own tests.
      if (statSync(child).isDirectory() ? name !== 'fixtures' : TEST_FILE.test(name)) collect(child, out);
    }
  } else {
    out.push(path);
  }
  return out;
}

/** `--name=N` taken out of the arguments, or the fallback. */
function numberOption(args, name, fallback) {
  const at = args.findIndex((a) => a.startsWith(`--${name}=`));
  if (at === -1) return fallback;
  const value = Number(args.splice(at, 1)[0].slice(name.length + 3));
  if (!(value > 0)) throw new Error(`--${name} wants a positive number`);
  return value;
}

const args = process.argv.slice(2);
// Three times the per-test timeout below: the slowest file here takes about 20 s.
const fileTimeout = numberOption(args, 'file-timeout', 180_000);
// As many files at once as `node --test` runs by default.
const concurrency = numberOption(args, 'concurrency', Math.max(1, availableParallelism() - 1));
// --exclude=PATH (repeatable): files whose path starts with PATH are not run.
const excluded = [];
for (let at = args.findIndex((a) => a.startsWith('--exclude=')); at !== -1; at = args.findIndex((a) => a.startsWith('--exclude='))) {
  excluded.push(join(args.splice(at, 1)[0].slice('--exclude='.length)));
}
const roots = args;
if (roots.length === 0) {
  for (const pkg of readdirSync('packages').sort()) {
    try { statSync(join('packages', pkg, 'test')); roots.push(join('packages', pkg, 'test')); } catch {}
  }
  roots.push(join('scripts', 'test'));
}
const files = roots.flatMap((root) => collect(root, [])).filter((file) => !excluded.some((path) => file.startsWith(path)));
if (files.length === 0) {
  console.error('no test files found under', roots.join(', '));
  process.exit(1);
}

// Tests that exercise deprecated forms would print node's warnings for them:
// --no-warnings stops the printing in the test processes (they still see the
// 'warning' events they assert on). depd's own lines ('trestle deprecated ...')
// are asserted on stderr by some tests, so they stay, and the summary says so.
// A test that hangs fails after a minute (node 24 and later read --test-timeout
// when a test file runs as a script; 20 and 22 only under --test); a file that
// hangs fails at its deadline on every version.
const nodeArgs = [
  '--no-warnings', '--import', 'tsx', '--test-timeout=60000',
  '--test-reporter', process.stdout.isTTY ? 'spec' : 'tap', '--test-reporter-destination', 'stdout',
  '--test-reporter', new URL('./file-events-reporter.mjs', import.meta.url).pathname,
];
// NO_COLOR is a reader's wish for their terminal; the logger tests assert
// colours with and without it themselves, so the one they inherit is dropped.
// NODE_TEST_CONTEXT is set when this runner itself runs under node:test (its
// own test): a test file that inherits it reports in a child's format.
const { NO_COLOR, NODE_TEST_CONTEXT, ...inherited } = process.env;
const env = { ...inherited, NODE_ENV: process.env.NODE_ENV ?? 'test' };

const eventsDir = mkdtempSync(join(tmpdir(), 'trestle-tests-'));
const running = new Set();

/** Runs one file; resolves with its output, its events and how it ended. */
function runFile(file, index) {
  const eventsFile = join(eventsDir, `${index}.ndjson`);
  // detached: the file's process leads a group of its own, so a kill reaches what its tests started too (a redis-server, workers).
  const child = spawn(process.execPath, [...nodeArgs, '--test-reporter-destination', eventsFile, file], {
    env, detached: true, stdio: ['ignore', 'pipe', 'pipe'],
  });
  running.add(child);
  const output = [];
  child.stdout.on('data', (chunk) => output.push(chunk));
  child.stderr.on('data', (chunk) => output.push(chunk));
  let timedOut = false;
  const timer = setTimeout(() => {
    timedOut = true;
    killGroup(child);
  }, fileTimeout);
  return new Promise((done) => {
    child.on('close', (code, signal) => {
      clearTimeout(timer);
      running.delete(child);
      done({ file, code, signal, timedOut, output: Buffer.concat(output), events: readEvents(eventsFile) });
    });
  });
}

function killGroup(child) {
  try { process.kill(-child.pid, 'SIGKILL'); } catch {}
}

function readEvents(path) {
  let text = '';
  try { text = readFileSync(path, 'utf8'); } catch {}
  // A killed process may leave its last line half written.
  return text.split('\n').flatMap((line) => { try { return [JSON.parse(line)]; } catch { return []; } });
}

/** Where a file was when its deadline came: the tests started and not finished, outermost first. */
function whereStopped(events) {
  const open = [];
  let last;
  for (const { type, data } of events) {
    if (type === 'test:dequeue') open.push(data);
    if (type === 'test:complete') {
      const at = open.findLastIndex((t) => t.name === data.name && t.nesting === data.nesting);
      if (at !== -1) open.splice(at, 1);
      last = data.name;
    }
  }
  if (open.length > 0) return `while running "${open.map((t) => t.name).join(' › ')}"`;
  if (last !== undefined) return `after its last test "${last}" finished: something left open (a server, a socket, a timer) kept it alive`;
  return 'before any test started';
}

const tally = new Tally();

function report({ file, code, signal, timedOut, output, events }) {
  process.stdout.write(output);
  const before = tally.counts.failed;
  for (const event of events) tally.add(event);
  if (timedOut) {
    const message = `${file} did not finish within ${fileTimeout / 1000} s, ${whereStopped(events)}`;
    process.stdout.write(`\n✗ ${message}\n`);
    tally.fail(message);
  } else if (code !== 0 && tally.counts.failed === before) {
    tally.fail(`${file} › its process ended with ${signal ?? `code ${code}`} and no failed test`);
  }
}

for (const signal of ['SIGINT', 'SIGTERM']) {
  process.on(signal, () => {
    for (const child of running) killGroup(child);
    rmSync(eventsDir, { recursive: true, force: true });
    process.exit(130);
  });
}

const started = Date.now();
const queue = files.map((file, index) => ({ file, index }));
async function worker() {
  for (let next = queue.shift(); next !== undefined; next = queue.shift()) report(await runFile(next.file, next.index));
}
await Promise.all(Array.from({ length: Math.min(concurrency, files.length) }, worker));
rmSync(eventsDir, { recursive: true, force: true });
for (const line of tally.lines((Date.now() - started) / 1000)) process.stdout.write(line);
process.exit(tally.counts.failed > 0 ? 1 : 0);
