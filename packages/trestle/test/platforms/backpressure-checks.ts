// What a backpressure probe (test/runtimes/backpressure.cjs) must show on
// every runtime: the writer held back by a slow reader, each failure naming
// what did not happen.
import assert from 'node:assert/strict';

export interface Probe {
  read: number;
  written: number;
  maxAhead: number;
  falses: number;
  drains: number;
  finished: boolean;
  stalled: boolean;
  ms: number;
}

export const CHUNK = 65536;
/** How far the writer may get ahead of the reader: the queue's mark and a few chunks in flight, not the answer. */
const AHEAD = 4 * CHUNK;

/** The checks every runtime's probe must pass, each failure naming what did not happen. */
export function assertHeldBack(r: Probe, total: number, deadlineS: number): void {
  assert.ok(!r.stalled, `no 'drain' within ${deadlineS} s: the handler wrote ${r.written} bytes, the reader read ${r.read} (write() said false ${r.falses} times, 'drain' came ${r.drains})`);
  assert.ok(r.falses > 0, `res.write() never said false while ${total} bytes went to a slow reader (it ran at most ${r.maxAhead} bytes ahead)`);
  assert.equal(r.drains, r.falses, "each false from res.write() is followed by a 'drain'");
  assert.ok(r.maxAhead <= AHEAD, `the writer ran ${r.maxAhead} bytes ahead of the reader (bound ${AHEAD}): the answer was buffered, not held back`);
  assert.equal(r.read, total, 'the reader got the whole answer');
  assert.ok(r.finished, "the handler that waits for 'drain' did not finish");
}

