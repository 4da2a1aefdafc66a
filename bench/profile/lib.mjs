// What the scripts in bench/profile share: starting a bench server (under a
// wrapper such as strace or valgrind, or none) and loading it with a fixed
// number of keep-alive requests from autocannon. NODE (env) picks the
// server's node binary; this script's own node runs the client.
import { spawn } from 'node:child_process';
import { createRequire } from 'node:module';
import { fileURLToPath } from 'node:url';

const require = createRequire(import.meta.url);
const autocannon = require('../node_modules/autocannon');
const { scenarios } = require('../scenarios');

export const node = process.env.NODE ?? process.execPath;

/** `spec` is framework[:variant]; `wrapper` the command and arguments to run node under. */
export async function startServer(spec, scenarioName, wrapper = []) {
  const [framework, variant] = spec.split(':');
  const scenario = scenarios[scenarioName];
  if (!scenario) throw new Error(`unknown scenario "${scenarioName}"`);
  const port = 40000 + Math.floor(Math.random() * 10000);
  const server = fileURLToPath(new URL(`../servers/${framework}.js`, import.meta.url));
  const [command, ...args] = [...wrapper, node, server, scenarioName, String(port), ...(variant ? [variant] : [])];
  const child = spawn(command, args, { stdio: ['pipe', 'pipe', 'pipe'], env: { ...process.env, NODE_ENV: 'production' } });
  child.stderr.resume();
  await new Promise((resolve, reject) => {
    child.stdout.on('data', (d) => String(d).includes('ready') && resolve());
    child.on('exit', () => reject(new Error(`${spec} exited before it was ready`)));
  });
  const { request } = scenario;
  /** Sends `amount` requests over 10 connections; resolves to autocannon's result. */
  const load = (amount) => autocannon({
    url: `http://127.0.0.1:${port}${request.path}`,
    method: request.method,
    headers: request.headers,
    body: request.body,
    connections: 10,
    amount,
    timeout: 60,
  });
  /** Closes the server's stdin (bench servers exit then) and waits for it to go. */
  const stop = () => {
    child.stdin.end();
    return new Promise((resolve) => child.on('exit', resolve));
  };
  return { child, port, load, stop };
}

/** n24, n22... for the node binaries under /tmp/nodes, else this node's version. */
export function nodeLabel() {
  return /\/(n\d+)\//.exec(node)?.[1] ?? process.version;
}
