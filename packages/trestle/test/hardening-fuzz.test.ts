// Property-based fuzzing: random methods, paths (percent-encoding, dots,
// unicode), headers and bodies, written byte for byte on raw sockets to an
// app with routers, params, body parsers, static files, the legacy
// multipart parser and two logline loggers. For every case: the server answers with well-formed HTTP, below
// 500 unless the handler threw on purpose, never with the file beside the
// static root; each request that reached the app is logged as whole lines;
// and a normal request succeeds afterwards.
//
// Bounded and replayable: TRESTLE_FUZZ_RUNS cases (300 by default) within
// TRESTLE_FUZZ_MS (40 s by default); the seed is printed, and
// TRESTLE_FUZZ_SEED (with TRESTLE_FUZZ_PATH for the shrunk case) replays a run.
import assert from 'node:assert/strict';
import { EventEmitter, once } from 'node:events';
import { mkdirSync, mkdtempSync, readdirSync, rmSync, unlinkSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Writable } from 'node:stream';
import { test } from 'node:test';
import * as zlib from 'node:zlib';
import fc from 'fast-check';
import logger from 'logline-http';
import trestle, { type RequestHandler } from 'trestle';
import trestleLegacy from 'trestle/legacy';
import { serve } from './helpers';
import { assertServing, exchange, parseResponses, PUBLIC_ROOT, SECRET_MARK } from './fixtures/hardening/wire';

const RUNS = Number(process.env.TRESTLE_FUZZ_RUNS ?? 300);
const TIME_MS = Number(process.env.TRESTLE_FUZZ_MS ?? 40000);
const SEED = process.env.TRESTLE_FUZZ_SEED === undefined ? Date.now() ^ (Math.random() * 0x100000000) : Number(process.env.TRESTLE_FUZZ_SEED);
const PATH = process.env.TRESTLE_FUZZ_PATH;

/** What the app saw: requests that reached it (by case id) and the cases whose handler threw on purpose. */
class Observed {
  /**
   * Where legacy bodyParser writes uploads, one directory per case: the app
   * removes what it accepted, the parser what it refused.
   */
  readonly uploadDir = mkdtempSync(join(tmpdir(), 'trestle-fuzz-'));
  /** The upload cases, by id, to name the one that left a file behind. */
  readonly uploads = new Map<string, string>();
  reached = 0;
  readonly threw = new Set<string>();
  readonly lines: string[] = [];
  readonly written = new EventEmitter();
}

function fuzzApp(seen: Observed) {
  const sink = new Writable({
    write(chunk: Buffer, _encoding, done) {
      seen.lines.push(chunk.toString('latin1'));
      seen.written.emit('line');
      done();
    },
  });
  const echo: RequestHandler = (req, res) => {
    res.json({ body: Buffer.isBuffer(req.body) ? req.body.length : req.body ?? null, query: req.query });
  };
  const app = trestle();
  app.set('env', 'test');
  app.set('query parser', 'extended');
  app.set('trust proxy', true);
  app.use((req, _res, next) => {
    seen.reached++;
    next();
  });
  app.use(logger('combined', { stream: sink }), logger('json', { stream: sink }));
  app.get('/health', (_req, res) => {
    res.send('ok');
  });
  app.all('/boom', (req) => {
    seen.threw.add(String(req.headers['x-case']));
    throw new Error('thrown on purpose');
  });
  app.use('/static', trestle.static(PUBLIC_ROOT));
  const api = trestle.Router();
  api.param('id', (req, _res, next, id: string) => {
    (req as unknown as { item: string }).item = id.toUpperCase();
    next();
  });
  api.get('/items/:id', (req, res) => {
    res.json({ id: req.params.id, item: (req as unknown as { item: string }).item, query: req.query });
  });
  api.all('/items/:id', trestle.json(), trestle.urlencoded({ extended: true }), trestle.text(), echo);
  api.all('/echo{/*rest}', (req, res) => {
    res.json({
      rest: req.params.rest ?? null,
      path: req.path,
      host: req.host ?? null,
      hostname: req.hostname ?? null,
      subdomains: req.subdomains,
      ip: req.ip ?? null,
      ips: req.ips,
      protocol: req.protocol,
      fresh: req.fresh,
      xhr: req.xhr,
      accepts: req.accepts(['json', 'html']),
      languages: req.acceptsLanguages(),
    });
  });
  api.get('/file/:name', (req, res) => {
    res.sendFile(req.params.name, { root: PUBLIC_ROOT });
  });
  api.get('/jsonp', (_req, res) => {
    res.jsonp({ ok: true });
  });
  api.get('/format', (_req, res) => {
    res.format({ json: () => res.json({ ok: true }), html: () => res.send('<p>ok</p>') });
  });
  app.use('/api', api);
  const legacyBodyParser = (trestleLegacy as unknown as { bodyParser(options: object): RequestHandler }).bodyParser;
  app.post('/upload', (req, res, next) => {
    const dir = join(seen.uploadDir, String(req.headers['x-case']));
    mkdirSync(dir);
    legacyBodyParser({ uploadDir: dir, limit: '20kb' })(req, res, next);
  }, (req, res) => {
    const files = (req as unknown as { files: Record<string, { name: string; path: string } | Array<{ name: string; path: string }>> }).files;
    const names: Record<string, string[]> = {};
    for (const field of Object.keys(files)) {
      const list = ([] as Array<{ name: string; path: string }>).concat(files[field]!);
      for (const file of list) unlinkSync(file.path);
      names[field] = list.map((file) => file.name);
    }
    res.json({ body: req.body, files: names });
  });
  app.all('/body', trestle.json({ limit: '10kb' }), trestle.urlencoded({ extended: false, limit: '10kb' }), trestle.text({ limit: '10kb' }), trestle.raw({ limit: '10kb' }), echo);
  return app;
}

// ---- what is thrown at it -------------------------------------------------

const urlChars = fc.constantFrom(...'abcXYZ019-._~!$&\'()*+,;=:@%/?#[]'.split(''));
// Weighted so that most requests get past the runtime's parser to the app;
// raw unicode and control characters (which the runtime refuses) stay rare.
const segment = fc.oneof(
  { weight: 10, arbitrary: fc.constantFrom('..', '.', '%2e%2e', '%2E%2e', '%2f', '%5c', '%00', '%zz', '%', '%E0%A4%A', '%C3%A9', '%F0%9F%98%80', '%ED%A0%80') },
  { weight: 10, arbitrary: fc.constantFrom('hello.txt', 'sub', 'inner.txt', 'secret.txt', '..%2fsecret.txt', '%2e%2e%2fsecret.txt', '<script>', '"', "'", '*', ';', '~', '', '%0d%0a') },
  { weight: 12, arbitrary: fc.string({ unit: urlChars, maxLength: 8 }) },
  { weight: 6, arbitrary: fc.string({ unit: 'grapheme', maxLength: 3 }).map(encodeURIComponent) },
  // Raw unicode goes out as UTF-8 bytes.
  { weight: 1, arbitrary: fc.oneof(fc.string({ unit: 'grapheme', maxLength: 3 }).map((s) => s.replace(/[\r\n]/g, '')), fc.constantFrom('a b', '\t', '\x7f', '\x00')) },
);
const segments = (max: number) => fc.array(segment, { minLength: 1, maxLength: max }).map((list) => list.join('/'));
const queryKey = fc.oneof(fc.constantFrom('__proto__', '__proto__[polluted]', 'constructor[prototype][polluted]', 'a[b][c][d][e][f][g]', 'a[]', 'a[999999]', 'callback', 'q'), segment);
const query = fc.option(
  fc.array(fc.tuple(queryKey, segment), { maxLength: 5 }).map((pairs) => `?${pairs.map(([k, v]) => `${k}=${v}`).join('&')}`),
  { nil: '' },
);
/** Mostly the app's own routes with fuzzed parameters; sometimes anything under any prefix. */
const target = fc.oneof(
  segment.map((s) => `/api/items/${s}`),
  segments(4).map((s) => `/api/echo/${s}`),
  segment.map((s) => `/api/file/${s}`),
  segments(4).map((s) => `/static/${s}`),
  fc.constantFrom('/body', '/api/jsonp', '/api/format', '/health', '/boom', '/api/echo', '/static', '/static/sub', '/static/hello.txt'),
  fc
    .tuple(fc.constantFrom('', '/', '//', '/api', '/static', 'http://fuzz.example', '*'), fc.option(segments(5), { nil: '' }))
    .map(([p, rest]) => (rest === '' ? p : `${p}/${rest}`)),
);
const path = fc.tuple(target, query).map(([t, q]) => t + q);

const method = fc.oneof(
  { weight: 12, arbitrary: fc.constantFrom('GET', 'GET', 'HEAD', 'POST', 'POST', 'PUT', 'DELETE', 'PATCH', 'OPTIONS', 'PROPFIND', 'SEARCH', 'QUERY') },
  { weight: 1, arbitrary: fc.constantFrom('FOO', 'get', 'G\u00c9T') },
);

/** Header values: printable ASCII, Latin-1 and tabs; CR and LF never (they would end the header). */
const headerChars = fc.oneof(fc.integer({ min: 0x20, max: 0x7e }), fc.integer({ min: 0xa0, max: 0xff }), fc.constant(0x09)).map((c) => String.fromCharCode(c));
const headerValue = fc.oneof(
  { weight: 8, arbitrary: fc.string({ unit: headerChars, maxLength: 30 }) },
  { weight: 1, arbitrary: fc.constantFrom('', ' ', 'a\x00b', 'a\x7fb', 'x'.repeat(2000)) },
);
const tokenChars = fc.constantFrom(...'abcdefghijklmnopqrstuvwxyzABC0123456789-_!#$%&\'*+.^`|~'.split(''));
const RESERVED = /^(content-length|transfer-encoding|connection|x-case|expect|upgrade|host)$/i;
const header: fc.Arbitrary<[string, string]> = fc.oneof(
  fc.tuple(fc.constant('Accept'), fc.constantFrom('*/*', 'application/json', 'text/html', 'text/*;q=0.5, application/json;q=bad', '', ',,,', 'a/b/c', 'json')),
  fc.tuple(fc.constant('Accept-Language'), fc.constantFrom('en', 'fr-CA, en;q=0.1', '*', 'q=;', '')),
  fc.tuple(fc.constant('Accept-Encoding'), fc.constantFrom('gzip', 'br;q=x', '*', '')),
  fc.tuple(fc.constantFrom('X-Forwarded-For', 'X-Forwarded-Host', 'X-Forwarded-Proto'), fc.constantFrom('1.2.3.4', 'garbage', '::1, 10.0.0.1', '', '1.2.3.4:80', 'https', '[::1]:80', ',,')),
  fc.tuple(fc.constant('If-None-Match'), fc.constantFrom('*', 'W/"x"', 'garbage', '"a", "b"', '')),
  fc.tuple(fc.constant('If-Modified-Since'), fc.constantFrom('Thu, 01 Jan 1970 00:00:00 GMT', 'Sat, 01 Jan 2500 00:00:00 GMT', 'garbage', '')),
  fc.tuple(fc.constant('Range'), fc.constantFrom('bytes=0-0', 'bytes=5-1', 'bytes=-1', 'bytes=0-0,1-1,2-2', 'garbage', 'bytes=99999999999999999999-', 'bytes=')),
  fc.tuple(fc.constantFrom('Cookie', 'Referer', 'User-Agent', 'X-Requested-With', 'Authorization', 'Content-Type'), headerValue),
  fc.tuple(fc.string({ unit: tokenChars, minLength: 1, maxLength: 12 }).filter((name) => !RESERVED.test(name)), headerValue),
);
const host = fc.oneof(
  { weight: 20, arbitrary: fc.constantFrom('localhost', 'localhost:3000', 'a.b.example.com', 'a.b.example.com:80', '[::1]:80', '[::1', ':::', '', '..', 'x y') },
  // No Host (an HTTP/1.1 request the runtime refuses), or one with a Latin-1 byte.
  { weight: 1, arbitrary: fc.constantFrom(undefined, 'ex\xe9mple.com') },
);

const contentType = fc.constantFrom(
  'application/json',
  'application/json; charset=utf-8',
  'application/json; charset=latin1',
  'application/json; charset',
  'application/x-www-form-urlencoded',
  'application/x-www-form-urlencoded; charset=iso-8859-1',
  'application/x-www-form-urlencoded; charset=utf-16',
  'text/plain',
  'text/plain; charset=utf-16le',
  'text/plain; charset=nope',
  'application/octet-stream',
  'multipart/form-data; boundary=x',
  'garbage',
  '*/*',
);
const formPairs = fc.array(fc.tuple(queryKey, segment), { maxLength: 8 }).map((pairs) => pairs.map(([k, v]) => `${k}=${v}`).join('&'));
const bodyText = fc.oneof(
  fc.jsonValue({ maxDepth: 3 }).map((v) => JSON.stringify(v) ?? 'null'),
  fc.string({ maxLength: 60 }),
  formPairs,
  fc.integer({ min: 1, max: 60 }).map((n) => `${'['.repeat(n)}${']'.repeat(n)}`),
  fc.integer({ min: 1, max: 40 }).map((n) => `a${'[b]'.repeat(n)}=1`),
  fc.constantFrom('{"__proto__":{"polluted":1}}', '{"constructor":{"prototype":{"polluted":1}}}', '{', '{"a":}', '\ufeff{}'),
);
const bodyBytes = fc.oneof(
  { weight: 4, arbitrary: bodyText.map((s) => Buffer.from(s, 'utf8')) },
  { weight: 1, arbitrary: fc.uint8Array({ maxLength: 64 }).map((a) => Buffer.from(a)) },
  { weight: 1, arbitrary: fc.integer({ min: 9000, max: 12000 }).map((n) => Buffer.alloc(n, 'a')) },
);
/** `compressed`: encode the body as the Content-Encoding says; else send it as is under that name. */
const encoding = fc.record({
  name: fc.constantFrom(undefined, undefined, undefined, 'gzip', 'deflate', 'br', 'identity', 'compress', 'GZIP'),
  compressed: fc.boolean(),
});
/** `short`: a Content-Length below the body's size, the rest left on the wire as no request. */
const framing = fc.constantFrom('length', 'length', 'length', 'chunked', 'short');

/** Multipart bodies for legacy bodyParser, boundary `b`: odd field names, files, parts cut anywhere. */
const partName = fc.oneof(
  fc.constantFrom('__proto__', 'constructor', 'toString', 'hasOwnProperty', 'a[b]', 'a[]', '__proto__[polluted]', 'constructor[prototype][polluted]', 'f', '', 'a"b'),
  fc.string({ unit: tokenChars, maxLength: 6 }),
);
const multipartPart = fc.record({
  name: partName,
  filename: fc.option(fc.constantFrom('a.txt', '../../etc/passwd', '', 'x"y.txt', '\u00e9.txt', '.hidden'), { nil: null }),
  type: fc.option(fc.constantFrom('text/plain', 'application/octet-stream', 'garbage'), { nil: null }),
  content: fc.oneof({ weight: 6, arbitrary: fc.string({ maxLength: 40 }) }, { weight: 1, arbitrary: fc.constantFrom('--b', '\r\n--b\r\n', 'x'.repeat(30000)) }),
});
const multipartBody = fc
  .record({ parts: fc.array(multipartPart, { maxLength: 5 }), ending: fc.constantFrom('close', 'close', 'none', 'cut', 'garbage'), cut: fc.nat(300) })
  .map(({ parts, ending, cut }) => {
    const text = parts
      .map(({ name, filename, type, content }) => {
        const file = filename === null ? '' : `; filename="${filename}"`;
        return `--b\r\nContent-Disposition: form-data; name="${name}"${file}\r\n${type === null ? '' : `Content-Type: ${type}\r\n`}\r\n${content}\r\n`;
      })
      .join('');
    const whole = ending === 'close' || ending === 'cut' ? `${text}--b--\r\n` : ending === 'garbage' ? `${text}--b--\r\ngarbage` : text;
    return Buffer.from(ending === 'cut' ? whole.slice(0, cut) : whole, 'utf8');
  });

interface FuzzCase {
  method: string;
  path: string;
  host: string | undefined;
  headers: Array<[string, string]>;
  body: { type: string | null; bytes: Buffer; encoding: { name: string | undefined; compressed: boolean }; framing: string } | null;
}

const body = fc.record({ type: fc.option(contentType, { nil: null, freq: 8 }), bytes: bodyBytes, encoding, framing });
const fuzzCase: fc.Arbitrary<FuzzCase> = fc.oneof(
  // Anything at all.
  fc.record({ method, path, host, headers: fc.array(header, { maxLength: 6 }), body: fc.option(body, { nil: null, freq: 2 }) }),
  // A body sent to the routes that parse one.
  fc.record({
    method: fc.constantFrom('POST', 'PUT', 'PATCH'),
    path: fc.oneof(fc.constant('/body'), segment.map((s) => `/api/items/${s}`)),
    host,
    headers: fc.array(header, { maxLength: 3 }),
    body,
  }),
  // A multipart upload.
  fc.record({
    method: fc.constant('POST'),
    path: fc.constant('/upload'),
    host,
    headers: fc.constant<Array<[string, string]>>([]),
    body: fc.record({
      type: fc.constantFrom('multipart/form-data; boundary=b', 'multipart/form-data; boundary=b', 'multipart/form-data', 'multipart/form-data; boundary=""'),
      bytes: multipartBody,
      encoding: fc.constant({ name: undefined, compressed: false }),
      framing: fc.constantFrom('length', 'chunked'),
    }),
  }),
);

function compress(name: string, bytes: Buffer): Buffer {
  switch (name.toLowerCase()) {
    case 'gzip':
      return zlib.gzipSync(bytes);
    case 'deflate':
      return zlib.deflateSync(bytes);
    case 'br':
      return zlib.brotliCompressSync(bytes);
    default:
      return bytes;
  }
}

/** The case as bytes: the request line in UTF-8, the headers in Latin-1, then the body as framed. */
function serialize(c: FuzzCase, id: number): Buffer {
  const lines = c.host === undefined ? [] : [`Host: ${c.host}`];
  for (const [name, value] of c.headers) lines.push(`${name}: ${value}`);
  let body: Buffer = Buffer.alloc(0);
  if (c.body !== null) {
    if (c.body.type !== null) lines.push(`Content-Type: ${c.body.type}`);
    const { name, compressed } = c.body.encoding;
    if (name !== undefined) lines.push(`Content-Encoding: ${name}`);
    body = name !== undefined && compressed ? compress(name, c.body.bytes) : c.body.bytes;
    if (c.body.framing === 'chunked') {
      lines.push('Transfer-Encoding: chunked');
      body = body.length === 0 ? Buffer.from('0\r\n\r\n') : Buffer.concat([Buffer.from(`${body.length.toString(16)}\r\n`), body, Buffer.from('\r\n0\r\n\r\n')]);
    } else {
      const length = c.body.framing === 'short' ? Math.max(0, body.length - 1 - (id % 3)) : body.length;
      lines.push(`Content-Length: ${length}`);
    }
  }
  lines.push(`X-Case: ${id}`, 'Connection: close', '', '');
  return Buffer.concat([Buffer.from(`${c.method} ${c.path} HTTP/1.1\r\n`, 'utf8'), Buffer.from(lines.join('\r\n'), 'latin1'), body]);
}

// ---- the property ---------------------------------------------------------

/**
 * Waits (bounded) until no temporary upload file is left, then names the
 * cases that left one. Checked once, at the end: a failed upload's file is
 * removed once its descriptor closes, which a file system under load may
 * take a while to report.
 */
async function uploadsCleared(seen: Observed): Promise<void> {
  const left = () => readdirSync(seen.uploadDir).filter((id) => readdirSync(join(seen.uploadDir, id)).length !== 0);
  const deadline = Date.now() + 10000;
  while (left().length !== 0 && Date.now() < deadline) await new Promise((resolve) => setTimeout(resolve, 20));
  const cases = left().map((id) => `case ${id}: ${JSON.stringify(seen.uploads.get(id))}`);
  assert.deepEqual(cases, [], 'temporary upload files left behind');
}

/** Waits (bounded) until the loggers wrote two lines for each request that reached the app. */
async function allLogged(seen: Observed): Promise<void> {
  for (let i = 0; i < 20 && seen.lines.length < seen.reached * 2; i++) {
    await once(seen.written, 'line', { signal: AbortSignal.timeout(2000) }).catch(() => undefined);
  }
  assert.equal(seen.lines.length, seen.reached * 2, `${seen.reached} requests reached the app, ${seen.lines.length} lines logged`);
  for (const line of seen.lines) assert.equal(line.indexOf('\n'), line.length - 1, `not one whole line: ${JSON.stringify(line)}`);
}

test('fuzz: random requests get well-formed answers below 500, whole log lines, and the server serves on', { timeout: TIME_MS + 60000 }, async (t) => {
  const seen = new Observed();
  const server = await serve(fuzzApp(seen));
  // Printed first, so a run that hangs can still be replayed.
  t.diagnostic(`fuzz seed ${SEED}: replay with TRESTLE_FUZZ_SEED=${SEED}`);
  let id = 0;
  // What the cases exercised, for the report: statuses of the first answers, requests that reached the app.
  const statuses = new Map<number, number>();
  let reachedApp = 0;
  const started = performance.now();
  try {
    const property = fc.asyncProperty(fuzzCase, async (c) => {
      const caseId = String(++id);
      seen.reached = 0;
      seen.lines.length = 0;
      const request = serialize(c, id);
      if (c.path === '/upload') seen.uploads.set(caseId, request.toString('latin1').slice(0, 2000));
      const bytes = await exchange(server.port, request, { timeoutMs: 5000 });
      const answers = parseResponses(bytes, [c.method, 'GET']);
      assert.ok(answers.length >= 1, 'no answer');
      statuses.set(answers[0]!.status, (statuses.get(answers[0]!.status) ?? 0) + 1);
      reachedApp += seen.reached;
      for (const answer of answers) {
        if (answer.status >= 500) assert.ok(answer.status === 500 && seen.threw.has(caseId), `status ${answer.status}: ${answer.body.toString('latin1').slice(0, 300)}`);
        assert.ok(!answer.body.toString('latin1').includes(SECRET_MARK), 'the secret beside the static root was served');
      }
      await assertServing(server.port);
      await allLogged(seen);
      assert.equal(({} as { polluted?: unknown }).polluted, undefined);
    });
    const details = await fc.check(property, {
      numRuns: RUNS,
      seed: SEED,
      ...(PATH === undefined ? {} : { path: PATH }),
      plugins: [fc.interruptAfterTimeLimit(TIME_MS)],
    });
    const elapsed = Math.round(performance.now() - started);
    t.diagnostic(`fuzz: ${details.numRuns} cases${details.interrupted ? ' (stopped by the time bound)' : ''} in ${elapsed} ms, seed ${details.seed}`);
    const histogram = [...statuses].sort(([a], [b]) => a - b).map(([status, n]) => `${status}x${n}`);
    t.diagnostic(`fuzz: ${reachedApp} requests reached the app; first answers ${histogram.join(' ')}`);
    if (details.failed) {
      assert.fail(
        `fuzz failed after ${details.numRuns} cases (${details.numShrinks} shrinks); replay with TRESTLE_FUZZ_SEED=${details.seed} TRESTLE_FUZZ_PATH=${details.counterexamplePath}\n` +
          `case: ${fc.stringify(details.counterexample)}\nerror: ${String((details.errorInstance as Error | null)?.stack ?? details.errorInstance)}`,
      );
    }
    assert.ok(details.numRuns >= Math.min(RUNS, 50), `only ${details.numRuns} cases ran within ${TIME_MS} ms`);
    await assertServing(server.port);
    await uploadsCleared(seen);
  } finally {
    await server.close();
    rmSync(seen.uploadDir, { recursive: true, force: true });
  }
});
