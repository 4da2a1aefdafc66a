// The predefined formats, each checked as a whole line over a real socket.
import assert from 'node:assert/strict';
import http from 'node:http';
import { describe, test } from 'node:test';
import request from 'supertest';
import logger from 'logline-http';
import { abortOnArrival, deferred, LineSink, lineFor, linePattern, send, serve } from './helpers.js';

const UA = 'logline-test/1.0';

describe('combined', () => {
  test('writes the Apache combined line with every field present', async () => {
    const line = await lineFor(
      'combined',
      (req, res) => send(res, 200, 'hello'),
      (url) =>
        request(url)
          .get('/hello?x=1')
          .set('User-Agent', UA)
          .set('Referer', 'http://example.com/from')
          .auth('bob', 's3cret'),
    );
    assert.match(
      line,
      linePattern('127.0.0.1 - bob [{clf}] "GET /hello?x=1 HTTP/1.1" 200 5 "http://example.com/from" "logline-test/1.0"'),
    );
  });

  test('shows - for the user, referrer, agent and length that are absent', async () => {
    const line = await lineFor(
      'combined',
      (req, res) => {
        res.statusCode = 404;
        res.end();
      },
      (url) => request(url).get('/missing').unset('User-Agent'),
    );
    assert.match(line, linePattern('127.0.0.1 - - [{clf}] "GET /missing HTTP/1.1" 404 - "-" "-"'));
  });
});

test('common writes the Apache common line', async () => {
  const line = await lineFor(
    'common',
    (req, res) => send(res, 201, '{}'),
    (url) => request(url).post('/items').set('User-Agent', UA),
  );
  assert.match(line, linePattern('127.0.0.1 - - [{clf}] "POST /items HTTP/1.1" 201 2'));
});

test('short writes address, user, request, status, length and response time', async () => {
  const line = await lineFor(
    'short',
    (req, res) => send(res, 200, 'short'),
    (url) => request(url).get('/s').auth('ann', 'pw'),
  );
  assert.match(line, linePattern('127.0.0.1 ann GET /s HTTP/1.1 200 5 - {ms} ms'));
});

test('tiny writes method, url, status, length and response time', async () => {
  const line = await lineFor(
    'tiny',
    (req, res) => send(res, 200, 'tiny!'),
    (url) => request(url).get('/t'),
  );
  assert.match(line, linePattern('GET /t 200 5 - {ms} ms'));
});

describe('dev', () => {
  const ESC = '\x1b';
  const devLine = (url: string, color: number, status: string, length: string): RegExp =>
    linePattern(`${ESC}[0mGET ${url} ${ESC}[${color}m${status}${ESC}[0m {ms} ms - ${length}${ESC}[0m`);

  for (const [status, color, name] of [
    [200, 32, 'green'],
    [204, 32, 'green'],
    [302, 36, 'cyan'],
    [404, 33, 'yellow'],
    [500, 31, 'red'],
    [503, 31, 'red'],
  ] as const) {
    test(`colours ${status} ${name}`, async () => {
      const line = await lineFor(
        'dev',
        (req, res) => (status === 204 ? ((res.statusCode = 204), res.end()) : send(res, status, 'body')),
        (url) => request(url).get(`/s${status}`).ok(() => true),
      );
      assert.match(line, devLine(`/s${status}`, color, String(status), status === 204 ? '-' : '4'));
    });
  }

  test('leaves a 1xx final status (101 Switching Protocols) uncoloured', async () => {
    // A real 101: the client asks for an upgrade and the handler answers it on
    // the ordinary request path (the server has no 'upgrade' listener, so
    // node hands the request to the request handler).
    const sink = new LineSink();
    const app = await serve([logger('dev', { stream: sink })], (req, res) => {
      res.writeHead(101, { Connection: 'Upgrade', Upgrade: 'x-logline-test' });
      res.end();
    });
    try {
      const upgraded = new Promise<number | undefined>((resolve, reject) => {
        const req = http.request(`${app.url}/switch`, { headers: { Connection: 'Upgrade', Upgrade: 'x-logline-test' } });
        req.on('upgrade', (res, socket) => {
          socket.destroy();
          resolve(res.statusCode);
        });
        req.on('error', reject);
        req.end();
      });
      assert.equal(await upgraded, 101);
      assert.match(await sink.firstLine(), devLine('/switch', 0, '101', '-'));
    } finally {
      await app.close();
    }
  });

  test('leaves a missing status uncoloured and shows it as -', async () => {
    // The client goes away before the handler answers: no status exists.
    const arrived = deferred();
    const line = await lineFor('dev', () => arrived.resolve(), (url) => abortOnArrival(`${url}/gone`, arrived.promise));
    assert.equal(line, `${ESC}[0mGET /gone ${ESC}[0m-${ESC}[0m - ms - -${ESC}[0m`);
  });
});

describe('json', () => {
  test('writes one object with every field typed', async () => {
    const line = await lineFor(
      'json',
      (req, res) => send(res, 200, 'hello'),
      (url) =>
        request(url)
          .get('/j?q="x"')
          .set('User-Agent', UA)
          .set('Referer', 'http://example.com/')
          .auth('bob', 'pw'),
    );
    const entry = JSON.parse(line) as Record<string, unknown>;
    assert.deepEqual(Object.keys(entry), [
      'date', 'remote-addr', 'remote-user', 'method', 'url', 'http-version', 'status',
      'content-length', 'referrer', 'user-agent', 'response-time', 'total-time',
    ]);
    assert.match(String(entry.date), linePattern('{iso}'));
    assert.equal(typeof entry['response-time'], 'number');
    assert.equal(typeof entry['total-time'], 'number');
    assert.deepEqual(
      { ...entry, date: 'D', 'response-time': 'R', 'total-time': 'T' },
      {
        date: 'D',
        'remote-addr': '127.0.0.1',
        'remote-user': 'bob',
        method: 'GET',
        url: '/j?q=%22x%22',
        'http-version': '1.1',
        status: 200,
        'content-length': 5,
        referrer: 'http://example.com/',
        'user-agent': UA,
        'response-time': 'R',
        'total-time': 'T',
      },
    );
    assert.equal(line, JSON.stringify(entry), 'the line is exactly one compact JSON object');
  });

  test('writes a number as JSON.stringify would, whatever text its token gives', async () => {
    // Durations come as toFixed text; the line copies text that is already a
    // number's shortest form and converts the rest.
    const texts = [
      '0', '0.000', '0.500', '0.004', '12.345', '200', '-0', '-0.000', '-1.250', '007', '1.10', '5.', '.5',
      '+5', ' 5 ', '0x10', '1e+21', '0.0000001', '123456789012.123', '1234567890123.123',
      '99999999999999999999999', 'Infinity', 'NaN',
    ];
    const tokens = logger as unknown as logger.TokenIndexer;
    const builtIn = tokens['response-time'] as logger.TokenCallback;
    let next = 0;
    logger.token('response-time', () => texts[next++]);
    const sink = new LineSink();
    const app = await serve([logger('json', { stream: sink })], (req, res) => send(res, 200, 'ok'));
    try {
      for (let i = 0; i < texts.length; i++) await request(app.url).get('/');
      const lines = await sink.lines(texts.length);
      lines.forEach((line, i) => {
        const n = Number(texts[i]);
        const expected = Number.isFinite(n) ? JSON.stringify(n) : 'null';
        assert.ok(line.includes(`,"response-time":${expected},"total-time":`), `${texts[i]} gave ${line}`);
      });
    } finally {
      logger.token('response-time', builtIn);
      await app.close();
    }
  });

  test('writes null for absent values', async () => {
    const line = await lineFor(
      'json',
      (req, res) => {
        res.statusCode = 204;
        res.end();
      },
      (url) => request(url).delete('/k').unset('User-Agent'),
    );
    const entry = JSON.parse(line) as Record<string, unknown>;
    assert.equal(entry['remote-user'], null);
    assert.equal(entry.referrer, null);
    assert.equal(entry['user-agent'], null);
    assert.equal(entry['content-length'], null);
    assert.equal(entry.status, 204);
    assert.equal(entry.method, 'DELETE');
  });
});

describe('tokens redefined while a logger runs', () => {
  // Lines skip the escape test for the built-in date token only (its text is
  // logline's own), and the formats look tokens up once per redefinition:
  // a redefined date is escaped like any other value, and a running logger
  // sees the new tokens from its next line.
  const builtInDate = logger.date;
  const builtInUrl = logger.url;
  const restore = (): void => {
    logger.token('date', builtInDate);
    logger.token('url', builtInUrl);
  };

  test('json: the next line carries the new values, JSON-escaped', async () => {
    const sink = new LineSink();
    const app = await serve([logger('json', { stream: sink })], (req, res) => send(res, 200, 'hi'));
    try {
      await request(app.url).get('/first');
      logger.token('date', () => 'when "now"\u2028');
      logger.token('url', () => '/redefined');
      await request(app.url).get('/second');
      const [first, second] = await sink.lines(2);
      assert.equal((JSON.parse(first as string) as { url: string }).url, '/first');
      assert.ok((second as string).startsWith('{"date":"when \\"now\\"\\u2028","remote-addr":'), second);
      assert.equal((JSON.parse(second as string) as { url: string }).url, '/redefined');
    } finally {
      restore();
      await app.close();
    }
  });

  test('format strings: a redefined date is escaped', async () => {
    try {
      logger.token('date', (req, res, layout) => `${layout ?? 'web'} "at"\n`);
      const line = await lineFor('[:date[clf]] [:date]', (req, res) => send(res, 200, ''), (url) => request(url).get('/'));
      assert.equal(line, '[clf \\"at\\"\\n] [web \\"at\\"\\n]');
    } finally {
      restore();
    }
  });
});

test('an unknown format name is used as a format string', async () => {
  const line = await lineFor(
    'no-such-format :method',
    (req, res) => send(res, 200, ''),
    (url) => request(url).get('/'),
  );
  assert.equal(line, 'no-such-format GET');
});

test('a named format is used by name', async () => {
  logger.format('mine', '[:method] :url -> :status');
  const line = await lineFor(
    'mine',
    (req, res) => send(res, 418, 'teapot'),
    (url) => request(url).get('/tea').ok(() => true),
  );
  assert.equal(line, '[GET] /tea -> 418');
});
