// Backpressure through app.fetch on Node (issue 41): a slow reader holds the
// writer back. res.write() says false once the Response body's queue passes
// its high-water mark (16 KiB, node's socket default), and 'drain' comes when
// the reader takes it below; so a 12 MiB answer to a reader that takes a chunk
// every 2 ms is never buffered whole, and a handler that waits for 'drain'
// finishes. The same probe runs on Bun, Deno and workerd in
// test/runtimes/backpressure.test.ts.
import assert from 'node:assert/strict';
import { join } from 'node:path';
import { describe, test } from 'node:test';
import trestle from '../../src/index';
import v4 from '../../src/v4';
import legacy from '../../src/legacy';
import { assertHeldBack, type Probe } from './backpressure-checks';

// eslint-disable-next-line @typescript-eslint/no-require-imports
const probe = require(join(__dirname, '..', 'runtimes', 'backpressure.cjs')) as (framework: unknown, opts: object) => Promise<Probe>;

const CHUNK = 65536;
const MiB = 1024 * 1024;

describe('app.fetch backpressure on Node: a slow reader holds the writer back', () => {
  for (const [name, framework] of [['trestle', trestle], ['trestle/v4', v4], ['trestle/legacy', legacy]] as const) {
    test(`${name}: 12 MiB to a reader taking a chunk every 2 ms; write() false, 'drain', done within 10 s`, async () => {
      const total = 12 * MiB;
      const r = await probe(framework, { total, chunk: CHUNK, everyMs: 2, deadlineMs: 10_000 });
      assertHeldBack(r, total, 10);
    });
  }

  test('writes before the Response is made: false once 16 KiB wait, and the drain comes when the reader reads', async () => {
    const app = trestle();
    const answers: boolean[] = [];
    let drained = false;
    app.get('/', (req, res) => {
      // 64 writes of 1 KiB in one turn: the Response does not exist yet, the bytes wait in the socket.
      for (let i = 0; i < 64; i++) answers.push(res.write(Buffer.alloc(1024, 98)));
      res.once('drain', () => {
        drained = true;
        res.end();
      });
    });
    let headTimer: NodeJS.Timeout | undefined;
    const noHead = new Promise<never>((_, reject) => (headTimer = setTimeout(() => reject(new Error('no answer (head) to GET / within 5 s')), 5000)));
    const response = await Promise.race([app.fetch(new Request('http://127.0.0.1/')), noHead]).finally(() => clearTimeout(headTimer));
    assert.equal(answers.indexOf(false), 15, 'the 16th KiB is the first write() to say false');
    assert.equal(drained, false, "'drain' before anyone read");
    let timer: NodeJS.Timeout | undefined;
    const late = new Promise<never>((_, reject) => (timer = setTimeout(() => reject(new Error("no 'drain' within 5 s of the reader reading: the answer never ended")), 5000)));
    const body = Buffer.from(await Promise.race([response.arrayBuffer(), late]).finally(() => clearTimeout(timer)));
    assert.equal(body.length, 64 * 1024);
    assert.ok(drained, "no 'drain' although the reader read everything");
  });
});
