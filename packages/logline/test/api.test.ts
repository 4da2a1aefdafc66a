// The module's shape (require and import), logger.compile/token/format, the
// TypeErrors for bad arguments, and the defaults that need a fresh process.
import assert from 'node:assert/strict';
import http from 'node:http';
import { createRequire } from 'node:module';
import { describe, test } from 'node:test';
import logger from 'logline-http';
import request from 'supertest';
import { LineSink, lineFor, linePattern, oneRequestScript, runNode, send, serve } from './helpers.js';

describe('module shape', () => {
  test("require('logline-http') is the factory itself, with token, compile and format", () => {
    const required: unknown = createRequire(__filename)('logline-http');
    assert.equal(required, logger);
    assert.equal(typeof logger, 'function');
    assert.equal(typeof logger.token, 'function');
    assert.equal(typeof logger.compile, 'function');
    assert.equal(typeof logger.format, 'function');
  });

  test("import from 'logline-http' gives the same function, and its members as named exports", async () => {
    const esm = await import('logline-http');
    assert.equal(esm.default, logger);
    assert.equal(esm.token, logger.token);
    assert.equal(esm.compile, logger.compile);
    assert.equal(esm.format, logger.format);
  });

  test('a plain node ES module gets the same function as require()', () => {
    const run = runNode(
      `import logger, { token, format, compile } from 'logline-http';
       import { createRequire } from 'node:module';
       const cjs = createRequire(import.meta.url)('logline-http');
       console.log(logger === cjs, token === cjs.token, format === cjs.format, compile === cjs.compile);`,
      ['--input-type=module'],
    );
    assert.equal(run.stderr, '');
    assert.equal(run.stdout, 'true true true true\n');
  });

  test('logger() returns a (req, res, next) middleware', () => {
    const mw = logger('tiny');
    assert.equal(typeof mw, 'function');
    assert.equal(mw.length, 3);
  });
});

describe('logger.compile', () => {
  const req = Object.assign(new http.IncomingMessage(null as never), { method: 'GET', url: '/c' });
  const res = new http.ServerResponse(req);

  test('returns a format function that reads the tokens it is given', () => {
    const format = logger.compile('"x" :method :greet[who] :none :zero :num \\ $& :method');
    const tokens: logger.TokenIndexer = {
      method: (rq) => rq.method,
      greet: (rq, rs, arg) => `hi ${arg}`,
      none: () => undefined,
      zero: () => 0,
      num: () => 42,
    };
    assert.equal(format(tokens, req, res), '"x" GET hi who - - 42 \\ $& GET');
  });

  test('looks tokens up when a line is made, so tokens defined later count', () => {
    const format = logger.compile('[:later-token]');
    const tokens: logger.TokenIndexer = {};
    assert.equal(format(tokens, req, res), '[:later-token]');
    tokens['later-token'] = () => 'now';
    assert.equal(format(tokens, req, res), '[now]');
  });

  test('throws a TypeError for a format that is not a string', () => {
    assert.throws(() => logger.compile(42 as unknown as string), { name: 'TypeError', message: /format must be a string/ });
  });

  test('needs no code generation from strings (works under --disallow-code-generation-from-strings)', () => {
    const run = runNode(
      oneRequestScript(
        "logger(logger.compile(':method :url :status'), { stream: { write: (l) => process.stdout.write('compiled ' + l) } })",
        '/strict',
      ) +
        `; const combined = logger('combined', { stream: { write: (l) => process.stdout.write(l) } });
         if (typeof combined !== 'function') process.exit(3);
         try { new Function('return 1'); process.exit(4); } catch {}`,
      ['--disallow-code-generation-from-strings'],
    );
    assert.equal(run.stderr, '');
    assert.equal(run.status, 0);
    assert.equal(run.stdout, 'compiled GET /strict 200\n');
  });
});

describe('logger.token and logger.format', () => {
  test('return the factory, so calls chain', () => {
    assert.equal(logger.token('chain-a', () => 'a').token('chain-b', () => 'b'), logger);
    assert.equal(logger.format('chain-f', ':chain-a').format('chain-g', () => null), logger);
  });

  test('throw a TypeError for bad arguments', () => {
    const bad = (fn: () => unknown, message: RegExp): void => {
      assert.throws(fn, { name: 'TypeError', message });
    };
    bad(() => logger.token('', () => 'x'), /name must be a non-empty string/);
    bad(() => logger.token(5 as unknown as string, () => 'x'), /name must be a non-empty string/);
    bad(() => logger.token('t', 'x' as unknown as logger.TokenCallback), /fn must be a function/);
    bad(() => logger.format(5 as unknown as string, ':method'), /name must be a string/);
    bad(() => logger.format('f', 5 as unknown as string), /format must be a string or a function/);
  });
});

describe('tokens as members of the factory, as on morgan', () => {
  test("an app builds its own record from logger.url, logger['remote-addr'], logger.date and the timing tokens", async () => {
    // Every response a logger saw is timed, even under a logger whose own
    // line (combined) shows no duration. TypeScript reads the hyphenated
    // ones through TokenIndexer.
    const tokens = logger as unknown as logger.TokenIndexer;
    const responseTime = tokens['response-time']!;
    const records: string[] = [];
    const sink = new LineSink();
    const app = await serve([logger('combined', { stream: sink })], (req, res) => {
      res.on('finish', () => {
        records.push(
          [tokens['remote-addr']!(req, res), logger.method(req, res), logger.url(req, res), logger.status(req, res),
            logger.res(req, res, 'content-length'), logger.date(req, res, 'clf'), responseTime(req, res)].join(' '),
        );
      });
      send(res, 201, 'made');
    });
    try {
      await request(app.url).post('/things?x=1').expect(201);
      await app.settled(1);
      assert.equal(records.length, 1);
      assert.match(records[0]!, linePattern('127.0.0.1 POST /things?x=1 201 4 {clf} {ms}'));
      assert.equal((await sink.lines(1)).length, 1);
    } finally {
      await app.close();
    }
  });

  test('a token defined later is a member too; assigning a member defines the token; the factory keeps its own members', async () => {
    logger.token('member-shout', () => 'SHOUT\n');
    // The member is the token as format functions get it: its string escaped.
    const member = (logger as unknown as logger.TokenIndexer)['member-shout']!;
    assert.equal(member({} as logger.LoglineRequest, {} as logger.LoglineResponse), 'SHOUT\\n');
    (logger as unknown as Record<string, unknown>)['member-shout'] = () => 'whisper';
    logger.token('format', () => 'a token named format');
    assert.equal(typeof logger.format, 'function');
    assert.equal(logger.format('member-format', ':member-shout :format'), logger);
    const line = await lineFor('member-format', (req, res) => send(res, 200, 'x'), (url) => request(url).get('/'));
    assert.equal(line, 'whisper a token named format');
  });
});

describe('logger() argument errors, at creation time', () => {
  const formatError = /argument format must be a format name, a format string or a function/;
  for (const [name, value, detail] of [
    ['a number', 42, 'got number'],
    ['a boolean', true, 'got boolean'],
    ['null', null, 'got null'],
    ['an array', [':method'], 'got an array'],
    ['a symbol', Symbol('x'), 'got symbol'],
  ] as const) {
    test(`a format that is ${name}`, () => {
      assert.throws(() => logger(value as unknown as string), {
        name: 'TypeError',
        message: new RegExp(formatError.source + `, ${detail}`),
      });
    });
  }

  for (const [name, value, detail] of [
    ['a string', 'stdout', 'got string'],
    ['a number', 1, 'got number'],
    ['a function', () => {}, 'got function'],
    ['an array', [], 'got an array'],
  ] as const) {
    test(`options that are ${name}`, () => {
      assert.throws(() => logger('tiny', value as unknown as logger.LoggerOptions), {
        name: 'TypeError',
        message: new RegExp(`argument options must be an object, ${detail}`),
      });
    });
  }

  test('a stream without write()', () => {
    assert.throws(() => logger('tiny', { stream: {} as logger.LogStream }), {
      name: 'TypeError',
      message: /option stream must have a write\(\) method/,
    });
  });

  test('a skip that is not a function', () => {
    assert.throws(() => logger('tiny', { skip: 'yes' as unknown as false }), {
      name: 'TypeError',
      message: /option skip must be a function/,
    });
  });

  test('null or missing options are accepted', () => {
    assert.equal(typeof logger('tiny', null), 'function');
    assert.equal(typeof logger('tiny', undefined), 'function');
    assert.equal(typeof logger('tiny', { skip: false, stream: null }), 'function');
  });
});

test('the stream is standard output by default', () => {
  const run = runNode(oneRequestScript("logger(':method :url :status :res[content-length]')", '/to-stdout'));
  assert.equal(run.stderr, '');
  assert.equal(run.status, 0);
  assert.equal(run.stdout, 'GET /to-stdout 200 -\n');
});

test('the combined line matches, end to end, in a plain CommonJS app', () => {
  const run = runNode(oneRequestScript("logger('combined')", '/plain'));
  assert.equal(run.status, 0);
  assert.match(run.stdout, linePattern('127.0.0.1 - - [{clf}] "GET /plain HTTP/1.1" 200 - "-" "-"\n'));
});

test('types: format functions, tokens and skip can name the request type an app uses', async () => {
  // An Express-style request: the type parameters follow the annotations,
  // so apps need no casts (this test is mostly checked by tsc).
  interface AppRequest extends http.IncomingMessage {
    originalUrl: string;
    user?: { name: string };
  }
  logger.token<AppRequest>('app-user', (req) => req.user?.name);
  const format: logger.FormatFn<AppRequest> = (tokens, req, res) => `${req.user?.name ?? 'anon'} ${tokens.method(req, res)}`;
  const mw: logger.LoglineMiddleware<AppRequest> = logger(format, { skip: (req: AppRequest) => req.originalUrl === '/health' });
  assert.equal(typeof mw, 'function');
  const esm = await import('logline-http');
  const options: import('logline-http').LoggerOptions<AppRequest> = { immediate: true };
  assert.equal(typeof esm.default(':app-user', options), 'function');
});
