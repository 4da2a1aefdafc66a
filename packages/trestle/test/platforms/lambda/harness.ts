// One aws-lambda-ric process on one handler of fixtures/app.cjs, against a
// RuntimeApi of the test's own; invocations whose failure says what the
// client printed.
import type { IncomingMessage } from 'node:http';
import { join } from 'node:path';
import { installRic, startRic, type Ric } from './ric';
import { RuntimeApi, type Outcome } from './runtime-api';

export const TASK_ROOT = join(__dirname, 'fixtures');

export interface Function {
  api: RuntimeApi;
  ric: Ric;
  /** performance.now() when the client's process was spawned. */
  spawnedAt: number;
  invoke(event: unknown, ms?: number, what?: () => string): Promise<Outcome>;
  stop(): Promise<void>;
}

/** Starts the client on `handler` (`app.handler`, `app.streaming`, `app.counting`). */
export async function startFunction(handler: string): Promise<Function> {
  const entry = installRic();
  const api = await RuntimeApi.start();
  const spawnedAt = performance.now();
  const ric = startRic(entry, TASK_ROOT, handler, api.address);
  return {
    api,
    ric,
    spawnedAt,
    async invoke(event, ms = 15_000, what) {
      try {
        return await api.invoke(event, ms, what);
      } catch (err) {
        (err as Error).message += `\naws-lambda-ric's output:\n${ric.output()}`;
        throw err;
      }
    },
    async stop() {
      await ric.stop();
      await api.close();
    },
  };
}

/** An invocation's body as JSON (a buffered result, or the error the runtime posted). */
export function json(outcome: Outcome): Record<string, unknown> {
  return JSON.parse(outcome.body.toString()) as Record<string, unknown>;
}

/** Reads `req` 256 KiB at a time, 10 ms apart (about 25 MiB/s at most), counting what it has read and when. */
export function slowReader(progress: { read: number; at?: number }) {
  return (req: IncomingMessage) => new Promise<Buffer>((resolve, reject) => {
    const chunks: Buffer[] = [];
    const take = (): void => {
      let chunk: Buffer | null;
      let taken = 0;
      while (taken < 256 * 1024 && (chunk = req.read() as Buffer | null) !== null) {
        chunks.push(chunk);
        taken += chunk.length;
        progress.read += chunk.length;
        progress.at = performance.now();
      }
      // Ended, or cut (the Runtime API closed at a failed test's end): no more reads.
      if (req.readableEnded || req.destroyed) return;
      setTimeout(take, 10);
    };
    req.on('end', () => resolve(Buffer.concat(chunks)));
    req.on('error', reject);
    req.once('readable', take);
  });
}
