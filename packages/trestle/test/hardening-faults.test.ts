// Faults a server meets in production, each over real sockets: handlers that
// throw, reject, throw too late, call next(err) twice or never answer; error
// handlers that throw; clients that hang up mid-body or mid-response; log
// streams that throw, error or push back. For each: the answer the client
// gets (or a destroyed socket when nothing can be answered), the log line,
// no uncaught exception or unhandled rejection in the process, and the next
// request served by the same server.
import assert from 'node:assert/strict';
import { EventEmitter, once } from 'node:events';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import * as http from 'node:http';
import type { AddressInfo } from 'node:net';
import * as net from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Writable } from 'node:stream';
import { after, afterEach, before, beforeEach, describe, test } from 'node:test';
import logger from 'logline-http';
import trestle from 'trestle';
import type { Application, NextFunction, Request, Response } from 'trestle';

/** Every wait in this file gives up after this long instead of hanging. */
const LIMIT_MS = 10_000;

function bounded<T>(what: string, promise: Promise<T>): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const limit = new Promise<never>((_resolve, reject) => {
    timer = setTimeout(() => reject(new Error(`gave up waiting for ${what}`)), LIMIT_MS);
  });
  return Promise.race([promise, limit]).finally(() => clearTimeout(timer));
}

/** A promise with its resolve function, for "the server reached this point". */
function signal<T = void>(): { promise: Promise<T>; resolve: (value: T) => void } {
  let resolve!: (value: T) => void;
  const promise = new Promise<T>((r) => (resolve = r));
  return { promise, resolve };
}

// --- what reaches the process -------------------------------------------------

/** Uncaught exceptions and unhandled rejections seen while a test runs. */
const processFaults: string[] = [];
const onUncaught = (err: unknown): void => void processFaults.push(`uncaughtException: ${String(err)}`);
const onUnhandled = (reason: unknown): void => void processFaults.push(`unhandledRejection: ${String(reason)}`);
/** logline's failure warnings (not its deprecations): they replace what would otherwise be uncaught. */
const warnings: Array<{ code: string | undefined; message: string }> = [];
const warned = new EventEmitter();
const onWarning = (w: Error & { code?: string }): void => {
  if (!w.message.startsWith('logline: a log line')) return;
  warnings.push({ code: w.code, message: w.message });
  warned.emit('warning');
};

beforeEach(() => {
  processFaults.length = 0;
  warnings.length = 0;
  process.on('uncaughtException', onUncaught);
  process.on('unhandledRejection', onUnhandled);
  process.on('warning', onWarning);
});

afterEach(() => {
  process.off('uncaughtException', onUncaught);
  process.off('unhandledRejection', onUnhandled);
  process.off('warning', onWarning);
});

// --- log lines ----------------------------------------------------------------

/** A logline stream that keeps lines and lets a test await one. */
class Lines {
  readonly all: string[] = [];
  private readonly added = new EventEmitter();

  write(line: string): boolean {
    this.all.push(line);
    this.added.emit('line');
    return true;
  }

  /** Waits for the line, written on the server side when the exchange ends. */
  async seen(line: string): Promise<void> {
    await bounded(`log line ${JSON.stringify(line)} (have ${JSON.stringify(this.all)})`, (async () => {
      while (!this.all.includes(line + '\n')) await once(this.added, 'line');
    })());
  }
}

// --- a server and its clients -------------------------------------------------

interface Running {
  app: Application;
  server: http.Server;
  port: number;
  lines: Lines;
  connections: number;
}

const FORMAT = ':method :url :status';
let running: Running | undefined;

/** An app in `env` test (no stderr noise), logging to `lines`, with GET /ok. */
async function start(setup: (app: Application, lines: Lines) => void, stream?: logger.LogStream): Promise<Running> {
  const app = trestle();
  app.set('env', 'test');
  const lines = new Lines();
  app.use(logger(FORMAT, { stream: stream ?? lines }));
  app.get('/ok', (_req, res) => res.send('ok'));
  setup(app, lines);
  const server = http.createServer(app);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const run: Running = { app, server, port: (server.address() as AddressInfo).port, lines, connections: 0 };
  server.on('connection', () => run.connections++);
  running = run;
  return run;
}

afterEach(async () => {
  if (running === undefined) return;
  const { server } = running;
  running = undefined;
  server.closeAllConnections();
  await new Promise<void>((resolve) => server.close(() => resolve()));
});

interface Outcome {
  status: number;
  body: Buffer;
  /** Set when the exchange did not end cleanly: the request's or response's error code, or 'aborted'. */
  failure: string | undefined;
}

function get(port: number, path: string, agent: http.Agent | false = false): Promise<Outcome> {
  return new Promise((resolve) => {
    let status = 0;
    const chunks: Buffer[] = [];
    let settled = false;
    const settle = (failure: string | undefined) => {
      if (settled) return;
      settled = true;
      resolve({ status, body: Buffer.concat(chunks), failure });
    };
    const req = http.get({ host: '127.0.0.1', port, path, agent }, (res) => {
      status = res.statusCode ?? 0;
      res.on('data', (d: Buffer) => chunks.push(d));
      res.on('end', () => settle(res.complete ? undefined : 'aborted'));
      res.on('aborted', () => settle('aborted'));
      res.on('error', (e: NodeJS.ErrnoException) => settle(e.code ?? 'aborted'));
    });
    req.on('error', (e: NodeJS.ErrnoException) => settle(e.code ?? e.message));
  });
}

/** The server still serves, logs, and nothing escaped to the process. */
async function assertStillServing(run: Running, agent: http.Agent | false = false): Promise<void> {
  const ok = await bounded('GET /ok', get(run.port, '/ok', agent));
  assert.deepEqual({ status: ok.status, body: ok.body.toString(), failure: ok.failure }, { status: 200, body: 'ok', failure: undefined });
  await run.lines.seen('GET /ok 200');
  assert.deepEqual(processFaults, []);
}

/** Each path answered whole with the 500 page showing `message` first; logged; the server serves on. */
async function assertErrorPages(run: Running, pages: Array<[path: string, message: string]>): Promise<void> {
  for (const [path, message] of pages) {
    const out = await get(run.port, path);
    assert.deepEqual({ status: out.status, message: pageMessage(out.body), failure: out.failure }, { status: 500, message, failure: undefined }, path);
    await run.lines.seen(`GET ${path} 500`);
  }
  await assertStillServing(run);
}

/** Headers with `status`, `body`, then a destroyed socket; logged; the server serves on. */
async function assertCutShort(run: Running, path: string, status: number, body: string): Promise<void> {
  const out = await get(run.port, path);
  assert.deepEqual({ status: out.status, body: out.body.toString(), failure: out.failure }, { status, body, failure: 'aborted' });
  await run.lines.seen(`GET ${path} ${status}`);
  await assertStillServing(run);
}

const errorPage = /^<!DOCTYPE html>\n<html lang="en">\n<head>\n<meta charset="utf-8">\n<title>Error<\/title>\n<\/head>\n<body>\n<pre>([^<]*)/;

/** The first line of the message on the final handler's error page (the stack follows after a <br>). */
function pageMessage(body: Buffer): string | undefined {
  return errorPage.exec(body.toString())?.[1];
}

// --- handlers -----------------------------------------------------------------

describe('faults in handlers', () => {
  test('a synchronous throw is answered with the 500 page', async () => {
    const run = await start((app) =>
      app.get('/sync', () => {
        throw new Error('sync boom');
      }),
    );
    await assertErrorPages(run, [['/sync', 'Error: sync boom']]);
  });

  test('a rejected promise, also after an await, is answered with the 500 page', async () => {
    const run = await start((app) => {
      app.get('/reject', async () => {
        throw new Error('rejected at once');
      });
      app.get('/reject-later', async () => {
        await new Promise((resolve) => setImmediate(resolve));
        throw new Error('rejected later');
      });
      app.get('/reject-nothing', () => Promise.reject(undefined));
    });
    await assertErrorPages(run, [
      ['/reject', 'Error: rejected at once'],
      ['/reject-later', 'Error: rejected later'],
      ['/reject-nothing', 'Error: Rejected promise'],
    ]);
  });

  test('a throw after the headers went out destroys the socket mid-body', async () => {
    const run = await start((app) =>
      app.get('/late', (_req, res) => {
        res.writeHead(200, { 'Content-Type': 'text/plain' });
        res.write('first part');
        throw new Error('too late to answer');
      }),
    );
    await assertCutShort(run, '/late', 200, 'first part');
  });

  // Regression: the final handler destroyed the socket whenever headers were
  // sent, so a throw right after res.send() truncated a complete answer.
  test('a throw after the answer was ended leaves that answer whole and the connection open', async () => {
    const big = Buffer.alloc(8 << 20, 'a');
    const run = await start((app) =>
      app.get('/sent-then-throw', (_req, res) => {
        res.send(big);
        throw new Error('after the answer');
      }),
    );
    const agent = new http.Agent({ keepAlive: true, maxSockets: 1 });
    try {
      const out = await get(run.port, '/sent-then-throw', agent);
      assert.equal(out.failure, undefined);
      assert.equal(out.status, 200);
      assert.equal(out.body.length, big.length);
      assert.ok(out.body.equals(big));
      await run.lines.seen('GET /sent-then-throw 200');
      await assertStillServing(run, agent);
      assert.equal(run.connections, 1, 'the keep-alive connection carried the next request');
    } finally {
      agent.destroy();
    }
  });

  test('next(err) twice in a row: one whole 500 page, then the next request', async () => {
    const run = await start((app) =>
      app.get('/twice', (_req, _res, next) => {
        next(new Error('first'));
        next(new Error('second'));
      }),
    );
    const out = await get(run.port, '/twice');
    assert.equal(out.failure, undefined);
    assert.equal(out.status, 500);
    assert.equal(pageMessage(out.body), 'Error: first');
    await run.lines.seen('GET /twice 500');
    await assertStillServing(run);
  });

  // Regression: a late second next(err) found headersSent on its finished
  // response and destroyed the socket, which by then carried the client's
  // next request on the same keep-alive connection.
  test('a second next(err) after the answer does not kill the next request on that connection', async () => {
    let secondCall: (() => void) | undefined;
    const nextEntered = signal();
    const releaseNext = signal();
    const run = await start((app) => {
      app.get('/twice-late', (_req, _res, next) => {
        next(new Error('first'));
        secondCall = () => next(new Error('second'));
      });
      app.get('/next-on-same-connection', async (_req, res) => {
        nextEntered.resolve();
        await releaseNext.promise;
        res.send('answered whole');
      });
    });
    const agent = new http.Agent({ keepAlive: true, maxSockets: 1 });
    try {
      const first = await get(run.port, '/twice-late', agent);
      assert.equal(first.status, 500);
      assert.equal(first.failure, undefined);
      const pending = get(run.port, '/next-on-same-connection', agent);
      await bounded('the next request to reach its handler', nextEntered.promise);
      assert.ok(secondCall);
      secondCall();
      releaseNext.resolve();
      const second = await bounded('the next answer', pending);
      assert.deepEqual({ status: second.status, body: second.body.toString(), failure: second.failure }, { status: 200, body: 'answered whole', failure: undefined });
      assert.equal(run.connections, 1);
      await run.lines.seen('GET /next-on-same-connection 200');
      await assertStillServing(run, agent);
    } finally {
      agent.destroy();
    }
  });

  test('an error handler that throws or rejects: the final handler answers with its error', async () => {
    const run = await start((app) => {
      app.get('/eh-throws', (_req, _res, next) => next(new Error('original')));
      app.use('/eh-throws', (_err: unknown, _req: Request, _res: Response, _next: NextFunction) => {
        throw new Error('error handler threw');
      });
      app.get('/eh-rejects', (_req, _res, next) => next(new Error('original')));
      app.use('/eh-rejects', async (_err: unknown, _req: Request, _res: Response, _next: NextFunction) => {
        throw new Error('error handler rejected');
      });
    });
    await assertErrorPages(run, [
      ['/eh-throws', 'Error: error handler threw'],
      ['/eh-rejects', 'Error: error handler rejected'],
    ]);
  });

  test('an error handler that throws after starting its answer: the socket is destroyed', async () => {
    const run = await start((app) => {
      app.get('/eh-late', (_req, _res, next) => next(new Error('original')));
      app.use((_err: unknown, _req: Request, res: Response, _next: NextFunction) => {
        res.status(503).write('partial error page');
        throw new Error('error handler failed midway');
      });
    });
    await assertCutShort(run, '/eh-late', 503, 'partial error page');
  });

  test('a handler that never answers: the client gives up, the line says -, nothing is held', async () => {
    const entered = signal();
    const run = await start((app) =>
      app.get('/never', () => {
        entered.resolve();
      }),
    );
    const socket = net.connect(run.port, '127.0.0.1');
    socket.on('error', () => {});
    await once(socket, 'connect');
    socket.write('GET /never HTTP/1.1\r\nHost: localhost\r\n\r\n');
    await bounded('the handler', entered.promise);
    socket.destroy();
    await run.lines.seen('GET /never -');
    await assertStillServing(run);
  });

  test('a handler that never answers: the server timeout destroys the socket', async () => {
    const run = await start((app) => app.get('/never', () => undefined));
    // The socket-inactivity timeout: the server's answer to a handler that hangs.
    run.server.timeout = 200;
    const out = await bounded('the timeout', get(run.port, '/never'));
    assert.deepEqual({ status: out.status, failure: out.failure }, { status: 0, failure: 'ECONNRESET' });
    await run.lines.seen('GET /never -');
    await assertStillServing(run);
  });
});

// --- clients that hang up -------------------------------------------------------

describe('clients that disconnect', () => {
  let dir = '';
  let bigFile = '';
  before(async () => {
    dir = await mkdtemp(join(tmpdir(), 'trestle-faults-'));
    bigFile = join(dir, 'big.bin');
    // Larger than what loopback socket buffers hold, so the hang-up comes mid-response.
    await writeFile(bigFile, Buffer.alloc(32 << 20, 'b'));
  });
  after(async () => {
    await rm(dir, { recursive: true, force: true });
  });

  test('mid-body: the body parser reports request.aborted, no answer is attempted on the dead socket', async () => {
    const chunks = new EventEmitter();
    const seenErrors: Array<string | undefined> = [];
    const run = await start((app) => {
      app.post(
        '/json',
        (req, _res, next) => {
          req.on('data', (chunk: Buffer) => chunks.emit('chunk', chunk));
          next();
        },
        trestle.json(),
        (_req, res) => res.send('parsed?!'),
      );
      app.use((err: { type?: string }, _req: Request, _res: Response, next: NextFunction) => {
        seenErrors.push(err.type);
        next(err);
      });
    });
    const socket = net.connect(run.port, '127.0.0.1');
    socket.on('error', () => {});
    await once(socket, 'connect');
    const received = once(chunks, 'chunk');
    socket.write('POST /json HTTP/1.1\r\nHost: localhost\r\nContent-Type: application/json\r\nContent-Length: 100000\r\n\r\n{"a":');
    await bounded('the first body chunk', received);
    socket.destroy();
    await run.lines.seen('POST /json -');
    assert.deepEqual(seenErrors, ['request.aborted']);
    await assertStillServing(run);
  });

  test('mid-response: sendFile, static and a write loop stop, log the exchange and free the connection', async () => {
    const sendFileResults: Array<string | undefined> = [];
    const writeLoopClosed = signal();
    const run = await start((app) => {
      app.get('/send-file', (_req, res) =>
        res.sendFile(bigFile, (err?: NodeJS.ErrnoException) => sendFileResults.push(err?.code)),
      );
      app.use('/static', trestle.static(dir));
      app.get('/write-loop', (_req, res) => {
        const piece = Buffer.alloc(1 << 20, 'w');
        let closed = false;
        res.on('close', () => {
          closed = true;
          writeLoopClosed.resolve();
        });
        const more = (): void => {
          // Writes until the socket pushes back, resumes on 'drain'; stops when the client is gone.
          while (!closed && res.write(piece)) {
            /* keep writing */
          }
          if (!closed) res.once('drain', more);
        };
        more();
      });
    });
    for (const path of ['/send-file', '/static/big.bin', '/write-loop']) {
      await hangUpAfterFirstBytes(run.port, path);
      await run.lines.seen(`GET ${path} 200`);
    }
    await bounded('the write loop to see close', writeLoopClosed.promise);
    assert.deepEqual(sendFileResults, ['ECONNABORTED']);
    await assertStillServing(run);
  });
});

/** Reads the start of a response, then destroys the connection. */
async function hangUpAfterFirstBytes(port: number, path: string): Promise<void> {
  const socket = net.connect(port, '127.0.0.1');
  socket.on('error', () => {});
  await once(socket, 'connect');
  const firstBytes = once(socket, 'data');
  socket.write(`GET ${path} HTTP/1.1\r\nHost: localhost\r\n\r\n`);
  const [data] = (await bounded(`the first bytes of ${path}`, firstBytes)) as [Buffer];
  assert.match(data.toString('latin1'), /^HTTP\/1\.1 200 OK\r\n/);
  socket.destroy();
}

// --- log streams ----------------------------------------------------------------

describe('log streams that fail', () => {
  async function warning(count = 1): Promise<void> {
    await bounded(`${count} warning(s)`, (async () => {
      while (warnings.length < count) await once(warned, 'warning');
    })());
  }

  /** GET /ok answered, for a server whose log lines go elsewhere. */
  async function answersOk(run: Running): Promise<void> {
    const ok = await get(run.port, '/ok');
    assert.deepEqual({ status: ok.status, body: ok.body.toString() }, { status: 200, body: 'ok' });
  }

  // Regression: a throwing write() escaped from the response's 'finish'
  // listener as an uncaught exception, once per request.
  test('a write() that throws: answers unchanged, one warning per outage, no uncaught exception', async () => {
    let healthy = false;
    const written: string[] = [];
    const stream = {
      write(line: string): boolean {
        if (!healthy) throw new Error('disk unplugged');
        written.push(line);
        return true;
      },
    };
    const finished = new EventEmitter();
    const run = await start((app) => {
      app.get('/a', (_req, res) => {
        res.on('finish', () => setImmediate(() => finished.emit('done')));
        res.send('a');
      });
    }, stream);
    for (let i = 0; i < 3; i++) {
      const done = once(finished, 'done');
      const out = await get(run.port, '/a');
      assert.deepEqual({ status: out.status, body: out.body.toString() }, { status: 200, body: 'a' });
      await bounded('the exchange to finish', done);
    }
    await warning();
    assert.deepEqual(warnings, [{ code: 'LOGLINE_WRITE_FAILED', message: 'logline: a log line could not be written: disk unplugged' }]);
    healthy = true;
    const done = once(finished, 'done');
    await get(run.port, '/a');
    await bounded('the exchange to finish', done);
    assert.deepEqual(written, ['GET /a 200\n']);
    assert.deepEqual(processFaults, []);
  });

  // Regression: an 'error' event on the log stream had no listener and ended the process.
  test("a stream that emits 'error' on a failed write gives a warning, not a crash", async () => {
    const failing = new Writable({
      write(_chunk, _encoding, callback) {
        callback(new Error('no space left'));
      },
    });
    const run = await start((app) => app.get('/a', (_req, res) => res.send('a')), failing);
    const out = await get(run.port, '/a');
    assert.deepEqual({ status: out.status, body: out.body.toString() }, { status: 200, body: 'a' });
    await warning();
    assert.deepEqual(warnings.map((w) => w.message), ['logline: a log line could not be written: no space left']);
    // The failed stream is destroyed: later lines are reported lost, once, not dropped in silence.
    await answersOk(run);
    await warning(2);
    assert.deepEqual(warnings.map((w) => w.message), [
      'logline: a log line could not be written: no space left',
      'logline: a log line could not be written: the log stream is closed',
    ]);
    assert.deepEqual(processFaults, []);
  });

  test('a stream the app ended too early (say, at shutdown) gives a warning, not a crash', async () => {
    const ended = new Writable({ write: (_c, _e, cb) => cb() });
    ended.end();
    await once(ended, 'finish');
    const run = await start((app) => app.get('/b', (_req, res) => res.send('b')), ended);
    const b = await get(run.port, '/b');
    assert.deepEqual({ status: b.status, body: b.body.toString() }, { status: 200, body: 'b' });
    await warning();
    assert.deepEqual(warnings.map((w) => w.message), ['logline: a log line could not be written: the log stream is closed']);
    assert.deepEqual(processFaults, []);
  });

  // Regression: a throwing format or token escaped as an uncaught exception
  // (or, with `immediate`, failed the request); the buffer's timer let a
  // throwing stream escape too.
  test('a throwing format, immediate or not, and a throwing stream behind `buffer`: warnings only', async () => {
    const stream = {
      write(): boolean {
        throw new Error('buffered target failed');
      },
    };
    const badFormat = (): string => {
      throw new Error('format failed');
    };
    const run = await start((app) => {
      app.use(logger(badFormat));
      app.use(logger(badFormat, { immediate: true }));
      // The deprecated `buffer` option: lines flushed from a timer 1 ms later.
      app.use(logger(FORMAT, { stream, buffer: 1 }));
      app.get('/a', (_req, res) => res.send('a'));
    });
    const out = await get(run.port, '/a');
    assert.deepEqual({ status: out.status, body: out.body.toString() }, { status: 200, body: 'a' });
    await warning(3);
    assert.deepEqual(warnings.map((w) => w.message).sort(), [
      'logline: a log line could not be written: buffered target failed',
      'logline: a log line could not be written: format failed',
      'logline: a log line could not be written: format failed',
    ]);
    assert.deepEqual(processFaults, []);
  });

  test('a stream that pushes back: every request answered, every line written once it drains', async () => {
    const gate = signal();
    const accepted: string[] = [];
    let falseReturns = 0;
    // Holds every write until the gate opens, so write() returns false from the first line on.
    const slow = new Writable({
      highWaterMark: 1,
      write(chunk: Buffer, _encoding, callback) {
        void gate.promise.then(() => {
          accepted.push(chunk.toString());
          callback();
        });
      },
    });
    const realWrite = slow.write.bind(slow);
    slow.write = ((chunk: string) => {
      const ok = realWrite(chunk);
      if (!ok) falseReturns++;
      return ok;
    }) as typeof slow.write;
    const run = await start((app) => app.get('/n/:i', (req, res) => res.send(req.params.i)), slow);
    const agent = new http.Agent({ keepAlive: true, maxSockets: 4 });
    const total = 200;
    try {
      const outs = await bounded('all answers', Promise.all(Array.from({ length: total }, (_v, i) => get(run.port, `/n/${i}`, agent))));
      assert.deepEqual(outs.map((o) => o.body.toString()), Array.from({ length: total }, (_v, i) => String(i)));
      assert.equal(accepted.length, 0, 'nothing reached the stream while it pushed back');
      assert.ok(falseReturns >= total - 1, `write() returned false ${falseReturns} times`);
      gate.resolve();
      if (slow.writableLength !== 0) await bounded('the stream to drain', once(slow, 'drain'));
      assert.deepEqual(accepted.slice().sort(), Array.from({ length: total }, (_v, i) => `GET /n/${i} 200\n`).sort());
      assert.deepEqual(processFaults, []);
    } finally {
      agent.destroy();
    }
  });
});
