// The process of lifecycle-deadline-load.test.ts's memory check, run as a
// child (node --expose-gc --import tsx):
//   deadlines.ts <entry> <warm-up rounds> <rounds> <requests per round> [leak]
// It serves a route whose handler fetches, with req.signal, from a local
// upstream that never answers, under a 50 ms deadline; sends itself
// warm-up rounds, then `rounds` rounds of requests all at once, each round
// waiting until every answer came and every upstream call was aborted. The
// JS heap is measured after full GCs before and after the measured rounds,
// with no connection open. `leak` keeps every request object reachable, on
// purpose: what a deadline timer or a signal listener left behind would do,
// for the test that proves the heap check fails for such a leak.
//
// IPC: sends {type:'result', ...DeadlineFigures} and exits.
import * as http from 'node:http';
import type { AddressInfo, Socket } from 'node:net';
import { rawRequest } from '../helpers';
import { until } from '../http2-helpers';
import { entries } from '../lifecycle-helpers';

export interface DeadlineFigures {
  /** JS heap after full GCs, bytes. */
  heapStart: number;
  heapEnd: number;
  /** Whether a GC could be forced (the child ran with --expose-gc). */
  gc: boolean;
  /** Requests of the measured rounds, and the statuses they got (status: count). */
  requests: number;
  statuses: Record<string, number>;
  /** Upstream calls started and aborted over all rounds. */
  started: number;
  aborted: number;
}

const [name, warmArg, roundsArg, perRoundArg, leakArg] = process.argv.slice(2);
const entry = entries.find(([n]) => n === name);
if (entry === undefined || warmArg === undefined || roundsArg === undefined || perRoundArg === undefined) {
  throw new Error('usage: deadlines.ts <trestle|trestle/v4|trestle/legacy> <warm-up rounds> <rounds> <requests per round> [leak]');
}
const trestle = entry[1];
const leaked: unknown[] = [];

const counts = { started: 0, aborted: 0 };
const upstream = http.createServer((_req, res) => {
  counts.started += 1;
  res.on('close', () => (counts.aborted += 1));
});

const app = trestle();
// 'test': the final handler does not log each 503 (the in-process test checks that logging).
app.set('env', 'test');
app.get('/proxy', trestle.deadline('50ms'), async (req, res) => {
  if (leakArg === 'leak') leaked.push(req);
  const { port } = upstream.address() as AddressInfo;
  const answer = await fetch(`http://127.0.0.1:${port}/`, { signal: req.signal });
  res.send(await answer.text());
});

const server = http.createServer(app);
const sockets = new Set<Socket>();
server.on('connection', (socket: Socket) => {
  sockets.add(socket);
  socket.on('close', () => sockets.delete(socket));
});

async function round(size: number, statuses: Record<string, number>): Promise<void> {
  const { port } = server.address() as AddressInfo;
  const answers = await Promise.all(Array.from({ length: size }, () => rawRequest(port, 'GET', '/proxy')));
  for (const { status } of answers) statuses[status] = (statuses[status] ?? 0) + 1;
  if (!(await until(() => counts.aborted === counts.started && sockets.size === 0, 5000))) {
    throw new Error(`round did not settle: ${JSON.stringify(counts)}, ${sockets.size} connections open`);
  }
}

/** JS heap after full collections, a turn of the loop apart so finalizers and weak callbacks run too. */
async function heap(): Promise<number> {
  const gc = (globalThis as { gc?: () => void }).gc;
  for (let i = 0; i < 4 && gc !== undefined; i++) {
    gc();
    await new Promise((resolve) => setImmediate(resolve));
  }
  return process.memoryUsage().heapUsed;
}

async function main(): Promise<void> {
  await new Promise<void>((r) => upstream.listen(0, '127.0.0.1', r));
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  const perRound = Number(perRoundArg);
  // The warm-up fills what is made once (fetch's dispatcher, optimised code and its feedback, caches):
  // measured as the start. With one warm-up round instead of ten, the heap grew up to 1.2 MB without a leak.
  for (let i = 0; i < Number(warmArg); i++) await round(perRound, {});
  const heapStart = await heap();
  const statuses: Record<string, number> = {};
  for (let i = 0; i < Number(roundsArg); i++) await round(perRound, statuses);
  const heapEnd = await heap();
  const figures: DeadlineFigures = {
    heapStart,
    heapEnd,
    gc: typeof (globalThis as { gc?: unknown }).gc === 'function',
    requests: Number(roundsArg) * perRound,
    statuses,
    ...counts,
  };
  process.send?.({ type: 'result', ...figures });
  server.close();
  upstream.close();
  process.disconnect?.();
}

void main();
