// Several processes under node:cluster sharing one port, each appending its
// log lines to the same file (logline, flags 'a'). Run as a child of the
// test: `cluster.ts <log file> <workers>`.
//
// Primary, over IPC to the test: {type:'listening', port, pids} once every
// worker listens; on {type:'close'} each worker closes gracefully (server,
// then its log stream), and {type:'closed', codes} follows once all exited.
// Workers log `:req[x-request-id] :method :url :status :pid :req[x-pad]`:
// long lines, so that a line split between two writers would show.
import cluster, { type Worker } from 'node:cluster';
import { once } from 'node:events';
import { createWriteStream } from 'node:fs';
import * as http from 'node:http';
import type { AddressInfo } from 'node:net';
import logger from 'logline-http';
import trestle from 'trestle';
import { LOG_FORMAT, mountRoutes } from './routes';

const [logFile, workerCount] = process.argv.slice(2);
if (logFile === undefined || workerCount === undefined) throw new Error('usage: cluster.ts <log file> <workers>');

if (cluster.isPrimary) void primary(Number(workerCount));
else worker(logFile);

async function primary(count: number): Promise<void> {
  const send = (message: object): void => void process.send?.(message);
  // Workers run this same file through tsx, with the same arguments.
  cluster.setupPrimary({ execArgv: ['--import', 'tsx'] });
  const workers: Worker[] = [];
  const listening: Array<Promise<unknown>> = [];
  for (let i = 0; i < count; i++) {
    const w = cluster.fork();
    workers.push(w);
    listening.push(once(w, 'listening'));
  }
  const addresses = (await Promise.all(listening)) as Array<[AddressInfo]>;
  // listen(0) in cluster workers: the primary hands every worker the same port.
  const ports = new Set(addresses.map(([a]) => a.port));
  if (ports.size !== 1) throw new Error(`workers listen on ports ${[...ports].join(', ')}`);
  send({ type: 'listening', port: [...ports][0], pids: workers.map((w) => w.process.pid) });

  process.on('message', async (m: { type: string }) => {
    if (m.type !== 'close') return;
    const exits = workers.map((w) => once(w, 'exit') as Promise<[number | null, string | null]>);
    for (const w of workers) w.send({ type: 'close' });
    const codes = (await Promise.all(exits)).map(([code, signal]) => code ?? signal);
    send({ type: 'closed', codes });
    process.disconnect?.();
  });
}

function worker(file: string): void {
  const log = createWriteStream(file, { flags: 'a' });
  const app = trestle();
  app.set('env', 'test');
  app.use(logger(`${LOG_FORMAT} :pid :req[x-pad]`, { stream: log }));
  mountRoutes(app);
  const server = http.createServer(app);
  server.listen(0, '127.0.0.1');
  process.on('message', (m: { type: string }) => {
    if (m.type !== 'close') return;
    // The graceful shutdown: in-flight requests finish, then every line reaches the file.
    server.close(() => log.end(() => process.disconnect()));
  });
}
