// The options (immediate, skip, stream), several mounts, file streams,
// back-pressure, and format functions that omit lines.
import assert from 'node:assert/strict';
import fs from 'node:fs';
import http from 'node:http';
import os from 'node:os';
import path from 'node:path';
import { describe, test } from 'node:test';
import request from 'supertest';
import logger from 'logline-http';
import { deferred, LineSink, lineFor, linePattern, send, serve } from './helpers.js';

describe('immediate', () => {
  test('writes the line when the request arrives, even if the handler never answers', async () => {
    const sink = new LineSink();
    const arrived = deferred();
    const app = await serve([logger(':method :url :status :res[content-length]', { stream: sink, immediate: true })], () =>
      arrived.resolve(),
    );
    const client = http.get(`${app.url}/hang`);
    client.on('error', () => {});
    try {
      assert.equal(await sink.firstLine(), 'GET /hang - -');
      await arrived.promise;
      assert.equal(sink.writes.length, 1);
    } finally {
      client.destroy();
      await app.close();
    }
  });

  test('can be mounted beside an end-of-response logger: one line on request, one on response', async () => {
    const sink = new LineSink();
    const app = await serve(
      [
        logger('--> :method :url', { stream: sink, immediate: true }),
        logger('<-- :method :url :status', { stream: sink }),
      ],
      (req, res) => send(res, 201, 'made'),
    );
    try {
      await request(app.url).post('/thing');
      assert.deepEqual(await sink.lines(2), ['--> POST /thing', '<-- POST /thing 201']);
    } finally {
      await app.close();
    }
  });
});

describe('skip', () => {
  test('is asked at the end of the response, with its status known', async () => {
    const sink = new LineSink();
    const seen: string[] = [];
    const skip = (req: http.IncomingMessage, res: http.ServerResponse): boolean => {
      seen.push(`${req.url} ${res.statusCode}`);
      return res.statusCode < 400;
    };
    const app = await serve([logger(':url :status', { stream: sink, skip })], (req, res) =>
      send(res, req.url === '/bad' ? 400 : 200, 'x'),
    );
    try {
      await request(app.url).get('/good');
      await request(app.url).get('/bad').ok(() => true);
      await request(app.url).get('/good2');
      await app.settled(3);
      assert.deepEqual(sink.writes, ['/bad 400\n']);
      assert.deepEqual(seen, ['/good 200', '/bad 400', '/good2 200']);
    } finally {
      await app.close();
    }
  });
});

describe('stream', () => {
  test('a file opened in append mode receives exact whole lines after what it held', async () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'logline-'));
    const file = path.join(dir, 'access.log');
    fs.writeFileSync(file, 'earlier line\n');
    const stream = fs.createWriteStream(file, { flags: 'a' });
    const app = await serve([logger(':method :url :status :res[content-length]', { stream })], (req, res) =>
      send(res, 200, 'hello'),
    );
    try {
      await request(app.url).get('/one');
      await request(app.url).delete('/two');
      await app.settled(2);
    } finally {
      await app.close();
    }
    await new Promise<void>((resolve, reject) => stream.end((err?: Error | null) => (err ? reject(err) : resolve())));
    try {
      assert.equal(fs.readFileSync(file, 'utf8'), 'earlier line\nGET /one 200 5\nDELETE /two 200 5\n');
    } finally {
      fs.rmSync(dir, { recursive: true, force: true });
    }
  });

  test('a file stream gets every line whole under concurrent load, and end() in the same turn loses none', async () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'logline-'));
    const file = path.join(dir, 'access.log');
    const stream = fs.createWriteStream(file);
    const count = 200;
    let finished = 0;
    const ended = deferred();
    const app = await serve([logger(':url :status', { stream })], (req, res) => {
      // Registered after the logger's own listener: its line is written by now.
      res.on('finish', () => {
        finished++;
        // The last line of the turn is still in the stream's buffer (corked
        // until the turn ends): ending the stream right here must flush it.
        if (finished === count) stream.end(() => ended.resolve());
      });
      send(res, 200, 'x');
    });
    try {
      const agent = new http.Agent({ keepAlive: true, maxSockets: 16 });
      await Promise.all(Array.from({ length: count }, (_, i) => request(app.url).get(`/f${i}`).agent(agent)));
      agent.destroy();
      await ended.promise;
      const lines = fs.readFileSync(file, 'utf8').split('\n');
      assert.equal(lines.pop(), '', 'the file ends with a newline');
      assert.deepEqual([...lines].sort(), Array.from({ length: count }, (_, i) => `/f${i} 200`).sort());
    } finally {
      await app.close();
      fs.rmSync(dir, { recursive: true, force: true });
    }
  });

  test('a file stream whose write() the app wrapped sees one call per line, uncorked', async () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'logline-'));
    const stream = fs.createWriteStream(path.join(dir, 'wrapped.log'));
    const calls: Array<{ chunk: string; corked: number }> = [];
    const original = stream.write;
    stream.write = function (this: fs.WriteStream, ...args: unknown[]) {
      calls.push({ chunk: String(args[0]), corked: this.writableCorked });
      return Reflect.apply(original, this, args) as boolean;
    } as typeof stream.write;
    const app = await serve([logger(':url', { stream })], (req, res) => send(res, 200, 'x'));
    try {
      await request(app.url).get('/w1');
      await request(app.url).get('/w2');
      await app.settled(2);
      assert.deepEqual(calls, [{ chunk: '/w1\n', corked: 0 }, { chunk: '/w2\n', corked: 0 }]);
    } finally {
      await app.close();
      await new Promise<void>((resolve) => stream.end(() => resolve()));
      fs.rmSync(dir, { recursive: true, force: true });
    }
  });

  test('each line is one write() of one string ending in a newline', async () => {
    const sink = new LineSink();
    const app = await serve([logger('combined', { stream: sink })], (req, res) => send(res, 200, 'abc'));
    try {
      await Promise.all([request(app.url).get('/a'), request(app.url).get('/b'), request(app.url).get('/c')]);
      await sink.waitForWrites(3);
      assert.equal(sink.writes.length, 3);
      const paths = sink.writes.map((chunk) => {
        assert.equal(chunk.indexOf('\n'), chunk.length - 1, 'one newline, at the end');
        return /"GET (\/[abc]) /.exec(chunk)?.[1];
      });
      assert.deepEqual([...paths].sort(), ['/a', '/b', '/c']);
      for (const [i, chunk] of sink.writes.entries()) {
        assert.match(chunk, linePattern(`127.0.0.1 - - [{clf}] "GET ${paths[i]} HTTP/1.1" 200 3 "-" "-"\n`));
      }
    } finally {
      await app.close();
    }
  });

  test('under back-pressure every line still arrives', async () => {
    // A tiny buffer and writes that complete on a later turn: write() returns
    // false almost at once, and keeps returning false while lines pile up.
    const sink = new LineSink({ highWaterMark: 1, slow: true });
    const app = await serve([logger(':url', { stream: sink })], (req, res) => send(res, 200, 'x'));
    const count = 25;
    try {
      await Promise.all(Array.from({ length: count }, (_, i) => request(app.url).get(`/r${i}`)));
      const lines = await sink.lines(count);
      assert.deepEqual(
        [...lines].sort(),
        Array.from({ length: count }, (_, i) => `/r${i}`).sort(),
      );
      assert.ok(sink.drains > 0, 'the stream did apply back-pressure');
    } finally {
      await app.close();
    }
  });
});

describe('several mounts', () => {
  test('each has its own format, stream and skip rule', async () => {
    const all = new LineSink();
    const errors = new LineSink();
    const app = await serve(
      [
        logger(':method :url :status', { stream: all }),
        logger('ERROR :url :status', { stream: errors, skip: (req, res) => res.statusCode < 400 }),
      ],
      (req, res) => send(res, req.url === '/boom' ? 500 : 200, 'x'),
    );
    try {
      await request(app.url).get('/fine');
      await request(app.url).get('/boom').ok(() => true);
      await request(app.url).get('/fine-again');
      await app.settled(3);
      assert.deepEqual(all.writes, ['GET /fine 200\n', 'GET /boom 500\n', 'GET /fine-again 200\n']);
      assert.deepEqual(errors.writes, ['ERROR /boom 500\n']);
    } finally {
      await app.close();
    }
  });
});

describe('timing with several loggers and app tokens', () => {
  const MS = /^\d+\.\d{3}$/;

  test('a line without timing mounted first does not leave a later :response-time without its clock', async () => {
    const plain = new LineSink();
    const timed = new LineSink();
    const app = await serve(
      [logger(':method :url', { stream: plain }), logger(':response-time', { stream: timed })],
      (req, res) => send(res, 200, 'x'),
    );
    try {
      await request(app.url).get('/t');
      await app.settled(1);
      assert.deepEqual(await plain.lines(1), ['GET /t']);
      const [ms] = await timed.lines(1);
      assert.match(ms!, MS);
      assert.ok(Number(ms) < 60_000, ms);
    } finally {
      await app.close();
    }
  });

  test('a token the app defines may read the timing, so a format naming it is timed', async () => {
    // A token reaches the timing tokens through the tokens object a format
    // function was given: capture it on one server, use it on another.
    let tokens: logger.TokenIndexer | undefined;
    const capture = await serve([logger((t) => void (tokens = t), { stream: new LineSink() })], (req, res) => send(res, 200, 'x'));
    try {
      await request(capture.url).get('/');
    } finally {
      await capture.close();
    }
    assert.ok(tokens);
    logger.token('elapsed-by-app', (req, res) => tokens!['response-time']!(req, res));
    const sink = new LineSink();
    const app = await serve([logger(':method :elapsed-by-app', { stream: sink })], (req, res) => send(res, 200, 'x'));
    try {
      await request(app.url).get('/');
      const [line] = await sink.lines(1);
      const ms = line!.slice('GET '.length);
      assert.match(ms, MS);
      assert.ok(Number(ms) < 60_000, ms);
    } finally {
      await app.close();
    }
  });
});

describe('format functions', () => {
  test('receive the tokens, req and res, and their string is the line', async () => {
    // The function of morgan's README, as existing apps pass it.
    const format: logger.FormatFn = (tokens, req, res) =>
      [
        tokens.method(req, res),
        tokens.url(req, res),
        tokens.status(req, res),
        tokens.res(req, res, 'content-length'),
        '-',
        tokens['response-time'](req, res),
        'ms',
      ].join(' ');
    const line = await lineFor(format, (req, res) => send(res, 200, 'four'), (url) => request(url).get('/fn'));
    assert.match(line, linePattern('GET /fn 200 4 - {ms} ms'));
  });

  test('returning null or undefined writes nothing', async () => {
    const sink = new LineSink();
    const formatted: string[] = [];
    const format: logger.FormatFn = (tokens, req) => {
      formatted.push(req.url ?? '');
      if (req.url === '/null') return null;
      if (req.url === '/undefined') return undefined;
      return `kept ${req.url}`;
    };
    const app = await serve([logger(format, { stream: sink })], (req, res) => send(res, 200, ''));
    try {
      await request(app.url).get('/null');
      await request(app.url).get('/undefined');
      await request(app.url).get('/kept');
      await app.settled(3);
      assert.deepEqual(formatted, ['/null', '/undefined', '/kept']);
      assert.deepEqual(sink.writes, ['kept /kept\n']);
    } finally {
      await app.close();
    }
  });

  test('returning an empty string writes an empty line', async () => {
    const sink = new LineSink();
    const app = await serve([logger(() => '', { stream: sink })], (req, res) => send(res, 200, ''));
    try {
      await request(app.url).get('/');
      await app.settled(1);
      assert.deepEqual(sink.writes, ['\n']);
    } finally {
      await app.close();
    }
  });
});
