// The soak server, run as a child process (node --expose-gc --import tsx):
// the soak routes, logline appending to the file named by argv[2], and the
// graceful shutdown docs/RELIABILITY.md describes, on SIGTERM or on request.
//
// IPC: sends {type:'listening', port}; answers {type:'stats'} with memory
// after a full GC and the open connection count once no connection is open;
// {type:'slow-entered'} when GET /slow is in its handler, which answers on
// {type:'release'}; {type:'closing'} once server.close() was called, and
// {type:'closed'} once the server closed and every log line reached the file.
import { createWriteStream } from 'node:fs';
import * as http from 'node:http';
import type { AddressInfo, Socket } from 'node:net';
import logger from 'logline-http';
import trestle from 'trestle';
import type { Response } from 'trestle';
import { LOG_FORMAT, mountRoutes } from './routes';

const logFile = process.argv[2];
if (logFile === undefined) throw new Error('usage: server.ts <log file> [leak bytes per request]');
// A leak on purpose, for the test that proves the soak's heap check fails
// for one: each request keeps a string of this many bytes reachable.
const leakBytes = Number(process.argv[3] ?? 0);
const leaked: string[] = [];
const send = (message: object): void => void process.send?.(message);

const log = createWriteStream(logFile, { flags: 'a' });
const app = trestle();
app.set('env', 'test');
app.use(logger(LOG_FORMAT, { stream: log }));
if (leakBytes > 0) {
  app.use((req, _res, next) => {
    // A flat string on the JS heap (padEnd or repeat would share one rope).
    leaked.push(Buffer.alloc(leakBytes, `${String(req.headers['x-request-id'])} `).toString('latin1'));
    next();
  });
}
mountRoutes(app);
const slow: Response[] = [];
app.get('/slow', (_req, res) => {
  slow.push(res);
  send({ type: 'slow-entered' });
});

const server = http.createServer(app);
const sockets = new Set<Socket>();
server.on('connection', (socket: Socket) => {
  sockets.add(socket);
  socket.on('close', () => {
    sockets.delete(socket);
    if (sockets.size === 0) server.emit('idle');
  });
});

/** Memory after a full collection, measured only once every connection is gone. */
async function stats(): Promise<void> {
  if (sockets.size !== 0) await new Promise((resolve) => server.once('idle', resolve));
  const gc = (globalThis as { gc?: () => void }).gc;
  // Several passes, a turn of the loop apart, so finalizers and weak callbacks run too.
  for (let i = 0; i < 4 && gc !== undefined; i++) {
    gc();
    await new Promise((resolve) => setImmediate(resolve));
  }
  const { rss, heapUsed, external } = process.memoryUsage();
  send({ type: 'stats', rss, heapUsed, external, gc: gc !== undefined, connections: sockets.size });
}

let closing = false;
/** Graceful shutdown: stop accepting, let in-flight requests finish, then flush the log. */
function shutdown(): void {
  if (closing) return;
  closing = true;
  server.close(() => {
    log.end(() => {
      send({ type: 'closed' });
      process.disconnect?.();
    });
  });
  // A connection busy with an answer is otherwise kept alive for keepAliveTimeout (5 s) after it.
  server.keepAliveTimeout = 1;
  send({ type: 'closing' });
}

process.on('SIGTERM', shutdown);
process.on('message', (m: { type: string }) => {
  if (m.type === 'stats') void stats();
  else if (m.type === 'release') for (const res of slow.splice(0)) res.send('slow but whole');
  else if (m.type === 'close') shutdown();
});

server.listen(0, '127.0.0.1', () => send({ type: 'listening', port: (server.address() as AddressInfo).port }));
