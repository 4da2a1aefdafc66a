// AWS's own runtime interface client, `aws-lambda-ric` from the npm registry,
// as a Lambda function's process runs it: `LAMBDA_TASK_ROOT` and `_HANDLER`
// name the handler, `AWS_LAMBDA_RUNTIME_API` the endpoint it asks for
// invocations (here a test's RuntimeApi on 127.0.0.1).
//
// It is not a devDependency: it builds curl and aws-lambda-cpp from source at
// install (cmake, a C++ compiler; about a minute), which every `npm ci` of
// the repository would pay. The tests install it once per machine into a
// folder under the temp dir, shared by the test files and the Node versions
// CI runs (its native part is a Node-API addon, one build for every Node).
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { existsSync, mkdirSync, renameSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

export const RIC_VERSION = '4.0.2';
const CACHE = join(tmpdir(), `trestle-aws-lambda-ric-${RIC_VERSION}`);
const PACKAGE = join(CACHE, 'node_modules', 'aws-lambda-ric');
/** What the install leaves when it built the native client. */
const BUILT = join(PACKAGE, 'rapid-client.node');
const INSTALL_MS = 300_000;

/** Why the client cannot run here, or undefined. CI always runs it (.ci/run installs cmake). */
export function ricUnavailable(): string | undefined {
  const major = Number(process.versions.node.split('.')[0]);
  if (major < 22) return `aws-lambda-ric ${RIC_VERSION} supports Node 22 and later (its engines field); this is Node ${process.versions.node}`;
  if (process.env.CI !== 'true' && !existsSync(BUILT) && spawnSync('cmake', ['--version']).status !== 0) {
    return 'aws-lambda-ric builds its native client with cmake at install: install cmake to run these tests';
  }
  return undefined;
}

function sleep(ms: number): void {
  Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, ms);
}

/**
 * The client's entry (`index.mjs`), installed first if it is not yet. One
 * process installs (a lock folder); the others wait for it, bounded.
 */
export function installRic(): string {
  const entry = join(PACKAGE, 'index.mjs');
  if (existsSync(BUILT)) return entry;
  const lock = `${CACHE}.lock`;
  const deadline = Date.now() + INSTALL_MS;
  for (;;) {
    try {
      mkdirSync(lock);
      break;
    } catch {
      if (existsSync(BUILT)) return entry;
      // A lock left by a process that died mid-install is older than any install takes.
      if (Date.now() - statSync(lock, { throwIfNoEntry: false })!.mtimeMs > INSTALL_MS) rmSync(lock, { recursive: true, force: true });
      if (Date.now() > deadline) throw new Error(`aws-lambda-ric: another process held ${lock} for ${INSTALL_MS / 1000} s without finishing the install`);
      sleep(500);
    }
  }
  try {
    if (existsSync(BUILT)) return entry;
    const part = `${CACHE}.part-${process.pid}`;
    rmSync(part, { recursive: true, force: true });
    const npm = spawnSync('npm', ['install', '--prefix', part, '--no-save', '--no-package-lock', '--no-fund', '--no-audit', '--loglevel=error', `aws-lambda-ric@${RIC_VERSION}`], {
      encoding: 'utf8', timeout: INSTALL_MS,
    });
    if (npm.status !== 0 || !existsSync(join(part, 'node_modules', 'aws-lambda-ric', 'rapid-client.node'))) {
      rmSync(part, { recursive: true, force: true });
      const why = npm.error ? npm.error.message : `exit ${npm.status}`;
      throw new Error(`npm could not install aws-lambda-ric@${RIC_VERSION} (${why}; it needs cmake, make and a C++ compiler):\n${(npm.stderr ?? '').slice(-2000)}`);
    }
    rmSync(CACHE, { recursive: true, force: true });
    renameSync(part, CACHE);
    return entry;
  } finally {
    rmSync(lock, { recursive: true, force: true });
  }
}

/** A running client: its output kept to say what went wrong, and a bounded stop. */
export interface Ric {
  child: ChildProcess;
  /** Everything it wrote, stdout and stderr interleaved. */
  output(): string;
  /** Lines of stderr as they come (the fixtures report progress there). */
  onStderrLine(listener: (line: string) => void): void;
  stop(): Promise<void>;
}

/**
 * Starts the client on `handler` (`file.export`) in `taskRoot`, against the
 * Runtime API at `runtimeApi` (host:port), with the environment Lambda sets.
 */
export function startRic(entry: string, taskRoot: string, handler: string, runtimeApi: string): Ric {
  const child = spawn(process.execPath, [entry, handler], {
    cwd: taskRoot,
    stdio: ['ignore', 'pipe', 'pipe'],
    env: {
      PATH: process.env.PATH,
      HOME: process.env.HOME,
      AWS_LAMBDA_RUNTIME_API: runtimeApi,
      _HANDLER: handler,
      LAMBDA_TASK_ROOT: taskRoot,
      AWS_LAMBDA_FUNCTION_NAME: 'trestle-test',
      AWS_LAMBDA_FUNCTION_VERSION: '$LATEST',
      AWS_LAMBDA_FUNCTION_MEMORY_SIZE: '512',
      AWS_LAMBDA_LOG_GROUP_NAME: '/aws/lambda/trestle-test',
      AWS_LAMBDA_LOG_STREAM_NAME: '2026/01/01/[$LATEST]0123456789abcdef',
      AWS_REGION: 'us-east-1',
    },
  });
  let output = '';
  let pending = '';
  const lineListeners: ((line: string) => void)[] = [];
  child.stdout!.setEncoding('utf8').on('data', (text: string) => {
    output += text;
  });
  child.stderr!.setEncoding('utf8').on('data', (text: string) => {
    output += text;
    pending += text;
    let nl: number;
    while ((nl = pending.indexOf('\n')) >= 0) {
      const line = pending.slice(0, nl);
      pending = pending.slice(nl + 1);
      for (const listener of lineListeners) listener(line);
    }
  });
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  return {
    child,
    output: () => output.slice(-4000),
    onStderrLine: (listener) => void lineListeners.push(listener),
    async stop() {
      if (child.exitCode !== null || child.signalCode !== null) return;
      child.kill('SIGKILL');
      let timer: NodeJS.Timeout | undefined;
      await Promise.race([exited, new Promise((resolve) => (timer = setTimeout(resolve, 5000)))]);
      clearTimeout(timer);
      if (child.exitCode === null && child.signalCode === null) throw new Error(`aws-lambda-ric (pid ${child.pid}) did not exit within 5 s of SIGKILL`);
    },
  };
}
