// logger(format, options): checks its arguments once, at creation, and
// returns the middleware. Every bad argument is a TypeError here rather than
// a surprise at the first request.
import type { WriteStream } from 'node:fs';
import { BufferedStream, DEFAULT_BUFFER_MS } from './buffered-stream.js';
import { deprecate } from './deprecate.js';
import { logAtEnd, startClock, type EndOfResponseLogger } from './exchange.js';
import { asFileStream, writeFileLine } from './file-corking.js';
import { formatNamed } from './formats.js';
import { reportFailure, watchErrors } from './stream-failures.js';
import { tokens } from './tokens.js';
import type {
  FormatFn,
  LegacyLoggerOptions,
  LogStream,
  LoglineMiddleware,
  LoglineRequest,
  LoglineResponse,
} from './types.js';

type Skip = (req: LoglineRequest, res: LoglineResponse) => unknown;

/** Builds and writes the line of one exchange. */
class LineWriter implements EndOfResponseLogger {
  /** Set while lines fail, so a broken stream warns once, not once per request. */
  private failing = false;
  /** The stream, when it is a file stream: its lines are corked per turn (file-corking.ts). */
  private readonly fileStream: WriteStream | undefined;

  constructor(
    private readonly format: FormatFn,
    private readonly skip: Skip | undefined,
    private readonly stream: LogStream,
  ) {
    this.fileStream = asFileStream(stream);
  }

  log(req: LoglineRequest, res: LoglineResponse): void {
    // Runs from the response's 'finish'/'close' listeners (or before next()
    // with `immediate`): a throw here would be an uncaught exception.
    try {
      if (this.skip !== undefined && this.skip(req, res)) return;
      const line = this.format(tokens, req, res);
      if (line === undefined || line === null) return;
      // A destroyed stream (ended, or failed earlier) drops writes without a
      // word: say so instead of losing lines silently.
      if ((this.stream as { destroyed?: unknown }).destroyed === true) throw new Error('the log stream is closed');
      // One write of one whole line: appenders to the same file never see half
      // lines. A false return (back-pressure) is not a reason to drop lines:
      // the stream buffers them.
      if (this.fileStream !== undefined) writeFileLine(this.fileStream, line + '\n');
      else this.stream.write(line + '\n');
      this.failing = false;
    } catch (err) {
      if (!this.failing) reportFailure(err);
      this.failing = true;
    }
  }
}

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** The format and options after the deprecated call forms are unfolded. */
function unfoldArguments(format: unknown, options: unknown): { format: unknown; options: unknown } {
  if (isObject(format)) {
    deprecate(
      'LOGLINE_DEP_OPTIONS_OBJECT',
      'logline: logger(options) is deprecated: use logger(format, options)',
    );
    return { format: format.format || 'default', options: format };
  }
  if (format === undefined) {
    deprecate('LOGLINE_DEP_NO_FORMAT', 'logline: logger() without a format is deprecated: specify a format');
    return { format: 'default', options };
  }
  return { format, options };
}

function formatFunction(format: unknown): FormatFn {
  if (typeof format === 'function') return format as FormatFn;
  // An empty name falls back to the default format, as morgan's does.
  if (typeof format === 'string') return formatNamed(format === '' ? 'default' : format);
  throw new TypeError(
    `logline: argument format must be a format name, a format string or a function, got ${describe(format)}`,
  );
}

function describe(value: unknown): string {
  if (value === null) return 'null';
  if (Array.isArray(value)) return 'an array';
  return typeof value;
}

function streamOption(stream: unknown): LogStream {
  if (stream === undefined || stream === null) return process.stdout;
  if (typeof (stream as Partial<LogStream>).write !== 'function') {
    throw new TypeError('logline: option stream must have a write() method');
  }
  return stream as LogStream;
}

function skipOption(skip: unknown): Skip | undefined {
  if (skip === undefined || skip === null || skip === false) return undefined;
  if (typeof skip !== 'function') throw new TypeError('logline: option skip must be a function');
  return skip as Skip;
}

function bufferedIfAsked(stream: LogStream, buffer: unknown): LogStream {
  if (!buffer) return stream;
  deprecate('LOGLINE_DEP_BUFFER', 'logline: the buffer option is deprecated: lines are written as they come');
  return new BufferedStream(stream, typeof buffer === 'number' ? buffer : DEFAULT_BUFFER_MS);
}

export function createLogger(formatArg?: unknown, optionsArg?: unknown): LoglineMiddleware {
  const { format, options } = unfoldArguments(formatArg, optionsArg);
  if (options !== undefined && options !== null && !isObject(options)) {
    throw new TypeError(`logline: argument options must be an object, got ${describe(options)}`);
  }
  const opts: LegacyLoggerOptions = (options ?? {}) as LegacyLoggerOptions;
  const formatLine = formatFunction(format);
  const skip = skipOption(opts.skip);
  const target = streamOption(opts.stream);
  watchErrors(target);
  const stream = bufferedIfAsked(target, opts.buffer);
  const writer = new LineWriter(formatLine, skip, stream);

  if (opts.immediate) {
    return function loglineImmediate(req, res, next) {
      startClock(req, res);
      writer.log(req, res);
      next();
    };
  }
  return function logline(req, res, next) {
    logAtEnd(req, res, writer);
    next();
  };
}
