// logline loses no line over a graceful shutdown (docs/production.md#logs):
// a child process (test/lifecycle/server.ts) logs to a file and ends the
// stream as a shutdown hook; under a bounded load it gets SIGTERM. Every
// request answered has its line in the file, and no request answered twice.
import assert from 'node:assert/strict';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, test } from 'node:test';
import { startChild } from './lifecycle/child';
import { runLoad } from './lifecycle/load';
import { entries, within } from './lifecycle-helpers';

for (const [name] of entries) {
  describe(`${name}: logline over a shutdown`, () => {
    test('under load, SIGTERM: requests answered = lines in the file, the process exits 0', async () => {
      const dir = mkdtempSync(join(tmpdir(), 'trestle-lifecycle-'));
      try {
        const logFile = join(dir, 'access.log');
        const c = await within(startChild(name, logFile), 'child listening', 15_000);
        let signalled = false;
        const load = await within(runLoad({
          port: c.port,
          total: 600,
          concurrency: 16,
          onAnswer: (answered) => {
            if (answered === 150 && !signalled) {
              signalled = true;
              c.child.kill('SIGTERM');
            }
          },
        }), 'end of the load (600 requests)', 30_000);
        assert.equal(await within(c.exited, 'exit of the child after SIGTERM'), 0);
        const lines = readFileSync(logFile, 'utf8').split('\n').filter(Boolean);
        assert.deepEqual(load.wrong, []);
        assert.ok(load.answered >= 150, `answered ${load.answered}`);
        assert.equal(lines.length, load.answered);
        assert.ok(lines.every((line) => / 200 \d+ pid=\d+$/.test(line)), lines.find((line) => !/ 200 /.test(line)));
        // What was not answered never reached the app: refused, or reset on a kept-alive connection it closed.
        assert.deepEqual(Object.keys(load.failed).filter((code) => code !== 'ECONNREFUSED' && code !== 'ECONNRESET'), []);
      } finally {
        rmSync(dir, { recursive: true, force: true });
      }
    });
  });
}
