// What logline tracks for one request/response pair while it is in flight:
// when each logger saw the request, when the headers were written, when the
// response finished, and which loggers wait to write a line at the end.
//
// The record lives on the response under a symbol. It is created once per
// response however many loggers are mounted, and it hooks the response once:
// one shared listener each for 'finish' and 'close' and, when some logger's
// line can read the timing, `writeHead` replaced by one shared function (no
// closure per request). Without such a logger (`combined`, `common`) no
// clock is read and writeHead is left alone: three clock reads and the hook
// were about a tenth of what a line cost (~140 of ~1,300 ns).
import type { ServerResponse } from 'node:http';
import { performance } from 'node:perf_hooks';
import type { LoglineRequest, LoglineResponse } from './types.js';

/** Something that writes a line for a finished exchange. */
export interface EndOfResponseLogger {
  log(req: LoglineRequest, res: LoglineResponse): void;
}

interface Waiting {
  logger: EndOfResponseLogger;
  start: number;
}

interface Exchange {
  req: LoglineRequest;
  /** Does some waiting logger read the timing? Then the clock is read. */
  timed: boolean;
  /** Start of the logger whose line is being built (see `logEnd`). */
  start: number;
  /** 0 until the headers are written. */
  headersAt: number;
  /** 0 until the response has been completely handed to the connection. */
  finishedAt: number;
  ended: boolean;
  /** The `writeHead` that was in place before ours; undefined until timed. */
  writeHead: ServerResponse['writeHead'] | undefined;
  waiting: Waiting[];
}

const EXCHANGE = Symbol('logline.exchange');

type Tracked = LoglineResponse & { [EXCHANGE]?: Exchange };

// performance.now() is monotonic (clock changes do not skew durations) and
// returns a plain number, so timing allocates nothing. Imported: node's
// global `performance` is a getter, called on every use.
const now = (): number => performance.now();

function exchangeOf(res: LoglineResponse): Exchange | undefined {
  return (res as Tracked)[EXCHANGE];
}

// Node writes headers through `this.writeHead`, also implicitly from
// write()/end(), so this sees every way headers go out.
function timedWriteHead(this: Tracked): ServerResponse {
  const exchange = this[EXCHANGE] as Exchange;
  if (exchange.headersAt === 0) exchange.headersAt = now();
  // `arguments` passes whatever the caller gave through untouched.
  return Reflect.apply(exchange.writeHead as ServerResponse['writeHead'], this, arguments) as ServerResponse;
}

function onFinish(this: Tracked): void {
  const exchange = this[EXCHANGE] as Exchange;
  if (exchange.timed && exchange.finishedAt === 0) exchange.finishedAt = now();
  logEnd(exchange, this);
}

// 'close' without 'finish' means the connection went away first: the lines
// are still written, with whatever the response had reached.
function onClose(this: Tracked): void {
  logEnd(this[EXCHANGE] as Exchange, this);
}

function logEnd(exchange: Exchange, res: LoglineResponse): void {
  if (exchange.ended) return;
  exchange.ended = true;
  for (const { logger, start } of exchange.waiting) {
    // Durations are measured from when *this* logger saw the request.
    exchange.start = start;
    logger.log(exchange.req, res);
  }
}

/** From now on the exchange's headers and end are timed. */
function startTiming(exchange: Exchange, res: LoglineResponse): void {
  exchange.timed = true;
  exchange.writeHead = res.writeHead;
  res.writeHead = timedWriteHead as ServerResponse['writeHead'];
}

/**
 * Registers `logger` to write its line when the response ends, starting the
 * clock for it now if its line can read the timing (`timed`).
 */
export function logAtEnd(req: LoglineRequest, res: LoglineResponse, logger: EndOfResponseLogger, timed: boolean): void {
  const start = timed ? now() : 0;
  const existing = exchangeOf(res);
  if (existing !== undefined) {
    existing.start = start;
    existing.waiting.push({ logger, start });
    if (timed && !existing.timed) startTiming(existing, res);
    return;
  }
  // Kept on req for morgan-era tokens, and because the socket forgets its
  // address once it is destroyed, before a line for an aborted request is due.
  if (req._remoteAddress === undefined) req._remoteAddress = req.socket?.remoteAddress;
  const exchange: Exchange = {
    req,
    timed: false,
    start,
    headersAt: 0,
    finishedAt: 0,
    ended: false,
    writeHead: undefined,
    waiting: [{ logger, start }],
  };
  (res as Tracked)[EXCHANGE] = exchange;
  if (timed) startTiming(exchange, res);
  res.on('finish', onFinish);
  res.on('close', onClose);
}

function elapsed(from: number, to: number): number | undefined {
  return to === 0 ? undefined : to - from;
}

/** Milliseconds from the logger seeing the request to the headers; undefined before. */
export function msToHeaders(res: LoglineResponse): number | undefined {
  const exchange = exchangeOf(res);
  return exchange === undefined ? undefined : elapsed(exchange.start, exchange.headersAt);
}

/** Milliseconds from the logger seeing the request to the finished response. */
export function msToFinish(res: LoglineResponse): number | undefined {
  const exchange = exchangeOf(res);
  return exchange === undefined ? undefined : elapsed(exchange.start, exchange.finishedAt);
}
