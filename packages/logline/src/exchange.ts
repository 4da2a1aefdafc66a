// What logline tracks for one request/response pair while it is in flight:
// when each logger saw the request, and which loggers wait to write a line
// at the end.
//
// The clock is morgan's, on morgan's fields, because apps read them (tokens
// built on `req._startTime`, durations from `req._startAt`): each logger
// sets `req._startAt` (a `process.hrtime()` pair) and `req._startTime` (a
// Date) when it runs, and `res._startAt` and `res._startTime` are set when the
// headers are written.
// `:response-time` and `:total-time` are `-` when either `_startAt` is
// missing, as morgan's are.
//
// The record lives on the response under a symbol. It is created once per
// response however many loggers are mounted, and it hooks the response once:
// one shared listener each for 'finish' and 'close' and `writeHead` replaced
// by one shared function (no closure per request).
import type { ServerResponse } from 'node:http';
import type { HrTime, LoglineRequest, LoglineResponse } from './types.js';

/** Something that writes a line for a finished exchange. */
export interface EndOfResponseLogger {
  log(req: LoglineRequest, res: LoglineResponse): void;
}

interface Waiting {
  logger: EndOfResponseLogger;
  start: HrTime;
}

interface Exchange {
  req: LoglineRequest;
  /**
   * When the logger whose line is being built saw the request (see
   * `onEnd`): each mount times from its own start, not from the last
   * mount's `req._startAt` as in morgan.
   */
  start: HrTime;
  /** The start the last logger put on `req._startAt`: if that changed, the app moved it. */
  latest: HrTime;
  ended: boolean;
  /** The `writeHead` that was in place before ours. */
  writeHead: ServerResponse['writeHead'];
  /** The first logger mounted and its start: usually the only one, so no list is made for it. */
  logger: EndOfResponseLogger;
  loggerStart: HrTime;
  /** Loggers mounted after the first, in order. */
  more: Waiting[] | undefined;
}

const EXCHANGE = Symbol('logline.exchange');

type Tracked = LoglineResponse & { [EXCHANGE]?: Exchange };

function exchangeOf(res: LoglineResponse): Exchange | undefined {
  return (res as Tracked)[EXCHANGE];
}

// Node writes headers through `this.writeHead`, also implicitly from
// write()/end(), so this sees every way headers go out.
function timedWriteHead(this: Tracked): ServerResponse {
  if (this._startAt === undefined) {
    this._startAt = process.hrtime();
    this._startTime = new Date();
  }
  // `arguments` passes whatever the caller gave through untouched.
  return Reflect.apply((this[EXCHANGE] as Exchange).writeHead, this, arguments) as ServerResponse;
}

// 'close' without 'finish' means the connection went away first: the lines
// are still written, with whatever the response had reached.
function onEnd(this: Tracked): void {
  const exchange = this[EXCHANGE] as Exchange;
  if (exchange.ended) return;
  exchange.ended = true;
  // Durations are measured from when *each* logger saw the request.
  exchange.start = exchange.loggerStart;
  exchange.logger.log(exchange.req, this);
  const more = exchange.more;
  if (more === undefined) return;
  for (const { logger, start } of more) {
    exchange.start = start;
    logger.log(exchange.req, this);
  }
}

/** Sets morgan's `req._startAt` and `req._startTime` for a logger that runs now; returns the start. */
export function startClock(req: LoglineRequest, res: LoglineResponse): HrTime {
  const start = process.hrtime();
  req._startAt = start;
  req._startTime = new Date();
  const exchange = exchangeOf(res);
  if (exchange !== undefined) exchange.latest = start;
  return start;
}

/** Registers `logger` to write its line when the response ends, its clock started now. */
export function logAtEnd(req: LoglineRequest, res: LoglineResponse, logger: EndOfResponseLogger): void {
  const start = startClock(req, res);
  const existing = exchangeOf(res);
  if (existing !== undefined) {
    existing.start = start;
    if (existing.more === undefined) existing.more = [];
    existing.more.push({ logger, start });
    return;
  }
  // Kept on req for morgan-era tokens, and because the socket forgets its
  // address once it is destroyed, before a line for an aborted request is due.
  if (req._remoteAddress === undefined) req._remoteAddress = req.socket?.remoteAddress;
  res._startAt = undefined;
  res._startTime = undefined;
  (res as Tracked)[EXCHANGE] = {
    req,
    start,
    latest: start,
    ended: false,
    writeHead: res.writeHead,
    logger,
    loggerStart: start,
    more: undefined,
  };
  res.writeHead = timedWriteHead as ServerResponse['writeHead'];
  res.on('finish', onEnd);
  res.on('close', onEnd);
}

function msBetween(from: HrTime, to: HrTime): number {
  return (to[0] - from[0]) * 1e3 + (to[1] - from[1]) * 1e-6;
}

/**
 * Where durations start: the start of the logger whose line is being built,
 * unless the app moved `req._startAt` (then that, as in morgan). Undefined,
 * for `-`, when `req._startAt` or `res._startAt` is missing, as in morgan.
 */
function startOf(req: LoglineRequest, res: LoglineResponse): HrTime | undefined {
  if (!req._startAt || !res._startAt) return undefined;
  const exchange = exchangeOf(res);
  return exchange !== undefined && exchange.latest === req._startAt ? exchange.start : req._startAt;
}

/** Milliseconds from the logger seeing the request to the headers. */
export function msToHeaders(req: LoglineRequest, res: LoglineResponse): number | undefined {
  const start = startOf(req, res);
  return start === undefined ? undefined : msBetween(start, res._startAt as HrTime);
}

/** Milliseconds from the logger seeing the request to now (the line is written when the response finished). */
export function msToNow(req: LoglineRequest, res: LoglineResponse): number | undefined {
  const start = startOf(req, res);
  return start === undefined ? undefined : msBetween(start, process.hrtime());
}
