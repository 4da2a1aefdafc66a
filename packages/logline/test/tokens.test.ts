// Every built-in token with its argument rules, and custom tokens.
import assert from 'node:assert/strict';
import http from 'node:http';
import { describe, test } from 'node:test';
import request from 'supertest';
import logger from 'logline-http';
import { abortOnArrival, assign, deferred, LineSink, lineFor, linePattern, send, serve } from './helpers.js';

const ok = (req: http.IncomingMessage, res: http.ServerResponse): void => send(res, 200, 'ok');

describe(':date', () => {
  test('formats clf, iso and web in UTC; web is the default; an unknown layout is -', async (t) => {
    t.mock.timers.enable({ apis: ['Date'], now: Date.UTC(2000, 9, 10, 3, 5, 6, 7) });
    const line = await lineFor(':date[clf]|:date[iso]|:date[web]|:date|:date[nope]', ok, (url) => request(url).get('/'));
    assert.equal(
      line,
      '10/Oct/2000:03:05:06 +0000|2000-10-10T03:05:06.007Z|Tue, 10 Oct 2000 03:05:06 GMT|Tue, 10 Oct 2000 03:05:06 GMT|-',
    );
  });

  test('follows the clock from one second to the next', async (t) => {
    t.mock.timers.enable({ apis: ['Date'], now: Date.UTC(2024, 1, 29, 23, 59, 59, 999) });
    const sink = new LineSink();
    const app = await serve([logger('[:date[clf]] [:date[web]] [:date[iso]]', { stream: sink })], ok);
    try {
      await request(app.url).get('/');
      await sink.waitForWrites(1);
      t.mock.timers.tick(1);
      await request(app.url).get('/');
      await sink.waitForWrites(2);
      t.mock.timers.tick(42);
      await request(app.url).get('/');
      assert.deepEqual(await sink.lines(3), [
        '[29/Feb/2024:23:59:59 +0000] [Thu, 29 Feb 2024 23:59:59 GMT] [2024-02-29T23:59:59.999Z]',
        '[01/Mar/2024:00:00:00 +0000] [Fri, 01 Mar 2024 00:00:00 GMT] [2024-03-01T00:00:00.000Z]',
        '[01/Mar/2024:00:00:00 +0000] [Fri, 01 Mar 2024 00:00:00 GMT] [2024-03-01T00:00:00.042Z]',
      ]);
    } finally {
      await app.close();
    }
  });
});

test(':http-version, :method and :pid', async () => {
  const line = await lineFor(':http-version :method :pid', ok, (url) => request(url).put('/'));
  assert.equal(line, `1.1 PUT ${process.pid}`);
});

describe(':referrer', () => {
  for (const [name, headers, expected] of [
    ['the Referer header', { Referer: 'http://a.example/' }, 'http://a.example/'],
    ['the Referrer header when Referer is absent', { Referrer: 'http://b.example/' }, 'http://b.example/'],
    ['Referer over Referrer', { Referer: 'http://a.example/', Referrer: 'http://b.example/' }, 'http://a.example/'],
    ['- when neither is sent', {}, '-'],
  ] as const) {
    test(name, async () => {
      const line = await lineFor('[:referrer]', ok, (url) => request(url).get('/').set(headers));
      assert.equal(line, `[${expected}]`);
    });
  }
});

describe(':remote-addr', () => {
  test('is the socket address', async () => {
    assert.equal(await lineFor(':remote-addr', ok, (url) => request(url).get('/')), '127.0.0.1');
  });

  test('prefers req.ip, as a framework sets it behind a trusted proxy', async () => {
    const line = await lineFor(':remote-addr', ok, (url) => request(url).get('/'), {}, [assign({ ip: '203.0.113.9' })]);
    assert.equal(line, '203.0.113.9');
  });

  test('is still known when the client has gone away', async () => {
    const arrived = deferred();
    const line = await lineFor(':remote-addr :status', () => arrived.resolve(), (url) => abortOnArrival(url, arrived.promise));
    assert.equal(line, '127.0.0.1 -');
  });
});

describe(':remote-user', () => {
  const basic = (text: string): string => 'Basic ' + Buffer.from(text).toString('base64');
  for (const [name, authorization, expected] of [
    ['the Basic auth user', basic('bob:secret'), 'bob'],
    ['the user when the password holds colons', basic('ann:a:b:c'), 'ann'],
    ['a case-insensitive scheme', 'bAsIc ' + Buffer.from('cy:pw').toString('base64'), 'cy'],
    ['- for another scheme', 'Bearer abc.def', '-'],
    ['- for credentials without a colon', basic('nocolon'), '-'],
    ['- for credentials that are not base64', 'Basic !!!', '-'],
    ['- for an empty user', basic(':pw'), '-'],
    // As morgan: a line break in the password (\n, \r, U+2028, U+2029) means no user.
    ['- for a password holding a newline', basic('dan:p\nw'), '-'],
    ['- for a password holding U+2028', basic('dan:p\u2028w'), '-'],
    ['the user when the password holds other controls', basic('eve:p\tw\x85'), 'eve'],
    ['- when there is no Authorization header', undefined, '-'],
  ] as const) {
    test(name, async () => {
      const line = await lineFor('[:remote-user]', ok, (url) => {
        const req = request(url).get('/');
        return authorization === undefined ? req : req.set('Authorization', authorization);
      });
      assert.equal(line, `[${expected}]`);
    });
  }
});

describe(':req[header]', () => {
  test('shows the named request header, whatever the case of the name', async () => {
    const line = await lineFor(':req[x-trace] :req[X-Trace] :req[accept]', ok, (url) =>
      request(url).get('/').set('X-Trace', 'abc-123').set('Accept', 'text/plain'),
    );
    assert.equal(line, 'abc-123 abc-123 text/plain');
  });

  test('shows - for an absent header and for no argument', async () => {
    assert.equal(await lineFor(':req[x-absent] :req', ok, (url) => request(url).get('/')), '- -');
  });

  test('joins a repeated header', async () => {
    const sink = new LineSink();
    const app = await serve([logger(':req[x-multi]', { stream: sink })], ok);
    try {
      await new Promise<void>((resolve, reject) => {
        const req = http.get(`${app.url}/`, { headers: { 'X-Multi': ['one', 'two'] } }, (res) => {
          res.resume();
          res.on('end', resolve);
        });
        req.on('error', reject);
      });
      assert.equal(await sink.firstLine(), 'one, two');
    } finally {
      await app.close();
    }
  });
});

describe(':res[header]', () => {
  test('shows response headers, joining multi-value ones', async () => {
    const line = await lineFor(
      ':res[content-type] | :res[Set-Cookie] | :res[content-length] | :res[x-absent]',
      (req, res) => {
        res.setHeader('Content-Type', 'text/plain');
        res.setHeader('Set-Cookie', ['a=1', 'b=2']);
        res.setHeader('Content-Length', 2);
        res.end('ok');
      },
      (url) => request(url).get('/'),
    );
    assert.equal(line, 'text/plain | a=1, b=2 | 2 | -');
  });

  test('shows - when no response was sent', async () => {
    const arrived = deferred();
    const line = await lineFor(
      ':res[content-type]',
      (req, res) => {
        res.setHeader('Content-Type', 'text/plain'); // set, but never sent
        arrived.resolve();
      },
      (url) => abortOnArrival(url, arrived.promise),
    );
    assert.equal(line, '-');
  });
});

describe(':response-time and :total-time', () => {
  test('take a digits argument, 3 by default', async () => {
    const line = await lineFor(
      ':response-time :response-time[0] :response-time[6] :total-time :total-time[0] :total-time[1]',
      ok,
      (url) => request(url).get('/'),
    );
    assert.match(line, linePattern('{ms} {ms:0} {ms:6} {ms} {ms:0} {ms:1}'));
  });

  test('use 3 digits for a digits argument toFixed cannot take', async () => {
    const line = await lineFor(':response-time[x] :total-time[101]', ok, (url) => request(url).get('/'));
    assert.match(line, linePattern('{ms} {ms}'));
  });

  test('response time ends at the headers, total time at the end of the body', async () => {
    const line = await lineFor(
      ':response-time[6] :total-time[6]',
      (req, res) => {
        res.writeHead(200, { 'Content-Type': 'text/plain' });
        res.write('part one, ');
        // The body ends on a later turn of the event loop than the headers.
        setImmediate(() => res.end('part two'));
      },
      (url) => request(url).get('/'),
    );
    const [responseTime, totalTime] = line.split(' ').map(Number) as [number, number];
    assert.ok(responseTime >= 0 && responseTime <= totalTime, line);
  });

  test('are - when the client went away before any response', async () => {
    const arrived = deferred();
    const line = await lineFor(':response-time :total-time', () => arrived.resolve(), (url) =>
      abortOnArrival(url, arrived.promise),
    );
    assert.equal(line, '- -');
  });

  test('are - when logging immediately', async () => {
    const line = await lineFor(':response-time :total-time', ok, (url) => request(url).get('/'), { immediate: true });
    assert.equal(line, '- -');
  });
});

describe(':status', () => {
  test('is the status code sent', async () => {
    const line = await lineFor(':status', (req, res) => send(res, 503, 'busy'), (url) => request(url).get('/').ok(() => true));
    assert.equal(line, '503');
  });

  test('is - when the client closes the socket before the handler answers', async () => {
    const arrived = deferred();
    const sink = new LineSink();
    const app = await serve([logger(':method :url :status', { stream: sink })], () => arrived.resolve());
    try {
      await abortOnArrival(`${app.url}/slow`, arrived.promise);
      assert.equal(await sink.firstLine(), 'GET /slow -');
      await app.settled(1);
    } finally {
      await app.close();
    }
    assert.equal(sink.writes.length, 1, 'one line only');
  });
});

describe(':url', () => {
  test('is req.url', async () => {
    assert.equal(await lineFor(':url', ok, (url) => request(url).get('/a/b?c=d&e')), '/a/b?c=d&e');
  });

  test('prefers req.originalUrl, as a framework keeps it when mounting rewrites req.url', async () => {
    const rewrite = assign({ originalUrl: '/api/users', url: '/users' });
    assert.equal(await lineFor(':url', ok, (url) => request(url).get('/api/users'), {}, [rewrite]), '/api/users');
  });
});

test(':user-agent', async () => {
  assert.equal(await lineFor(':user-agent', ok, (url) => request(url).get('/').set('User-Agent', 'curl/8.0')), 'curl/8.0');
});

describe('custom tokens', () => {
  test('receive the bracket argument as their third argument', async () => {
    logger.token('shout', (req, res, arg) => {
      return arg === undefined ? 'HEY' : arg.toUpperCase() + '!';
    });
    const line = await lineFor(':shout[hello] :shout[with space] :shout', ok, (url) => request(url).get('/'));
    assert.equal(line, 'HELLO! WITH SPACE! HEY');
  });

  test('are called with two arguments when no bracket argument is given', async () => {
    const counts: number[] = [];
    logger.token('arity', (...args: unknown[]) => {
      counts.push(args.length);
      return String(args.length);
    });
    assert.equal(await lineFor(':arity :arity[x]', ok, (url) => request(url).get('/')), '2 3');
    assert.deepEqual(counts, [2, 3]);
  });

  test('can read what earlier middleware attached to req', async () => {
    logger.token<http.IncomingMessage & { id?: string }>('id', (req) => req.id);
    const line = await lineFor(':id :method', ok, (url) => request(url).get('/'), {}, [assign({ id: 'req-42' })]);
    assert.equal(line, 'req-42 GET');
  });

  test('replace a token of the same name', async () => {
    logger.token('flavour', () => 'vanilla');
    assert.equal(await lineFor(':flavour', ok, (url) => request(url).get('/')), 'vanilla');
    logger.token('flavour', () => 'chocolate');
    assert.equal(await lineFor(':flavour', ok, (url) => request(url).get('/')), 'chocolate');
  });

  test('a running logger sees tokens defined or replaced after it was created', async () => {
    logger.token('mood', () => 'calm');
    const sink = new LineSink();
    const app = await serve([logger(':mood :later', { stream: sink })], ok);
    try {
      await request(app.url).get('/');
      logger.token('mood', () => 'busy');
      logger.token('later', () => 'defined');
      await request(app.url).get('/');
      assert.deepEqual(await sink.lines(2), ['calm :later', 'busy defined']);
    } finally {
      await app.close();
    }
  });

  test('show - for a falsy value', async () => {
    logger.token('nothing', () => '');
    logger.token('nil', () => null);
    assert.equal(await lineFor(':nothing :nil', ok, (url) => request(url).get('/')), '- -');
  });
});

test('text that is not a defined token is written as it stands', async () => {
  const line = await lineFor('ratio 1:2 :x :no-such-token[arg] :method[] at :4242', ok, (url) => request(url).get('/'));
  assert.equal(line, 'ratio 1:2 :x :no-such-token[arg] GET[] at :4242');
});
