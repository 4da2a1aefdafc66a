// Several trestle processes on one machine under node:cluster, as
// docs/scaling.md sets them up: a worker that dies is replaced, and SIGTERM
// to the primary (what a process manager sends) shuts every worker down
// gracefully: requests in flight when it arrives are answered whole, every
// log line reaches the shared file, every process exits 0.
import assert from 'node:assert/strict';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import * as http from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, test } from 'node:test';
import { type Child, startChild } from './soak/child';

interface Listening {
  type: 'listening';
  port: number;
  pids: number[];
}
interface Closed {
  type: 'closed';
  codes: Array<number | string>;
}

const CLUSTER = join(__dirname, 'scaling', 'cluster.ts');

let dir = '';
before(async () => {
  dir = await mkdtemp(join(tmpdir(), 'trestle-scaling-'));
});
after(async () => {
  await rm(dir, { recursive: true, force: true });
});

interface Answer {
  id: string;
  status: number;
  body: string;
}

/** GET with an x-request-id. */
function get(agent: http.Agent, port: number, path: string, id: number): Promise<Answer> {
  return new Promise((resolve, reject) => {
    const req = http.request({ host: '127.0.0.1', port, path, agent, headers: { 'x-request-id': String(id) } }, (res) => {
      let body = '';
      res.setEncoding('utf8');
      res.on('data', (chunk: string) => (body += chunk));
      res.on('end', () => resolve({ id: String(id), status: res.statusCode ?? 0, body }));
      res.on('error', reject);
    });
    req.on('error', reject);
    req.end();
  });
}

/** Every log line as `id path status`, and the process ids that wrote them; a malformed line fails. */
async function readLog(file: string): Promise<{ lines: string[]; pids: Set<number> }> {
  const lines: string[] = [];
  const pids = new Set<number>();
  for (const line of (await readFile(file, 'utf8')).split('\n').filter(Boolean)) {
    const m = /^(\d+) GET (\/\w+) (\d{3}) (\d+)$/.exec(line);
    assert.ok(m, `a whole log line: ${JSON.stringify(line)}`);
    lines.push(`${m[1]} ${m[2]} ${m[3]}`);
    pids.add(Number(m[4]));
  }
  return { lines: lines.sort(), pids };
}

/** The workers' exit codes, once the primary (stopping) saw them all exit and exited 0 itself. */
async function exitCodes(primary: Child): Promise<Array<number | string>> {
  const { codes } = await primary.message<Closed>('closed');
  assert.equal(await primary.exited(), 0);
  return codes;
}

test('SIGTERM to the primary: the requests in flight on every worker finish, every line is written, all exit 0', async () => {
  const logFile = join(dir, 'shutdown.log');
  const primary = startChild(CLUSTER, [logFile, '2']);
  // Keep-alive connections, as a proxy in front holds them: idle ones must not hold the shutdown.
  const agent = new http.Agent({ keepAlive: true });
  try {
    const { port, pids } = await primary.message<Listening>('listening', 60_000);
    const expected: string[] = [];
    for (let id = 1; id <= 20; id++) {
      const res = await get(agent, port, '/hello', id);
      assert.equal(res.status, 200);
      expected.push(`${id} /hello 200`);
    }

    // Slow requests, one at a time, until every worker holds one (at most 10).
    // Each on its own connection that closes after the answer: the worker's
    // server then closes right after its last answer, so a worker that did
    // not end its log stream before leaving would lose that answer's line.
    const closeAfter = new http.Agent({ keepAlive: false });
    const slow: Array<Promise<Answer>> = [];
    const busy = new Set<number>();
    let answered = 0;
    for (let id = 100; id < 110 && busy.size < pids.length; id++) {
      slow.push(
        get(closeAfter, port, '/slow', id).then((res) => {
          answered++;
          return res;
        }),
      );
      const entered = await primary.message<{ type: 'slow-entered'; id: string; pid: number }>('slow-entered');
      assert.equal(entered.id, String(id));
      busy.add(entered.pid);
      expected.push(`${id} /slow 200`);
    }
    assert.equal(busy.size, pids.length, 'every worker has a request in flight');

    primary.process.kill('SIGTERM');
    const closing = new Set<number>();
    for (let i = 0; i < pids.length; i++) closing.add((await primary.message<{ type: 'closing'; pid: number }>('closing')).pid);
    assert.deepEqual([...closing].sort(), [...pids].sort());
    // Every worker is closing and not one slow request was answered yet: let them answer now.
    assert.equal(answered, 0);
    primary.send({ type: 'release' });
    for (const res of await Promise.all(slow)) assert.deepEqual([res.status, res.body], [200, `slow but whole ${res.id}`]);

    assert.deepEqual(await exitCodes(primary), [0, 0]);
    const log = await readLog(logFile);
    assert.deepEqual(log.lines, expected.sort());
    assert.deepEqual([...log.pids].sort(), [...pids].sort());
  } finally {
    agent.destroy();
    primary.kill();
  }
});

test('a worker that dies is replaced by the primary, and the replacement serves', async () => {
  const logFile = join(dir, 'respawn.log');
  const primary = startChild(CLUSTER, [logFile, '2']);
  try {
    const { port, pids } = await primary.message<Listening>('listening', 60_000);
    process.kill(pids[0]!, 'SIGKILL');
    const { pid, died } = await primary.message<{ type: 'respawned'; pid: number; died: number }>('respawned', 60_000);
    assert.equal(died, pids[0]);
    assert.ok(!pids.includes(pid));

    // Fresh connections are dealt to the workers in turn: the new one answers soon (at most 20 tries).
    const fresh = new http.Agent({ keepAlive: false });
    const servedBy = new Set<string>();
    for (let id = 1; id <= 20 && !servedBy.has(`hello from ${pid}`); id++) {
      const res = await get(fresh, port, '/hello', id);
      assert.equal(res.status, 200);
      servedBy.add(res.body);
    }
    assert.ok(servedBy.has(`hello from ${pid}`), 'the replacement worker answered');
    primary.process.kill('SIGTERM');
    assert.deepEqual(await exitCodes(primary), [0, 0]);
    const log = await readLog(logFile);
    assert.ok([...log.pids].every((p) => p === pid || p === pids[1]));
  } finally {
    primary.kill();
  }
});
