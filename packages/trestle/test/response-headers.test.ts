import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import request from 'supertest';
import trestle from 'trestle';
import trestleLegacy from 'trestle/legacy';
import trestleV4 from 'trestle/v4';
import { appWith, reportErrors } from './response-helpers';

describe('res.status', () => {
  test('sets the status and returns the response for chaining', async () => {
    await request(appWith((_req, res) => res.status(201).send('made'))).get('/').expect(201, 'made');
  });

  test('accepts any integer from 100 to 999', async () => {
    await request(appWith((_req, res) => res.status(999).end())).get('/').expect(999);
  });

  test('rejects integers out of range with a RangeError', async () => {
    for (const code of [99, 1000, -1]) {
      const res = await request(appWith((_req, res) => res.status(code).end())).get('/').expect(520);
      assert.deepEqual(res.body, {
        name: 'RangeError',
        message: `Invalid status code: ${code}. Status code must be greater than 99 and less than 1000.`,
        code: 'TRESTLE_ERR_INVALID_STATUS_CODE',
      });
    }
  });

  test('rejects what is not an integer with a TypeError (strings included)', async () => {
    const cases: Array<[unknown, string]> = [['200', '"200"'], [200.5, '200.5'], [undefined, 'undefined'], [Number.NaN, 'null']];
    for (const [code, shown] of cases) {
      const res = await request(appWith((_req, res) => res.status(code as number).end())).get('/').expect(520);
      assert.deepEqual(res.body, {
        name: 'TypeError',
        message: `Invalid status code: ${shown}. Status code must be an integer.`,
        code: 'TRESTLE_ERR_INVALID_STATUS_CODE',
      });
    }
  });
});

describe('res.set / res.header / res.get', () => {
  test('sets one header, converting numbers to strings', async () => {
    const res = await request(appWith((_req, res) => res.set('X-Count', 3 as unknown as string).send(typeof res.get('X-Count')))).get('/');
    assert.equal(res.headers['x-count'], '3');
    assert.equal(res.text, 'string');
  });

  test('sets several headers from an object; arrays give one line each', async () => {
    const res = await request(
      appWith((_req, res) => {
        res.set({ 'X-A': 'a', 'X-Multi': ['1', '2'] });
        res.header('X-B', 'b').send('ok');
      }),
    ).get('/');
    assert.equal(res.headers['x-a'], 'a');
    assert.equal(res.headers['x-b'], 'b');
    assert.equal(res.headers['x-multi'], '1, 2');
  });

  test('Content-Type gains the charset of its type; an explicit charset stays', async () => {
    const app = trestle();
    app.get('/plain', (_req, res) => res.set('Content-Type', 'text/plain').end(res.get('content-type')));
    app.get('/latin', (_req, res) => res.set('Content-Type', 'text/html; charset=latin1').end(res.get('Content-Type')));
    app.get('/png', (_req, res) => res.set({ 'Content-Type': 'image/png' }).end());
    assert.equal((await request(app).get('/plain')).text, 'text/plain; charset=utf-8');
    assert.equal((await request(app).get('/latin')).text, 'text/html; charset=latin1');
    assert.equal((await request(app).get('/png')).headers['content-type'], 'image/png');
  });

  test('a bare word mime-types does not know becomes false, as in Express; send() then picks HTML', async () => {
    const res = await request(appWith((_req, res) => res.set('Content-Type', 'foo').end())).get('/');
    assert.equal(res.headers['content-type'], 'false');
    const sent = await request(appWith((_req, res) => res.set('Content-Type', 'foo').send('x'))).get('/');
    assert.equal(sent.headers['content-type'], 'text/html; charset=utf-8');
  });

  test('Content-Type cannot be an array', async () => {
    const res = await request(appWith((_req, res) => res.set('Content-Type', ['text/plain']).end())).get('/').expect(520);
    assert.deepEqual(res.body, { name: 'TypeError', message: 'Content-Type cannot be set to an Array', code: 'TRESTLE_ERR_INVALID_ARG_TYPE' });
  });

  test('res.get reads a header case-insensitively, undefined when unset', async () => {
    const res = await request(appWith((_req, res) => res.set('X-Thing', 'v').json([res.get('x-thing'), res.get('X-None') ?? null]))).get('/');
    assert.deepEqual(res.body, ['v', null]);
  });
});

describe('header injection', () => {
  const INJECTED = 'a\r\nSet-Cookie: evil=1';

  test('CR/LF in a value is an error for next(), never a second header', async () => {
    const res = await request(appWith((_req, res) => res.set('X-A', INJECTED).end())).get('/').expect(520);
    assert.equal(res.body.code, 'ERR_INVALID_CHAR');
    assert.equal(res.headers['set-cookie'], undefined);
    assert.equal(res.headers['x-a'], undefined);
  });

  test('the same from an async handler, from append, from links and from an object', async () => {
    const handlers = [
      async (_req: unknown, res: trestle.Response) => {
        await Promise.resolve();
        res.set('X-A', INJECTED).end();
      },
      (_req: unknown, res: trestle.Response) => res.append('X-A', ['ok', INJECTED]).end(),
      (_req: unknown, res: trestle.Response) => res.links({ next: `/2>; rel="x"\r\nSet-Cookie: evil=1` }).end(),
      (_req: unknown, res: trestle.Response) => res.set({ 'X-Ok': 'fine', 'X-A': INJECTED }).end(),
    ];
    for (const handler of handlers) {
      const res = await request(appWith(handler)).get('/').expect(520);
      assert.equal(res.body.code, 'ERR_INVALID_CHAR');
      assert.equal(res.headers['set-cookie'], undefined);
    }
  });

  test('an invalid header name is refused the same way', async () => {
    const res = await request(appWith((_req, res) => res.set('X A', 'v').end())).get('/').expect(520);
    assert.equal(res.body.code, 'ERR_INVALID_HTTP_TOKEN');
  });

  // node's rules (the same on node 20 to 26, checked on each in CI): a value may hold tab, space,
  // visible ASCII and latin1 (obs-text); a name must be a token. Every generation passes node's error on.
  test('res.set on every generation: values and names node refuses go to next() with its code; the rest are sent', async () => {
    const values: Record<string, [unknown, string | null]> = {
      nul: ['a\0b', null], del: ['a\x7fb', null], ctl: ['a\x01b', null], euro: ['\u20ac', null],
      tab: ['a\tb', 'a\tb'], empty: ['', ''], number: [5, '5'],
    };
    const names: Record<string, string> = { space: 'X A', colon: 'X:A', empty: '', latin1: 'caf\u00e9', brace: 'x{' };
    for (const [entry, fw] of Object.entries({ trestle, 'trestle/v4': trestleV4, 'trestle/legacy': trestleLegacy })) {
      const app = (fw as unknown as () => trestle.Application)();
      app.get('/value/:k', (req, res) => res.set('X-A', values[req.params.k!]![0] as string).send('sent'));
      app.get('/name/:k', (req, res) => res.set(names[req.params.k!]!, 'v').send('sent'));
      app.use(((err: NodeJS.ErrnoException, _req, res, _next) => res.status(520).send(String(err.code))) as trestle.ErrorRequestHandler);
      for (const [k, [, sent]] of Object.entries(values)) {
        const res = await request(app).get(`/value/${k}`);
        if (sent === null) assert.deepEqual([res.status, res.text, res.headers['x-a']], [520, 'ERR_INVALID_CHAR', undefined], `${entry} ${k}`);
        else assert.deepEqual([res.status, res.headers['x-a']], [200, sent], `${entry} ${k}`);
      }
      for (const k of Object.keys(names)) {
        const res = await request(app).get(`/name/${k}`);
        assert.deepEqual([res.status, res.text], [520, 'ERR_INVALID_HTTP_TOKEN'], `${entry} ${k}`);
      }
    }
  });

  test('without an error handler the app answers 500 and goes on serving', async () => {
    const app = trestle();
    app.set('env', 'test');
    app.get('/bad', (_req, res) => res.set('X-A', INJECTED).end());
    app.get('/good', (_req, res) => res.send('still here'));
    const res = await request(app).get('/bad').expect(500);
    assert.equal(res.headers['set-cookie'], undefined);
    assert.match(res.text, /ERR_INVALID_CHAR/);
    await request(app).get('/good').expect(200, 'still here');
  });

  test('res.location percent-encodes CR/LF instead', async () => {
    const res = await request(appWith((_req, res) => res.location('/a\r\nSet-Cookie: evil=1').end())).get('/').expect(200);
    assert.equal(res.headers.location, '/a%0D%0ASet-Cookie:%20evil=1');
    assert.equal(res.headers['set-cookie'], undefined);
  });
});

describe('res.append', () => {
  test('adds values after the existing ones, arrays flattened in', async () => {
    const res = await request(
      appWith((_req, res) => {
        res.append('Link', '<a>');
        res.append('Link', ['<b>', '<c>']);
        res.append('X-New', 'first');
        res.end();
      }),
    ).get('/');
    assert.equal(res.headers.link, '<a>, <b>, <c>');
    assert.equal(res.headers['x-new'], 'first');
  });

  test('keeps each Set-Cookie on its own line, after one set earlier', async () => {
    const res = await request(
      appWith((_req, res) => {
        res.set('Set-Cookie', 'a=1');
        res.append('Set-Cookie', 'b=2');
        res.cookie('c', '3');
        res.end();
      }),
    ).get('/');
    assert.deepEqual(res.headers['set-cookie'], ['a=1', 'b=2', 'c=3; Path=/']);
  });
});

describe('res.type / res.contentType', () => {
  const cases: Array<[string, string]> = [
    ['html', 'text/html; charset=utf-8'],
    ['.html', 'text/html; charset=utf-8'],
    ['json', 'application/json; charset=utf-8'],
    ['png', 'image/png'],
    ['js', 'text/javascript; charset=utf-8'],
    ['text/plain', 'text/plain; charset=utf-8'],
    ['application/vnd.api+json', 'application/vnd.api+json'],
    ['nonsense', 'application/octet-stream'],
  ];
  for (const [given, expected] of cases) {
    test(`${given} -> ${expected}`, async () => {
      const res = await request(appWith((_req, res) => res.type(given).end())).get('/');
      assert.equal(res.headers['content-type'], expected);
    });
  }

  test('contentType is the same method', async () => {
    const res = await request(appWith((_req, res) => res.contentType('txt').end())).get('/');
    assert.equal(res.headers['content-type'], 'text/plain; charset=utf-8');
  });
});

describe('res.vary', () => {
  test('adds each field once, keeping the first spelling', async () => {
    const res = await request(
      appWith((_req, res) => {
        res.vary('Accept');
        res.vary(['Origin', 'accept']);
        res.vary('User-Agent, Origin');
        res.end();
      }),
    ).get('/');
    assert.equal(res.headers.vary, 'Accept, Origin, User-Agent');
  });

  test('* absorbs everything; an empty array changes nothing', async () => {
    const res = await request(appWith((_req, res) => res.vary('*').vary('Accept').end())).get('/');
    assert.equal(res.headers.vary, '*');
    const none = await request(appWith((_req, res) => res.vary([]).end())).get('/');
    assert.equal(none.headers.vary, undefined);
  });

  test('a missing or invalid field is a TypeError', async () => {
    const missing = await request(appWith((_req, res) => res.vary(undefined as unknown as string).end())).get('/').expect(520);
    assert.deepEqual(missing.body, { name: 'TypeError', message: 'field argument is required' });
    const invalid = await request(appWith((_req, res) => res.vary('a b').end())).get('/').expect(520);
    assert.deepEqual(invalid.body, { name: 'TypeError', message: 'field argument contains an invalid header name' });
  });
});

describe('res.links', () => {
  test('writes Link entries, one per URL of an array, appending to earlier calls', async () => {
    const res = await request(
      appWith((_req, res) => {
        res.links({ next: 'http://api.example.com/users?page=2', last: ['http://a/?p=5', 'http://b/'] });
        res.links({ prev: '/1' });
        res.end();
      }),
    ).get('/');
    assert.equal(
      res.headers.link,
      '<http://api.example.com/users?page=2>; rel="next", <http://a/?p=5>; rel="last", <http://b/>; rel="last", </1>; rel="prev"',
    );
  });
});

describe('res.location', () => {
  test('percent-encodes what a URL cannot hold, keeping valid escapes', async () => {
    const res = await request(appWith((_req, res) => res.location('/a b/ü?x=<y>&z=%20#h').end())).get('/');
    assert.equal(res.headers.location, '/a%20b/%C3%BC?x=%3Cy%3E&z=%20#h');
  });

  test('encodes a lone % and non-ASCII hosts', async () => {
    const res = await request(appWith((_req, res) => res.location('http://exämple.com/ä?q=%zz').end())).get('/');
    assert.equal(res.headers.location, 'http://ex%C3%A4mple.com/%C3%A4?q=%25zz');
  });

  test('v5: "back" is an ordinary relative URL, not the Referer', async () => {
    const res = await request(appWith((_req, res) => res.location('back').end()))
      .get('/')
      .set('Referer', '/previous');
    assert.equal(res.headers.location, 'back');
  });
});

describe('res.attachment', () => {
  test('without a name: Content-Disposition attachment, no type', async () => {
    const res = await request(appWith((_req, res) => res.attachment().end())).get('/');
    assert.equal(res.headers['content-disposition'], 'attachment');
    assert.equal(res.headers['content-type'], undefined);
  });

  test('with a path: its base name only, and the type of its extension', async () => {
    const res = await request(appWith((_req, res) => res.attachment('path/to/my report.pdf').send('x'))).get('/');
    assert.equal(res.headers['content-disposition'], 'attachment; filename="my report.pdf"');
    assert.equal(res.headers['content-type'], 'application/pdf; charset=utf-8');
  });

  test('non-ASCII names get an ASCII fallback and an RFC 5987 form', async () => {
    const res = await request(appWith((_req, res) => res.attachment('résumé "q".txt').end())).get('/');
    assert.equal(res.headers['content-disposition'], `attachment; filename="r?sum? \\"q\\".txt"; filename*=UTF-8''r%C3%A9sum%C3%A9%20%22q%22.txt`);
    assert.equal(res.headers['content-type'], 'text/plain; charset=utf-8');
  });

  test('a name without extension is octet-stream', async () => {
    const res = await request(appWith((_req, res) => res.attachment('README').end())).get('/');
    assert.equal(res.headers['content-disposition'], 'attachment; filename=README');
    assert.equal(res.headers['content-type'], 'application/octet-stream');
  });
});

describe('res.locals', () => {
  test('is a fresh null-prototype object per response, assignable', async () => {
    const app = trestle();
    app.use((_req, res, next) => {
      res.locals.seen = ((res.locals.seen as number | undefined) ?? 0) + 1;
      next();
    });
    app.get('/', (_req, res) => res.json({ proto: Object.getPrototypeOf(res.locals) === null, seen: res.locals.seen }));
    app.get('/assign', (_req, res) => {
      res.locals = { replaced: true };
      res.json(res.locals);
    });
    app.use(reportErrors);
    assert.deepEqual((await request(app).get('/')).body, { proto: true, seen: 1 });
    assert.deepEqual((await request(app).get('/')).body, { proto: true, seen: 1 });
    assert.deepEqual((await request(app).get('/assign')).body, { replaced: true });
  });
});
