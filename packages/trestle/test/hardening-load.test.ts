// Load, over loopback only: a bounded soak of a trestle + logline server in a
// child process (requests in = log lines out, heap flat after GC, no file
// descriptor leaked; what the heap check catches is in soak/soak.ts, and a
// run with a leak on purpose proves it fails), several cluster workers appending to one log file
// (every line whole, one per request), and graceful shutdown (in-flight
// requests finish after close(), new connections are refused, the last lines
// reach the file). `npm run soak -- --duration <s>` runs the soak for longer.
import assert from 'node:assert/strict';
import { once } from 'node:events';
import { createWriteStream } from 'node:fs';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import * as http from 'node:http';
import { type AddressInfo, connect } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import logger from 'logline-http';
import trestle from 'trestle';
import type { Response } from 'trestle';
import { bounded, startChild } from './soak/child';
import { checkLog, drive } from './soak/load';
import { figuresRow, HEAP_GROWTH_LIMIT, leakCaught, runSoak, soakProblems } from './soak/soak';

let dir = '';
before(async () => {
  dir = await mkdtemp(join(tmpdir(), 'trestle-load-'));
});
after(async () => {
  await rm(dir, { recursive: true, force: true });
});

describe('soak', () => {
  test('keep-alive and fresh connections for 10 s: one whole line per request, heap and fds flat', async (t) => {
    const f = await runSoak({ durationMs: 10_000, warmupMs: 2_000, concurrency: 16, freshEvery: 4 });
    t.diagnostic(figuresRow('test (10 s)', f));
    t.diagnostic(`the heap check catches a leak of more than ${leakCaught(f)} bytes per request in this run; external memory ${f.externalStart} -> ${f.externalEnd} (not checked)`);
    // The run really mixed its traffic, or it proves less than it says.
    assert.ok(f.freshRequests > 100, `${f.freshRequests} requests on fresh connections`);
    assert.ok(f.requests - f.freshRequests > 100, 'requests on keep-alive connections');
    assert.ok(f.hungUp > 100, `${f.hungUp} responses abandoned by the client`);
    assert.equal(f.failed, 0, f.failures.join('\n'));
    assert.equal(f.lines, f.requests);
    assert.deepEqual({ malformed: f.log.malformed, mismatched: f.log.mismatched, duplicates: f.log.duplicates, missing: f.log.missing }, { malformed: [], mismatched: [], duplicates: 0, missing: 0 });
    assert.ok(f.heapEnd - f.heapStart <= HEAP_GROWTH_LIMIT, `heap after GC ${f.heapStart} -> ${f.heapEnd}`);
    if (process.platform === 'linux') assert.equal(f.fdsEnd, f.fdsStart);
    assert.deepEqual(soakProblems(f), []);
  });

  test('the heap check fails for a real leak: 8 KB kept per request for 3 s', async () => {
    // Large enough to pass the limit from 512 requests on, on any machine this suite runs on.
    const f = await runSoak({ durationMs: 3_000, warmupMs: 500, concurrency: 16, freshEvery: 4, leakBytes: 8 * 1024 });
    assert.ok(f.measuredRequests * 8 * 1024 > 2 * HEAP_GROWTH_LIMIT, `only ${f.measuredRequests} requests: the leak proves nothing`);
    assert.ok(f.heapEnd - f.heapStart > HEAP_GROWTH_LIMIT, `heap after GC ${f.heapStart} -> ${f.heapEnd}`);
    assert.match(soakProblems(f).join('\n'), /^heap grew from /m);
  });
});

interface ClusterListening {
  type: 'listening';
  port: number;
  pids: number[];
}

describe('cluster', () => {
  test('4 workers on one port append to one file: every line whole, as many lines as requests', async (t) => {
    const logFile = join(dir, 'cluster.log');
    const workers = 4;
    const primary = startChild(join(__dirname, 'soak', 'cluster.ts'), [logFile, String(workers)]);
    try {
      const { port, pids } = await primary.message<ClusterListening>('listening', 60_000);
      assert.equal(new Set(pids).size, workers);
      // About 1 KB per line, with a pattern a torn or interleaved line would break.
      const pad = 'abcdefghijklmnopqrstuvwxyz0123456789'.repeat(28);
      const load = await drive({ port, requests: 4000, concurrency: 16, freshEvery: 2, firstId: 1, headers: () => ({ 'x-pad': pad }) });
      assert.equal(load.failed, 0, load.failures.join('\n'));
      primary.send({ type: 'close' });
      const { codes } = await primary.message<{ type: 'closed'; codes: Array<number | string> }>('closed');
      assert.deepEqual(codes, Array(workers).fill(0));
      assert.equal(await primary.exited(), 0);

      const log = checkLog(await readFile(logFile, 'utf8'), 1, load.sent, new RegExp(`(\\d+) ${pad}`));
      assert.deepEqual(
        { lines: log.lines, malformed: log.malformed, mismatched: log.mismatched, duplicates: log.duplicates, missing: log.missing },
        { lines: 4000, malformed: [], mismatched: [], duplicates: 0, missing: 0 },
      );
      // Every worker served (fresh connections are dealt out in turn), and only workers did.
      assert.deepEqual([...log.tails.keys()].map(Number).sort(), pids.slice().sort());
      t.diagnostic(`${load.sent} requests in ${(load.elapsedMs / 1000).toFixed(1)} s, ${log.lines} lines, per worker: ${[...log.tails.values()].join(' / ')}`);
    } finally {
      primary.kill();
    }
  });
});

/** One GET; resolves with status and body, or the error code. */
function get(port: number, path: string, agent: http.Agent | false, headers: http.OutgoingHttpHeaders = {}): Promise<string> {
  return new Promise((resolve) => {
    http
      .get({ host: '127.0.0.1', port, path, agent, headers }, (res) => {
        let body = '';
        res.setEncoding('utf8');
        res.on('data', (d: string) => (body += d));
        res.on('end', () => resolve(`${res.statusCode} ${body}`));
        res.on('error', (e: NodeJS.ErrnoException) => resolve(`response ${e.code ?? e.message}`));
      })
      .on('error', (e: NodeJS.ErrnoException) => resolve(e.code ?? e.message));
  });
}

describe('graceful shutdown', () => {
  test('server.close(): the slow in-flight request is answered whole, new connections are refused, idle ones do not hold it', async () => {
    const logFile = join(dir, 'shutdown.log');
    const log = createWriteStream(logFile, { flags: 'a' });
    const app = trestle();
    app.use(logger(':method :url :status', { stream: log }));
    app.get('/ok', (_req, res) => res.send('ok'));
    let slow: Response | undefined;
    const slowEntered = new Promise<void>((resolve) =>
      app.get('/slow', (_req, res) => {
        slow = res;
        resolve();
      }),
    );
    const server = app.listen(0, '127.0.0.1');
    await once(server, 'listening');
    const { port } = server.address() as AddressInfo;
    const agent = new http.Agent({ keepAlive: true });
    const order: string[] = [];
    try {
      // One keep-alive connection left idle, one carrying the slow request.
      assert.equal(await get(port, '/ok', agent), '200 ok');
      const slowAnswer = get(port, '/slow', agent).then((a) => {
        order.push('answer');
        return a;
      });
      await bounded('the slow handler', slowEntered, 10_000);
      const closed = new Promise<void>((resolve, reject) =>
        server.close((err) => {
          order.push('closed');
          if (err) reject(err);
          else resolve();
        }),
      );
      // The documented recipe: the connection that carries the slow answer is not kept alive
      // for keepAliveTimeout (5 s) once that answer is out.
      server.keepAliveTimeout = 1;
      assert.equal(await get(port, '/ok', false), 'ECONNREFUSED');
      assert.ok(slow);
      slow.send('slow but whole');
      assert.equal(await bounded('the slow answer', slowAnswer, 10_000), '200 slow but whole');
      await bounded('close() to complete', closed, 10_000);
      assert.deepEqual(order, ['answer', 'closed']);
      // Then the log: end it once the server closed, and every line is in the file.
      await new Promise<void>((resolve) => log.end(resolve));
      assert.equal(await readFile(logFile, 'utf8'), 'GET /ok 200\nGET /slow 200\n');
    } finally {
      agent.destroy();
      server.closeAllConnections();
    }
  });

  // Node 19 made close() also close idle keep-alive connections (before, one kept the server
  // open until keepAliveTimeout); every supported node (20 to 26) does, and CI checks each.
  test('server.close() ends an idle keep-alive connection at once, however long keepAliveTimeout is', async () => {
    const app = trestle();
    app.get('/ok', (_req, res) => res.send('ok'));
    const server = app.listen(0, '127.0.0.1');
    await once(server, 'listening');
    server.keepAliveTimeout = 600_000;
    const socket = connect((server.address() as AddressInfo).port, '127.0.0.1');
    try {
      let received = '';
      const answered = new Promise<void>((resolve) =>
        socket.on('data', (chunk: Buffer) => {
          received += chunk.toString('latin1');
          if (received.endsWith('\r\n\r\nok')) resolve();
        }),
      );
      socket.write('GET /ok HTTP/1.1\r\nHost: localhost\r\n\r\n');
      await bounded('the answer', answered, 10_000);
      assert.match(received, /^HTTP\/1\.1 200 OK\r\n[^]*Connection: keep-alive\r\n/);
      const ended = once(socket, 'end');
      const closed = new Promise<void>((resolve, reject) => server.close((err) => (err ? reject(err) : resolve())));
      await bounded('the server to end the idle connection', ended, 10_000);
      await bounded('close() to complete', closed, 10_000);
    } finally {
      socket.destroy();
      server.closeAllConnections();
    }
  });

  test('SIGTERM to the soak server: in-flight answered, refused after, last line flushed, exit 0', async () => {
    const logFile = join(dir, 'sigterm.log');
    const child = startChild(join(__dirname, 'soak', 'server.ts'), [logFile]);
    try {
      const { port } = await child.message<{ type: 'listening'; port: number }>('listening');
      assert.equal(await get(port, '/hello', false, { 'x-request-id': '1' }), '200 hello');
      const slowAnswer = get(port, '/slow', false, { 'x-request-id': '2' });
      await child.message('slow-entered');
      child.process.kill('SIGTERM');
      await child.message('closing');
      assert.equal(await get(port, '/hello', false, { 'x-request-id': '3' }), 'ECONNREFUSED');
      child.send({ type: 'release' });
      assert.equal(await bounded('the slow answer', slowAnswer), '200 slow but whole');
      await child.message('closed');
      assert.equal(await child.exited(), 0);
      assert.equal(await readFile(logFile, 'utf8'), '1 GET /hello 200\n2 GET /slow 200\n');
    } finally {
      child.kill();
    }
  });
});
