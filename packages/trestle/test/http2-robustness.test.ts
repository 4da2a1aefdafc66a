// HTTP/2 faults and load: a client resetting a stream mid-upload, a session
// closed mid-response, 100 concurrent streams on one session, a handler that
// throws among them, a bounded mixed load with resets; the process stays up,
// every other stream is answered, no file descriptor is left behind, and
// logline writes one whole line per request with HTTP/2's values.
import assert from 'node:assert/strict';
import { readdirSync, readlinkSync } from 'node:fs';
import * as http2 from 'node:http2';
import { describe, test } from 'node:test';
import { Writable } from 'node:stream';
import logger from 'logline-http';
import trestle from 'trestle';
import trestleLegacy from 'trestle/legacy';
import trestleV4 from 'trestle/v4';
import { connect, h2Request, modes, serveH2, until } from './http2-helpers';

type Loose = Record<string, unknown>;

const generations: Array<[string, typeof trestle]> = [
  ['trestle', trestle],
  ['trestle/v4', trestleV4 as unknown as typeof trestle],
  ['trestle/legacy', trestleLegacy as unknown as typeof trestle],
];

/** A stream that keeps what logline writes, split into lines. */
function memoryLog(): { stream: Writable; lines: () => string[] } {
  let text = '';
  const stream = new Writable({
    write(chunk: Buffer, _encoding, done) {
      text += chunk.toString();
      done();
    },
  });
  return { stream, lines: () => text.split('\n').filter((l) => l !== '') };
}

/**
 * The process's open sockets (Linux). Sockets only: node's test runner opens
 * its reporter's file (run-tests.mjs's event log) lazily, during the first
 * test, which is not this test's to count.
 */
function openFds(): number {
  if (process.platform !== 'linux') return 0;
  let sockets = 0;
  for (const fd of readdirSync('/proc/self/fd')) {
    try {
      if (readlinkSync(`/proc/self/fd/${fd}`).startsWith('socket:')) sockets++;
    } catch {
      // Closed between the listing and the read (readdir's own descriptor among them).
    }
  }
  return sockets;
}

/** A request whose stream ends by the client's RST_STREAM after `bytes` of its body were sent. */
function resetMidUpload(session: http2.ClientHttp2Session, path: string, bytes: number): Promise<void> {
  return new Promise((resolve) => {
    const stream = session.request({ ':method': 'POST', ':path': path, 'content-type': 'application/octet-stream', 'content-length': String(bytes * 4) });
    stream.on('error', () => undefined);
    stream.on('close', () => resolve());
    stream.write(Buffer.alloc(bytes, 1), () => setImmediate(() => stream.close(http2.constants.NGHTTP2_CANCEL)));
  });
}

for (const [entry, factory] of generations) {
  for (const mode of modes) {
    describe(`${entry} over ${mode}: faults`, () => {
      test('a stream reset mid-upload, a session closed mid-response, a throwing handler: the others are answered', async () => {
        const fdsBefore = openFds();
        const app = factory();
        app.set('env', 'test');
        const seen: string[] = [];
        let releaseSlow: () => void = () => undefined;
        const slowReleased = new Promise<void>((resolve) => (releaseSlow = resolve));
        app.post('/upload', factory.raw({ limit: '1mb' }), (req, res) => res.send(`got ${(req.body as Buffer).length}`));
        app.get('/partial', (_req, res) => {
          res.type('text');
          res.write('first part;');
          void slowReleased.then(() => {
            // The client is gone: these must neither throw nor crash.
            res.end('second part');
            seen.push('partial ended');
          });
        });
        app.get('/late', (_req, res) => {
          void slowReleased.then(() => {
            res.set('X-Late', 'yes').json({ late: true });
            seen.push('late sent');
          });
        });
        app.get('/throw', () => {
          throw new Error('handler threw');
        });
        app.get('/ok/:n', (req, res) => res.send(`ok ${req.params.n}`));
        app.use((err: Error & { type?: string }, _req: trestle.Request, res: trestle.Response, next: trestle.NextFunction) => {
          seen.push(err.type ?? err.message);
          if (res.headersSent) return next(err);
          res.status(500).send('failed');
        });
        const served = await serveH2(app, mode);
        try {
          // Reset mid-upload, then the same session goes on.
          await resetMidUpload(served.session(), '/upload', 16 * 1024);
          assert.equal((await served.request('/ok/1')).text, 'ok 1');
          assert.ok(await until(() => seen.includes('request.aborted')), `the parser saw the abort: ${seen.join(', ')}`);

          // A second session is destroyed once the first bytes of an answer arrive.
          const doomed = connect(served.origin);
          doomed.on('error', () => undefined);
          const late = doomed.request({ ':path': '/late' });
          late.on('error', () => undefined);
          await new Promise<void>((resolve) => {
            const stream = doomed.request({ ':path': '/partial' });
            stream.on('error', () => undefined);
            stream.once('data', () => {
              doomed.destroy();
              resolve();
            });
          });
          releaseSlow();
          assert.ok(await until(() => seen.includes('partial ended') && seen.includes('late sent')), seen.join(', '));
          assert.equal((await served.request('/ok/2')).text, 'ok 2');

          // 100 streams at once on one session, one of them throwing.
          const paths = Array.from({ length: 100 }, (_v, i) => (i === 50 ? '/throw' : `/ok/${i}`));
          const answers = await Promise.all(paths.map((p) => served.request(p)));
          answers.forEach((a, i) => {
            if (i === 50) assert.deepEqual([a.status, a.text], [500, 'failed']);
            else assert.deepEqual([a.status, a.text], [200, `ok ${i}`]);
          });
        } finally {
          await served.close();
        }
        // Every socket closed: the open sockets are back where they were.
        if (process.platform === 'linux') assert.ok(await until(() => openFds() <= fdsBefore), `sockets ${fdsBefore} -> ${openFds()}`);
      });
    });
  }
}

describe('logline over HTTP/2', () => {
  for (const mode of modes) {
    test(`${mode}: :http-version 2.0, :remote-addr, :status, :res[content-length], timings; the json format`, async () => {
      const text = memoryLog();
      const json = memoryLog();
      const app = trestle();
      app.use(logger(':http-version :remote-addr :method :url :status :res[content-length] :response-time :total-time', { stream: text.stream }));
      app.use(logger('json', { stream: json.stream }));
      app.get('/hello', (_req, res) => res.send('hello'));
      const served = await serveH2(app, mode);
      try {
        await served.request('/hello', { headers: { 'user-agent': 'h2-test', referer: 'https://ref.example/' } });
        await served.request('/missing');
        assert.ok(await until(() => text.lines().length === 2 && json.lines().length === 2));
        const [hello, missing] = text.lines();
        assert.match(hello!, /^2\.0 127\.0\.0\.1 GET \/hello 200 5 \d+\.\d{3} \d+\.\d{3}$/);
        assert.match(missing!, /^2\.0 127\.0\.0\.1 GET \/missing 404 \d+ \d+\.\d{3} \d+\.\d{3}$/);
        const entry = JSON.parse(json.lines()[0]!) as Loose;
        assert.equal(entry['http-version'], '2.0');
        assert.equal(entry['remote-addr'], '127.0.0.1');
        assert.equal(entry.method, 'GET');
        assert.equal(entry.url, '/hello');
        assert.equal(entry.status, 200);
        assert.equal(entry['content-length'], 5);
        assert.equal(entry['user-agent'], 'h2-test');
        assert.equal(entry.referrer, 'https://ref.example/');
        assert.equal(typeof entry['response-time'], 'number');
        assert.ok((entry['total-time'] as number) >= (entry['response-time'] as number));
      } finally {
        await served.close();
      }
    });

    test(`${mode}: a bounded mixed load with client resets: one whole line per request that reached the app`, async () => {
      const log = memoryLog();
      const app = trestle();
      let reached = 0;
      app.use((_req, _res, next) => {
        reached++;
        next();
      });
      app.use(logger(':http-version :method :url :status', { stream: log.stream }));
      app.get('/n/:n', (req, res) => res.json({ n: Number(req.params.n) }));
      const served = await serveH2(app, mode);
      const sessions = Array.from({ length: 4 }, () => connect(served.origin));
      for (const s of sessions) s.on('error', () => undefined);
      try {
        let answered = 0;
        const rounds = 20;
        for (let round = 0; round < rounds; round++) {
          const batch = Array.from({ length: 50 }, (_v, i) => {
            const n = round * 50 + i;
            const session = sessions[n % sessions.length]!;
            if (n % 10 === 9) {
              // Sent, then cancelled by the client before the answer is read.
              return new Promise<void>((resolve) => {
                const stream = session.request({ ':path': `/n/${n}` });
                stream.on('error', () => undefined);
                stream.on('close', () => resolve());
                stream.on('response', () => stream.close(http2.constants.NGHTTP2_CANCEL));
                stream.end();
              });
            }
            return h2Request(session, `/n/${n}`).then((a) => {
              assert.deepEqual(JSON.parse(a.text), { n });
              answered++;
            });
          });
          await Promise.all(batch);
        }
        assert.equal(answered, rounds * 45);
        assert.ok(await until(() => log.lines().length === reached, 5000), `${log.lines().length} lines for ${reached} requests`);
        assert.ok(reached >= answered);
        for (const line of log.lines()) assert.match(line, /^2\.0 GET \/n\/\d+ (200|-)$/);
        const urls = log.lines().map((l) => l.split(' ')[2]);
        assert.equal(new Set(urls).size, urls.length, 'no request logged twice');
      } finally {
        for (const s of sessions) s.destroy();
        await served.close();
      }
    });
  }
});
