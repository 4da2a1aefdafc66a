// The deprecated `buffer` option: lines are kept and written to the real
// stream together, once per interval. A flush is one write() of whole lines,
// so lines still never interleave with another writer's.
import { reportFailure } from './stream-failures.js';
import type { LogStream } from './types.js';

export const DEFAULT_BUFFER_MS = 1000;

export class BufferedStream implements LogStream {
  private readonly lines: string[] = [];
  private timer: NodeJS.Timeout | null = null;
  private readonly flush = (): void => {
    this.timer = null;
    const chunk = this.lines.join('');
    this.lines.length = 0;
    // A timer callback: a throwing stream must not become an uncaught exception.
    try {
      this.target.write(chunk);
    } catch (err) {
      reportFailure(err);
    }
  };

  constructor(
    private readonly target: LogStream,
    private readonly interval: number,
  ) {}

  write(line: string): boolean {
    this.lines.push(line);
    // The timer keeps the process alive until the lines are out, as morgan's does.
    if (this.timer === null) this.timer = setTimeout(this.flush, this.interval);
    return true;
  }
}
