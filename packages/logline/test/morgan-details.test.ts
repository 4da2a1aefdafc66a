// morgan's last details: the timing fields it sets and apps read
// (`req._startAt`, `req._startTime`, `res._startAt`), and the named formats
// as members of the factory. Each is checked against morgan itself over HTTP.
import assert from 'node:assert/strict';
import http, { type IncomingMessage, type ServerResponse } from 'node:http';
import { describe, test } from 'node:test';
import morgan from 'morgan';
import request from 'supertest';
import logger from 'logline-http';
import { lineFor, runNode, send } from './helpers.js';
import { linesApart, withoutDurations } from './twins.js';

type Timed = IncomingMessage & { _startAt?: unknown; _startTime?: unknown; seen?: string };
type TimedResponse = ServerResponse & { _startAt?: unknown; _startTime?: unknown };

/** The same token in both loggers, as an app moving from morgan would define it. */
function defineInBoth(name: string, fn: (req: Timed, res: TimedResponse) => string): void {
  logger.token(name, fn as logger.TokenCallback);
  morgan.token(name, fn as morgan.TokenCallbackFn);
}

/** What a field holds, in a few words: `hrtime` for a [seconds, nanoseconds] pair. */
function kind(value: unknown): string {
  if (Array.isArray(value) && value.length === 2 && value.every(Number.isInteger)) return 'hrtime';
  if (value instanceof Date) return 'date';
  return String(value);
}

defineInBoth('fields', (req, res) => `${kind(req._startAt)} ${kind(req._startTime)} ${kind(res._startAt)} ${kind(res._startTime)}`);
defineInBoth('seen', (req) => req.seen ?? '-');
defineInBoth('started', (req) => (req._startTime instanceof Date ? req._startTime.toISOString() : '-'));
// A morgan-era token: milliseconds from the logger to the headers, from the fields.
defineInBoth('to-headers', (req, res) => {
  const [from, to] = [req._startAt, res._startAt] as Array<[number, number] | undefined>;
  if (from === undefined || to === undefined) return '-';
  const ms = (to[0] - from[0]) * 1e3 + (to[1] - from[1]) / 1e6;
  return ms >= 0 && ms < 60_000 ? 'ok' : `bad ${ms}`;
});

/** Notes, as the handler sees them, what the fields hold before the answer; then answers. */
function noting(req: Timed, res: TimedResponse): void {
  req.seen = `${kind(req._startAt)},${kind(req._startTime)},${kind(res._startAt)},${'_startAt' in res},${kind(res._startTime)},${'_startTime' in res}`;
  send(res, 200, 'ok');
}

describe("morgan's timing fields", () => {
  test('are set when the logger runs (req) and when the headers are written (res), as morgan sets them', async (t) => {
    t.mock.timers.enable({ apis: ['Date'], now: Date.UTC(2000, 9, 10, 13, 55, 36, 250) });
    const lines = await linesApart(':fields | :seen | :started | :to-headers', noting, [(url) => request(url).get('/')]);
    assert.deepEqual(lines.logline, ['hrtime date hrtime date | hrtime,date,undefined,true,undefined,true | 2000-10-10T13:55:36.250Z | ok']);
    assert.deepEqual(lines.logline, lines.morgan);
  });

  test('are set by an immediate logger too, which leaves res._startAt unset', async (t) => {
    t.mock.timers.enable({ apis: ['Date'], now: Date.UTC(2000, 9, 10, 13, 55, 36, 250) });
    const lines = await linesApart(':fields :started :response-time :total-time', noting, [(url) => request(url).get('/')], {
      immediate: true,
    });
    assert.deepEqual(lines.logline, ['hrtime date undefined undefined 2000-10-10T13:55:36.250Z - -']);
    assert.deepEqual(lines.logline, lines.morgan);
  });

  test(':response-time and :total-time are - when a field is missing, as in morgan', async () => {
    const handler = (req: Timed, res: TimedResponse): void => {
      if (req.url === '/no-req-start') delete req._startAt;
      res.writeHead(200, { 'Content-Length': '2' });
      if (req.url === '/no-res-start') delete res._startAt;
      res.end('ok');
    };
    const lines = await linesApart(':url :response-time ms :total-time ms', handler, [
      (url) => request(url).get('/both'),
      (url) => request(url).get('/no-req-start'),
      (url) => request(url).get('/no-res-start'),
    ]);
    assert.deepEqual(lines.logline.map(withoutDurations), ['/both T ms T ms', '/no-req-start - ms - ms', '/no-res-start - ms - ms']);
    assert.deepEqual(lines.logline.map(withoutDurations), lines.morgan.map(withoutDurations));
  });

  test('durations follow a req._startAt the app moved, as in morgan', async () => {
    // An app (or a proxy-aware middleware) that moves the start earlier, to count queueing time.
    const handler = (req: Timed, res: TimedResponse): void => {
      const [s, ns] = req._startAt as [number, number];
      req._startAt = [s - 10, ns];
      send(res, 200, 'ok');
    };
    const lines = await linesApart(':response-time[0] :total-time[0]', handler, [(url) => request(url).get('/')]);
    for (const line of [...lines.logline, ...lines.morgan]) {
      const [responseTime, totalTime] = line.split(' ').map(Number) as [number, number];
      assert.ok(responseTime >= 10_000 && responseTime < 70_000 && totalTime >= responseTime, line);
    }
  });
});

test('typed: the fields are on logger.LoglineRequest and logger.LoglineResponse (checked by tsc)', async () => {
  const seen: string[] = [];
  const app = http.createServer((req: logger.LoglineRequest, res: logger.LoglineResponse) => {
    logger('tiny', { stream: { write: () => true } })(req, res, () => {
      const startAt: logger.HrTime | undefined = req._startAt;
      const startTime: Date | undefined = req._startTime;
      res.writeHead(204);
      const headersAt: logger.HrTime | undefined = res._startAt;
      const headersTime: Date | undefined = res._startTime;
      seen.push(`${kind(startAt)} ${kind(startTime)} ${kind(headersAt)} ${kind(headersTime)}`);
      res.end();
    });
  });
  await new Promise<void>((resolve) => app.listen(0, '127.0.0.1', resolve));
  try {
    await request(app).get('/').expect(204);
    assert.deepEqual(seen, ['hrtime date hrtime date']);
  } finally {
    app.close();
  }
});

describe('the named formats as members of the factory, as on morgan', () => {
  test("logger.combined, common, short and tiny are morgan's format strings, and log morgan's lines", async (t) => {
    t.mock.timers.enable({ apis: ['Date'], now: Date.UTC(2000, 9, 10, 13, 55, 36) });
    const theirs = morgan as unknown as Record<string, unknown>;
    for (const name of ['combined', 'common', 'short', 'tiny'] as const) {
      assert.equal(typeof logger[name], 'string');
      assert.equal(logger[name], theirs[name], name);
      const lines = await linesApart(logger[name], (req, res) => send(res, 200, 'ok'), [
        (url) => request(url).get('/f').set('User-Agent', 'ua').auth('ann', 'pw'),
      ]);
      assert.deepEqual(lines.logline.map(withoutDurations), lines.morgan.map(withoutDurations), name);
      assert.match(lines.logline[0]!, /GET \/f/);
    }
  });

  test("logger.dev is the format function, and logging with it writes morgan's dev line", async () => {
    assert.equal(typeof logger.dev, 'function');
    const notFound = (req: IncomingMessage, res: ServerResponse): void => send(res, 404, 'no');
    const get = (url: string) => request(url).get('/d').ok(() => true);
    const line = await lineFor(logger.dev, notFound, get);
    assert.match(line, /^\x1b\[0mGET \/d \x1b\[33m404\x1b\[0m \d+\.\d{3} ms - 2\x1b\[0m$/);
    const byName = await linesApart('dev', notFound, [get]);
    assert.equal(withoutDurations(line), withoutDurations(byName.morgan[0]!));
  });

  test('the dev line follows NO_COLOR (https://no-color.org) as it is when the logger loads, as morgan 1.12 does', () => {
    // A fresh process per value: both read NO_COLOR once, when required.
    const script = `
      const http = require('node:http');
      const lines = { morgan: [], logline: [] };
      const sink = (name) => ({ write: (line) => { lines[name].push(line); return true; } });
      const loggers = [require('morgan')('dev', { stream: sink('morgan') }), require('logline-http')('dev', { stream: sink('logline') })];
      const server = http.createServer((req, res) => loggers[0](req, res, () => loggers[1](req, res, () => {
        res.writeHead(Number(req.url.slice(1)), { 'Content-Length': '2' });
        res.end('ab');
      })));
      server.listen(0, '127.0.0.1', async () => {
        for (const status of [200, 304, 404, 500]) await fetch('http://127.0.0.1:' + server.address().port + '/' + status);
        server.close(() => process.stdout.write(JSON.stringify(lines)));
      });`;
    const seen: Record<string, Record<'morgan' | 'logline', string[]>> = {};
    for (const value of ['1', '0', '']) {
      const run = runNode(script, [], { NO_COLOR: value });
      assert.equal(run.status, 0, run.stderr);
      const lines = JSON.parse(run.stdout) as Record<'morgan' | 'logline', string[]>;
      seen[value] = { morgan: lines.morgan.map(withoutDurations), logline: lines.logline.map(withoutDurations) };
      assert.deepEqual(seen[value].logline, seen[value].morgan, `NO_COLOR=${JSON.stringify(value)}`);
    }
    assert.deepEqual(seen['1']!.logline, ['GET /200 200 T ms - 2\n', 'GET /304 304 T ms - 2\n', 'GET /404 404 T ms - 2\n', 'GET /500 500 T ms - 2\n']);
    assert.deepEqual(seen['0'], seen['1']);
    assert.match(seen['']!.logline[0]!, /^\x1b\[0mGET \/200 \x1b\[32m200/);
  });

  test('logger.format(name, fmt) adds a member; assigning one defines the format; the last of a token and a format of one name is the member', async () => {
    const members = logger as unknown as Record<string, unknown>;
    assert.equal(logger.format('member-fmt', ':method :url'), logger);
    assert.equal(members['member-fmt'], ':method :url');
    members['member-fmt'] = ':url :method';
    assert.equal(await lineFor('member-fmt', (req, res) => send(res, 200, 'ok'), (url) => request(url).get('/assigned')), '/assigned GET');
    logger.token('member-fmt', () => 'a token now');
    assert.equal(typeof members['member-fmt'], 'function');
    logger.format('member-fmt', ':method');
    assert.equal(members['member-fmt'], ':method');
    // The factory's own members stay: format and token are still the methods.
    logger.format('token', ':method');
    assert.equal(typeof logger.token, 'function');
  });
});
