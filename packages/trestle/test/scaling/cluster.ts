// docs/scaling.md's node:cluster recipe, run as a child of the test:
// `cluster.ts <log file> <workers>`. The primary forks the workers, replaces
// one that dies unexpectedly, and on SIGTERM or SIGINT (what a process
// manager sends) passes SIGTERM to every worker and exits once they all have.
// Each worker shuts down gracefully on SIGTERM or SIGINT: its in-flight
// requests finish, then its log stream is ended, so every line is written.
//
// IPC to the test, through the primary: {type:'listening', port, pids} once
// the first workers listen; {type:'respawned', pid} for a replacement worker
// once it listens; {type:'slow-entered', id, pid} when GET /slow is in its
// handler (which answers on {type:'release'}, passed on to every worker); {type:'closing', pid} once a
// worker began trestle.shutdown(server); {type:'closed', codes} when all exited.
import cluster, { type Worker } from 'node:cluster';
import { once } from 'node:events';
import { createWriteStream } from 'node:fs';
import type { AddressInfo } from 'node:net';
import logger from 'logline-http';
import trestle from 'trestle';

const [logFile, workerCount] = process.argv.slice(2);
if (logFile === undefined || workerCount === undefined) throw new Error('usage: cluster.ts <log file> <workers>');
const send = (message: object): void => void process.send?.(message);

if (cluster.isPrimary) void primary(Number(workerCount));
else worker(logFile);

async function primary(count: number): Promise<void> {
  cluster.setupPrimary({ execArgv: ['--import', 'tsx'] });
  let stopping = false;
  const fork = (): Worker => {
    const w = cluster.fork();
    // What the workers tell the test goes through here.
    w.on('message', (m: { type: string }) => send(m));
    return w;
  };
  const first = Array.from({ length: count }, fork);
  const addresses = (await Promise.all(first.map((w) => once(w, 'listening')))) as Array<[AddressInfo]>;
  send({ type: 'listening', port: addresses[0]![0].port, pids: first.map((w) => w.process.pid) });

  const codes: Array<number | string> = [];
  cluster.on('exit', (w, code, signal) => {
    if (!stopping) {
      // Died unexpectedly: put another in its place.
      const replacement = fork();
      replacement.once('listening', () => send({ type: 'respawned', pid: replacement.process.pid, died: w.process.pid }));
      return;
    }
    codes.push(code ?? signal);
    if (Object.keys(cluster.workers ?? {}).length === 0) {
      send({ type: 'closed', codes });
      process.disconnect?.();
    }
  });
  const stop = (): void => {
    if (stopping) return;
    stopping = true;
    for (const w of Object.values(cluster.workers ?? {})) w?.process.kill('SIGTERM');
  };
  process.on('SIGTERM', stop);
  process.on('SIGINT', stop);
  // The test's word to the workers (release the slow requests).
  process.on('message', (m: object) => {
    for (const w of Object.values(cluster.workers ?? {})) w?.send(m);
  });
}

function worker(file: string): void {
  // Every worker appends to the same file: each line is one write (see docs/RELIABILITY.md).
  const log = createWriteStream(file, { flags: 'a' });
  const app = trestle();
  app.set('env', 'test');
  // Request id first: the test matches every line to its request.
  app.use(logger(':req[x-request-id] :method :url :status :pid', { stream: log }));
  app.get('/hello', (_req, res) => res.send(`hello from ${process.pid}`));
  const slow: Array<() => void> = [];
  app.get('/slow', (req, res) => {
    const id = req.get('x-request-id');
    slow.push(() => res.send(`slow but whole ${id}`));
    send({ type: 'slow-entered', id, pid: process.pid });
  });
  process.on('message', (m: { type: string }) => {
    if (m.type === 'release') for (const answer of slow.splice(0)) answer();
  });

  const server = app.listen(0, '127.0.0.1');
  let closing = false;
  const shutdown = (): void => {
    if (closing) return;
    closing = true;
    // In-flight requests finish; idle connections and ones that never sent a
    // request are closed after the 1 s grace; then every log line is written;
    // then leave (the IPC channel to the primary would keep the process alive).
    void trestle.shutdown(server, { timeout: '30s' }).then(() => log.end(() => process.exit(0)));
    send({ type: 'closing', pid: process.pid });
  };
  process.on('SIGTERM', shutdown);
  process.on('SIGINT', shutdown);
}
