// What every body parser shares: limits, inflating, verify, errors, bodies
// arriving in many pieces or not at all, and reading a body only once.
import assert from 'node:assert/strict';
import { once } from 'node:events';
import * as net from 'node:net';
import { describe, test } from 'node:test';
import * as zlib from 'node:zlib';
import request from 'supertest';
import trestle, { type RequestHandler } from 'trestle';
import { serve } from './helpers';
import { abortAfter, asIs, describeError, echoApp, EventEmitter, type Reported, sendInPieces, tapBody } from './middleware-helpers';

const JSON_TYPE = 'application/json';

describe('body parsers: limit', () => {
  test('a declared length over the limit is 413 entity.too.large, without parsing', async () => {
    const app = echoApp(trestle.json({ limit: 10 }));
    await request(app).post('/').type(JSON_TYPE).send('{"a":"12"}').expect(200, { body: { a: '12' }, kind: 'object', has: true });
    const res = await request(app).post('/').type(JSON_TYPE).send('{"a":"123"}').expect(413);
    const err = res.body as Reported;
    assert.equal(err.message, 'request entity too large');
    assert.equal(err.name, 'PayloadTooLargeError');
    assert.equal(err.type, 'entity.too.large');
    assert.equal(err.status, 413);
    assert.equal(err.statusCode, 413);
    assert.equal(err.expose, true);
    assert.equal(err.limit, 10);
    assert.equal(err.length, 11);
    assert.equal(err.expected, 11);
  });

  test('limit takes bytes strings; the default is 100kb', async () => {
    const kb = echoApp(trestle.json({ limit: '1kb' }));
    await request(kb).post('/').type(JSON_TYPE).send({ a: 'x'.repeat(1000) }).expect(200);
    await request(kb).post('/').type(JSON_TYPE).send({ a: 'x'.repeat(1020) }).expect(413);
    const byDefault = echoApp(trestle.json());
    await request(byDefault).post('/').type(JSON_TYPE).send({ a: 'x'.repeat(102400 - 8) }).expect(200);
    const res = await request(byDefault).post('/').type(JSON_TYPE).send({ a: 'x'.repeat(102400 - 7) }).expect(413);
    assert.equal((res.body as Reported).limit, 102400);
  });

  test('a chunked body is stopped once it passes the limit', async () => {
    const chunks = new EventEmitter();
    const app = echoApp(tapBody(chunks), trestle.text({ limit: 8 }));
    const server = await serve(app);
    try {
      const head = 'POST / HTTP/1.1\r\nHost: x\r\nContent-Type: text/plain\r\nTransfer-Encoding: chunked';
      const answer = await sendInPieces(server.port, head, ['5\r\nhello\r\n', '5\r\nworld\r\n', '0\r\n\r\n'], chunks);
      assert.equal(answer.status, 413);
      const err = JSON.parse(answer.body) as Reported;
      assert.equal(err.type, 'entity.too.large');
      assert.equal(err.limit, 8);
      assert.equal(err.received, 10);
      assert.equal(err.expected, undefined);
    } finally {
      await server.close();
    }
  });

  test('without an error handler the final handler answers 413', async () => {
    const app = trestle();
    app.set('env', 'development');
    app.use(trestle.json({ limit: 2 }), (_req, res) => res.send('parsed'));
    const res = await request(app).post('/').type(JSON_TYPE).send('{"a":1}').expect(413);
    assert.match(res.text, /PayloadTooLargeError: request entity too large/);
  });

  test('the refused body is read and dropped, so the connection serves the next request', async () => {
    const app = echoApp(trestle.json({ limit: 5 }));
    const server = await serve(app);
    try {
      const socket = net.connect(server.port, '127.0.0.1');
      const parts: Buffer[] = [];
      socket.on('data', (d: Buffer) => parts.push(d));
      await once(socket, 'connect');
      const big = 'x'.repeat(50000);
      socket.write(`POST / HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nContent-Length: ${big.length}\r\n\r\n${big}`);
      socket.write('POST / HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nContent-Length: 2\r\nConnection: close\r\n\r\n{}');
      await once(socket, 'close');
      const statuses = Buffer.concat(parts).toString().match(/HTTP\/1\.1 \d+/g);
      assert.deepEqual(statuses, ['HTTP/1.1 413', 'HTTP/1.1 200']);
    } finally {
      await server.close();
    }
  });

  test('a Content-Length that disagrees with the body is 400 request.size.invalid', async () => {
    const claim = (length: string): RequestHandler => (req, _res, next) => {
      req.headers['content-length'] = length;
      next();
    };
    for (const [length, expected] of [['5', 5], ['9', 9]] as const) {
      const app = echoApp(claim(length), trestle.json());
      const res = await request(app).post('/').type(JSON_TYPE).send('{"a":1}').expect(400);
      const err = res.body as Reported;
      assert.equal(err.message, 'request size did not match content length');
      assert.equal(err.type, 'request.size.invalid');
      assert.equal(err.expected, expected);
      assert.equal(err.length, expected);
      assert.equal(err.received, 7);
    }
  });
});

describe('body parsers: compressed bodies', () => {
  const app = echoApp(trestle.json());
  const post = (encoding: string, body: Buffer) =>
    request(app).post('/').type(JSON_TYPE).set('Content-Encoding', encoding).serialize(asIs).send(body);

  test('gzip, deflate and br bodies are inflated (the name in any case)', async () => {
    const expected = { body: { a: [1, 2, 3] }, kind: 'object', has: true };
    const plain = '{"a":[1,2,3]}';
    await post('gzip', zlib.gzipSync(plain)).expect(200, expected);
    await post('GZIP', zlib.gzipSync(plain)).expect(200, expected);
    await post('deflate', zlib.deflateSync(plain)).expect(200, expected);
    await post('br', zlib.brotliCompressSync(plain)).expect(200, expected);
    await post('identity', Buffer.from(plain)).expect(200, expected);
  });

  test('an unknown encoding is 415 encoding.unsupported', async () => {
    for (const encoding of ['bogus', 'gzip, identity']) {
      const res = await post(encoding, Buffer.from('{}')).expect(415);
      const err = res.body as Reported;
      assert.equal(err.message, `unsupported content encoding "${encoding}"`);
      assert.equal(err.type, 'encoding.unsupported');
      assert.equal(err.encoding, encoding);
      assert.equal(err.name, 'UnsupportedMediaTypeError');
    }
  });

  test('inflate: false refuses compressed bodies with 415', async () => {
    const strict = echoApp(trestle.json({ inflate: false }));
    const res = await request(strict).post('/').type(JSON_TYPE).set('Content-Encoding', 'gzip').serialize(asIs).send(zlib.gzipSync('{}')).expect(415);
    const err = res.body as Reported;
    assert.equal(err.message, 'content encoding unsupported');
    assert.equal(err.type, 'encoding.unsupported');
    assert.equal(err.encoding, 'gzip');
    await request(strict).post('/').type(JSON_TYPE).set('Content-Encoding', 'identity').send('{}').expect(200);
  });

  test('a corrupt compressed body is a 400 with the inflater\'s message', async () => {
    const res = await post('gzip', Buffer.from('{"a":1}')).expect(400);
    const err = res.body as Reported;
    assert.equal(err.message, 'incorrect header check');
    assert.equal(err.code, 'Z_DATA_ERROR');
    assert.equal(err.expose, true);
  });

  test('the limit applies to the inflated size: a gzip bomb is stopped early', async () => {
    const bomb = zlib.gzipSync(Buffer.alloc(20 * 1024 * 1024, 0x20));
    assert.ok(bomb.length < 30000);
    const res = await post('gzip', bomb).expect(413);
    const err = res.body as Reported;
    assert.equal(err.type, 'entity.too.large');
    assert.equal(err.limit, 102400);
    // Reading stopped within one inflater chunk of the limit, far from 20 MiB.
    assert.ok(err.received! > 102400 && err.received! <= 102400 + 65536, String(err.received));
  });

  test('a compressed body longer on the wire than the limit is refused too', async () => {
    const small = echoApp(trestle.json({ limit: 1024 }));
    // Hundreds of empty gzip members: many bytes that inflate to nothing.
    const emptyMembers = Buffer.concat(Array.from({ length: 300 }, () => zlib.gzipSync(Buffer.alloc(0))));
    const res = await request(small).post('/').type(JSON_TYPE).set('Content-Encoding', 'gzip').serialize(asIs).send(emptyMembers).expect(413);
    assert.equal((res.body as Reported).type, 'entity.too.large');
  });

  test('a gzip body split across many TCP packets, chunked', async () => {
    const chunks = new EventEmitter();
    const server = await serve(echoApp(tapBody(chunks), trestle.json()));
    try {
      const gz = zlib.gzipSync(JSON.stringify({ list: Array.from({ length: 200 }, (_, i) => i) }));
      const pieces: Buffer[] = [];
      for (let i = 0; i < gz.length; i += 64) {
        const part = gz.subarray(i, i + 64);
        pieces.push(Buffer.concat([Buffer.from(`${part.length.toString(16)}\r\n`), part, Buffer.from('\r\n')]));
      }
      pieces.push(Buffer.from('0\r\n\r\n'));
      let seen = 0;
      chunks.on('chunk', () => seen++);
      const head = 'POST / HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nContent-Encoding: gzip\r\nTransfer-Encoding: chunked';
      const answer = await sendInPieces(server.port, head, pieces, chunks);
      assert.equal(answer.status, 200);
      assert.deepEqual((JSON.parse(answer.body) as { body: { list: number[] } }).body.list.length, 200);
      assert.ok(seen >= pieces.length - 1, `${seen} chunks`);
    } finally {
      await server.close();
    }
  });
});

describe('body parsers: a body in many pieces, or cut short', () => {
  test('a JSON body written in many TCP packets is parsed whole', async () => {
    const chunks = new EventEmitter();
    const server = await serve(echoApp(tapBody(chunks), trestle.json()));
    try {
      const body = JSON.stringify({ greeting: 'héllo wörld', n: [1, 2, 3] });
      const bytes = Buffer.from(body);
      // Split inside multi-byte characters too: decoding must wait for the whole body.
      const pieces = Array.from({ length: Math.ceil(bytes.length / 3) }, (_, i) => bytes.subarray(i * 3, i * 3 + 3));
      let seen = 0;
      chunks.on('chunk', () => seen++);
      const head = `POST / HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nContent-Length: ${bytes.length}`;
      const answer = await sendInPieces(server.port, head, pieces, chunks);
      assert.equal(answer.status, 200);
      assert.deepEqual(JSON.parse(answer.body), { body: JSON.parse(body), kind: 'object', has: true });
      assert.ok(seen >= pieces.length, `${seen} chunks for ${pieces.length} pieces`);
    } finally {
      await server.close();
    }
  });

  test('a client that hangs up mid-body gives 400 request.aborted', async () => {
    const chunks = new EventEmitter();
    const app = trestle();
    let reported!: (err: Reported) => void;
    const caught = new Promise<Reported>((resolve) => (reported = resolve));
    app.use(tapBody(chunks), trestle.json(), (_req, res) => res.send('unreachable'));
    app.use(((err, _req, _res, _next) => reported(describeError(err))) as trestle.ErrorRequestHandler);
    const server = await serve(app);
    try {
      await abortAfter(server.port, 'POST / HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nContent-Length: 100', '{"a":', chunks);
      const err = await caught;
      assert.equal(err.message, 'request aborted');
      assert.equal(err.type, 'request.aborted');
      assert.equal(err.status, 400);
      assert.equal(err.code, 'ECONNABORTED');
      assert.equal(err.expected, 100);
      assert.equal(err.received, 5);
    } finally {
      await server.close();
    }
  });
});

describe('body parsers: verify', () => {
  const verifying = (options: { encodingHeader?: boolean }) => ({
    verify(_req: unknown, res: trestle.Response, buf: Buffer, encoding: string | null) {
      if (options.encodingHeader) res.setHeader('X-Encoding', String(encoding));
      if (buf.includes('bad')) throw new Error('refused');
      if (buf.includes('tea')) throw Object.assign(new Error('teapot'), { status: 418 });
      if (buf.includes('str')) throw 'a plain string';
    },
  });

  test('gets the raw body and the charset (null for raw)', async () => {
    const json = echoApp(trestle.json(verifying({ encodingHeader: true })));
    await request(json).post('/').type(JSON_TYPE).send('{"a":1}').expect('X-Encoding', 'utf-8').expect(200);
    const text = echoApp(trestle.text(verifying({ encodingHeader: true })));
    await request(text).post('/').type('text/plain; charset=ISO-8859-1').send('abc').expect('X-Encoding', 'iso-8859-1').expect(200);
    const raw = echoApp(trestle.raw(verifying({ encodingHeader: true })));
    await request(raw).post('/').type('application/octet-stream').send(Buffer.from('abc')).expect('X-Encoding', 'null').expect(200);
  });

  test('throwing refuses the body: 403 entity.verify.failed with the raw body', async () => {
    const app = echoApp(trestle.json(verifying({})));
    const res = await request(app).post('/').type(JSON_TYPE).send('{"a":"bad"}').expect(403);
    const err = res.body as Reported;
    assert.equal(err.message, 'refused');
    assert.equal(err.type, 'entity.verify.failed');
    assert.equal(err.status, 403);
    assert.equal(err.body, `hex:${Buffer.from('{"a":"bad"}').toString('hex')}`);
    const teapot = await request(app).post('/').type(JSON_TYPE).send('{"a":"tea"}').expect(418);
    assert.equal((teapot.body as Reported).type, 'entity.verify.failed');
    const thrownString = await request(app).post('/').type(JSON_TYPE).send('{"a":"str"}').expect(403);
    assert.equal((thrownString.body as Reported).name, 'ForbiddenError');
    assert.equal((thrownString.body as Reported).message, 'a plain string');
  });

  test('must be a function', () => {
    assert.throws(() => trestle.json({ verify: 'yes' as never }), { name: 'TypeError', message: 'option verify must be function' });
    assert.throws(() => trestle.raw({ limit: 'huge' }), { name: 'TypeError', message: 'option limit "huge" is invalid' });
  });
});

describe('body parsers: reading once', () => {
  test('with several parsers mounted, the first that matches reads the body; the others pass', async () => {
    const app = echoApp(trestle.json(), trestle.json({ strict: false }), trestle.text({ type: '*/*' }));
    await request(app).post('/').type(JSON_TYPE).send('{"a":1}').expect(200, { body: { a: 1 }, kind: 'object', has: true });
    // The first parser's error stands; the next ones do not try again.
    const res = await request(app).post('/').type(JSON_TYPE).send('true').expect(400);
    assert.equal((res.body as Reported).type, 'entity.parse.failed');
    await request(app).post('/').type('text/plain').send('hi').expect(200, { body: 'hi', kind: 'string', has: true });
  });

  test('a body someone else already read is left alone', async () => {
    const drain: RequestHandler = (req, _res, next) => {
      req.resume();
      req.on('end', () => next());
    };
    await request(echoApp(drain, trestle.json())).post('/').type(JSON_TYPE).send('{"a":1}').expect(200, { body: null, kind: 'undefined', has: false });
  });

  test('a stream with an encoding set is 500 stream.encoding.set', async () => {
    const setEncoding: RequestHandler = (req, _res, next) => {
      req.setEncoding('utf8');
      next();
    };
    const res = await request(echoApp(setEncoding, trestle.json())).post('/').type(JSON_TYPE).send('{}').expect(500);
    const err = res.body as Reported;
    assert.equal(err.message, 'stream encoding should not be set');
    assert.equal(err.type, 'stream.encoding.set');
    assert.equal(err.expose, false);
    assert.equal(err.name, 'InternalServerError');
  });

  test('null or missing options mean the defaults', async () => {
    await request(echoApp(trestle.json(null as never))).post('/').type(JSON_TYPE).send('{"a":1}').expect(200, { body: { a: 1 }, kind: 'object', has: true });
    await request(echoApp(trestle.text(undefined))).post('/').type('text/plain').send('x').expect(200, { body: 'x', kind: 'string', has: true });
  });
});
