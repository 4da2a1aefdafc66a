// Three real Express 4 apps from the npm registry, to prove the upgrade
// report on code we did not write: the app express-generator makes, and two
// published apps whose tarballs carry their own tests (apimocker, drakov).
// Nothing of theirs is in this repository: each is installed at a pinned
// version into a folder outside it, its own tests are run with
// `require('express')` sent to the Express under test (express-hook.cjs),
// and the changes for Express 5 are a patch per app kept here
// (`<name>.patch`), applied to a copy. See docs/migrating-v4.md, "Three
// real apps".
//
//   node --import tsx packages/trestle/test/upgrade-apps/apps.ts <app> <express> [--patched] [--report=FILE]
//
// <express>: own (the Express installed with the app), trestle/v4, trestle, express5, express4.
import { execFileSync, spawn } from 'node:child_process';
import { cpSync, existsSync, mkdirSync, readFileSync, readdirSync, renameSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';

export type ExpressName = 'own' | 'trestle/v4' | 'trestle' | 'express5' | 'express4';

export interface AppSpec {
  name: string;
  /** What is installed, for the folder's name and the record of what was tested. */
  version: string;
  /** Installs the app into `dir` (an empty folder). */
  install(dir: string): void;
  /** The app's own test command, run in its folder. */
  test: string[];
  /** Set for the app's test run. */
  env?: Record<string, string>;
}

const here = __dirname;
const hook = join(here, 'express-hook.cjs');

function run(command: string, args: string[], cwd: string): void {
  execFileSync(command, args, { cwd, stdio: ['ignore', 'pipe', 'pipe'], env: { ...process.env, NODE_OPTIONS: '' } });
}

const NPM_QUIET = ['--no-fund', '--no-audit', '--no-package-lock', '--ignore-scripts', '--loglevel=error'];

/**
 * A package's own tarball from the registry, unpacked into `dir`, with its
 * dependencies and, of its devDependencies, only those its tests need (the
 * linters and release tools are left out), then `npm install`.
 */
function installPublished(pkg: string, version: string, devDependencies: Record<string, string | true>) {
  return (dir: string) => {
    run('npm', ['pack', `${pkg}@${version}`, '--pack-destination', dir, '--loglevel=error'], dir);
    const tarball = readdirSync(dir).find((f) => f.endsWith('.tgz'))!;
    run('tar', ['xzf', tarball, '--strip-components=1'], dir);
    rmSync(join(dir, tarball));
    const manifest = JSON.parse(readFileSync(join(dir, 'package.json'), 'utf8')) as { devDependencies?: Record<string, string> };
    const kept: Record<string, string> = {};
    for (const [name, range] of Object.entries(devDependencies)) kept[name] = range === true ? manifest.devDependencies![name]! : range;
    manifest.devDependencies = kept;
    writeFileSync(join(dir, 'package.json'), JSON.stringify(manifest, null, 2));
    run('npm', ['install', ...NPM_QUIET], dir);
  };
}

/** `express --view=ejs app` from express-generator, then the generated package.json's dependencies. */
function installGenerated(version: string) {
  return (dir: string) => {
    const tool = join(dir, '..', `.express-generator-${version}`);
    if (!existsSync(join(tool, 'node_modules', 'express-generator'))) {
      run('npm', ['install', '--prefix', tool, `express-generator@${version}`, ...NPM_QUIET], dir);
    }
    // The generator refuses a folder that is not empty and asks on stdin: it makes `app/` here, moved up after.
    run(process.execPath, [join(tool, 'node_modules', 'express-generator', 'bin', 'express-cli.js'), '--view=ejs', 'app'], dir);
    for (const name of readdirSync(join(dir, 'app'))) renameSync(join(dir, 'app', name), join(dir, name));
    rmSync(join(dir, 'app'), { recursive: true });
    run('npm', ['install', ...NPM_QUIET], dir);
  };
}

export const APPS: Record<string, AppSpec> = {
  'express-generator': {
    name: 'express-generator',
    version: '4.16.1',
    install: installGenerated('4.16.1'),
    // It ships no tests: ours, black-box over HTTP. Development mode, so the error view shows the status.
    test: [process.execPath, join(here, 'generator-app-tests.cjs')],
    env: { NODE_ENV: 'development' },
  },
  apimocker: {
    name: 'apimocker',
    version: '1.1.6',
    install: installPublished('apimocker', '1.1.6', { mocha: true, chai: true, sinon: true, supertest: true }),
    // Its `npm test` is `eslint . && mocha test/*.js`: the mocha part.
    test: [process.execPath, 'node_modules/mocha/bin/_mocha', '--reporter', 'dot', 'test/*.js'],
  },
  drakov: {
    name: 'drakov',
    version: '2.0.1',
    // Its `npm test` is grunt (jshint, a blueprint validator, then mocha through grunt-simple-mocha): mocha alone here.
    install: installPublished('drakov', '2.0.1', { supertest: true, mocha: '5.2.0' }),
    // The Gruntfile's mocha options, but 30 s, not 3 s, per hook: drafter.js, the JavaScript fallback of the
    // native parser (not built here), takes 3-4 s on this machine to read every example blueprint at once.
    test: [process.execPath, 'node_modules/mocha/bin/_mocha', '--globals', 'should', '--timeout', '30000', '--ui', 'bdd',
      '--reporter', 'dot', 'test/api/*-test.js', 'test/unit/*-test.js'],
  },
};

/** Where the apps are installed: outside the repository, kept between runs. */
export const appsRoot = process.env.TRESTLE_UPGRADE_APPS_DIR ?? join(tmpdir(), 'trestle-upgrade-apps');

/** The app installed (once: a folder with its `.installed` mark is reused). */
export function installed(spec: AppSpec): string {
  const dir = join(appsRoot, `${spec.name}-${spec.version}`);
  if (existsSync(join(dir, '.installed'))) return dir;
  const partial = `${dir}.partial`;
  rmSync(partial, { recursive: true, force: true });
  mkdirSync(partial, { recursive: true });
  spec.install(partial);
  writeFileSync(join(partial, '.installed'), `${spec.name}@${spec.version}\n`);
  rmSync(dir, { recursive: true, force: true });
  renameSync(partial, dir);
  return dir;
}

export const patchFile = (spec: AppSpec) => join(here, `${spec.name}.patch`);

/**
 * A copy of the installed app with `<name>.patch` applied (the app's own
 * files copied, its node_modules linked), made anew each time.
 */
export function patched(spec: AppSpec): string {
  const base = installed(spec);
  const dir = `${base}-patched`;
  rmSync(dir, { recursive: true, force: true });
  cpSync(base, dir, { recursive: true, filter: (src) => !src.startsWith(join(base, 'node_modules')) });
  symlinkSync(join(base, 'node_modules'), join(dir, 'node_modules'), 'dir');
  if (existsSync(patchFile(spec))) run('git', ['apply', '--whitespace=nowarn', patchFile(spec)], dir);
  return dir;
}

export interface TestRun {
  code: number | null;
  output: string;
}

/** Our own request to apimocker, on the branch its tests never run (see apimocker-setmock.cjs). */
export const apimockerSetMock = [process.execPath, join(here, 'apimocker-setmock.cjs')];

/** What the docs tell an app's owner to preload: require('express') on trestle/v4, the report on. */
const register = require.resolve('trestle/upgrade/register');

/**
 * Runs the app's own tests (or `command`) in `dir` on `express`. With
 * `report` (a file), on trestle/v4 as its owner would: `NODE_OPTIONS=--require
 * trestle/upgrade/register` and TRESTLE_UPGRADE_REPORT.
 */
export function runTests(spec: AppSpec, dir: string, express: ExpressName, report?: string, command = spec.test): Promise<TestRun> {
  if (report !== undefined && express !== 'trestle/v4') throw new Error('the report runs on trestle/v4');
  const env: NodeJS.ProcessEnv = {
    ...process.env,
    ...spec.env,
    TRESTLE_APPS_EXPRESS: express,
    NODE_OPTIONS: `--require "${report === undefined ? hook : register}"`,
    TRESTLE_UPGRADE_REPORT: report,
  };
  if (report === undefined) delete env.TRESTLE_UPGRADE_REPORT;
  // The test runner's own state must not reach the app's runner (node:test reads it).
  delete env.NODE_TEST_CONTEXT;
  const child = spawn(command[0]!, command.slice(1), { cwd: dir, env, stdio: ['ignore', 'pipe', 'pipe'] });
  const output: Buffer[] = [];
  child.stdout.on('data', (chunk: Buffer) => output.push(chunk));
  child.stderr.on('data', (chunk: Buffer) => output.push(chunk));
  return new Promise((resolve) => {
    child.on('close', (code) => resolve({ code, output: Buffer.concat(output).toString() }));
  });
}

async function main(args: string[]): Promise<void> {
  const [name, express = 'own', ...rest] = args;
  const spec = name === undefined ? undefined : APPS[name];
  if (spec === undefined) {
    console.error(`usage: apps.ts <${Object.keys(APPS).join('|')}> [own|trestle/v4|trestle|express5|express4] [--patched] [--report=FILE]`);
    process.exit(2);
  }
  const dir = rest.includes('--patched') ? patched(spec) : installed(spec);
  const reportArg = rest.find((a) => a.startsWith('--report='))?.slice('--report='.length);
  const report = reportArg === undefined ? undefined : resolve(reportArg);
  const result = await runTests(spec, dir, express as ExpressName, report);
  process.stdout.write(result.output);
  console.log(`\n${spec.name}@${spec.version} in ${dir} on ${express}: exit ${result.code}`);
  process.exit(result.code ?? 1);
}

if (require.main === module) void main(process.argv.slice(2));
