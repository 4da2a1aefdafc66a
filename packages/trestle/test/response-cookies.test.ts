import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import request from 'supertest';
import cookieParser from 'cookie-parser';
import trestle, { type RequestHandler } from 'trestle';
import { appWith, reportErrors } from './response-helpers';

function cookiesOf(res: { headers: Record<string, unknown> }): string[] {
  return (res.headers['set-cookie'] as string[] | undefined) ?? [];
}

describe('res.cookie', () => {
  test('encodes the value, with Path=/ by default', async () => {
    const res = await request(appWith((_req, res) => res.cookie('name', 'tobi ferret;=').end())).get('/');
    assert.deepEqual(cookiesOf(res), ['name=tobi%20ferret%3B%3D; Path=/']);
  });

  test('objects become j: + JSON; numbers, null and undefined are stringified', async () => {
    const res = await request(
      appWith((_req, res) => res.cookie('obj', { a: [1] }).cookie('num', 3).cookie('nul', null).cookie('undef', undefined).end()),
    ).get('/');
    assert.deepEqual(cookiesOf(res), [
      'obj=j%3A%7B%22a%22%3A%5B1%5D%7D; Path=/',
      'num=3; Path=/',
      'nul=j%3Anull; Path=/',
      'undef=undefined; Path=/',
    ]);
  });

  test('every attribute option', async () => {
    const res = await request(
      appWith((_req, res) =>
        res
          .cookie('a', 'b', { path: '/admin', domain: 'example.com', httpOnly: true, secure: true, sameSite: 'strict', partitioned: true, priority: 'high' })
          .cookie('c', 'd', { sameSite: true })
          .cookie('e', 'f', { sameSite: 'none', priority: 'low' })
          .cookie('g', 'h', { sameSite: 'lax', priority: 'medium' })
          .end(),
      ),
    ).get('/');
    assert.deepEqual(cookiesOf(res), [
      'a=b; Domain=example.com; Path=/admin; HttpOnly; Secure; Partitioned; Priority=High; SameSite=Strict',
      'c=d; Path=/; SameSite=Strict',
      'e=f; Path=/; Priority=Low; SameSite=None',
      'g=h; Path=/; Priority=Medium; SameSite=Lax',
    ]);
  });

  test('expires is written as an HTTP date', async () => {
    const res = await request(appWith((_req, res) => res.cookie('a', 'b', { expires: new Date(Date.UTC(2030, 0, 1)) }).end())).get('/');
    assert.deepEqual(cookiesOf(res), ['a=b; Path=/; Expires=Tue, 01 Jan 2030 00:00:00 GMT']);
  });

  test('maxAge (milliseconds) gives Max-Age in seconds and the matching Expires', async () => {
    const before = Math.floor(Date.now() / 1000) * 1000;
    const res = await request(appWith((_req, res) => res.cookie('a', 'b', { maxAge: 90_500 }).end())).get('/');
    const after = Date.now();
    const [line] = cookiesOf(res);
    const match = /^a=b; Max-Age=90; Path=\/; Expires=(.+)$/.exec(line!);
    assert.ok(match, line);
    const expires = Date.parse(match[1]!);
    assert.ok(expires >= before + 90_000 && expires <= after + 90_500, `${match[1]} not 90.5s after the request`);
  });

  test('maxAge 0 and a numeric string; a maxAge that is no number is a TypeError', async () => {
    const res = await request(
      appWith((_req, res) => res.cookie('z', '1', { maxAge: 0 }).cookie('s', '2', { maxAge: '1500' as unknown as number }).end()),
    ).get('/');
    const [zero, str] = cookiesOf(res);
    assert.match(zero!, /^z=1; Max-Age=0; Path=\/; Expires=/);
    assert.match(str!, /^s=2; Max-Age=1; Path=\/; Expires=/);
    const bad = await request(appWith((_req, res) => res.cookie('n', '3', { maxAge: 'abc' as unknown as number }).end())).get('/').expect(520);
    assert.deepEqual(bad.body, { name: 'TypeError', message: 'option maxAge is invalid' });
  });

  test('a custom encode function', async () => {
    const res = await request(appWith((_req, res) => res.cookie('a', 'b c/d', { encode: encodeURI }).end())).get('/');
    assert.deepEqual(cookiesOf(res), ['a=b%20c/d; Path=/']);
  });

  test('a name, value or option that would break the header is a TypeError for next()', async () => {
    const cases: Array<[RequestHandler, string]> = [
      [(_req, res) => res.cookie('a b', 'x').end(), 'argument name is invalid'],
      [(_req, res) => res.cookie('a', 'x;y', { encode: String }).end(), 'argument val is invalid'],
      [(_req, res) => res.cookie('a', 'x', { domain: 'a\r\nSet-Cookie: evil=1' }).end(), 'option domain is invalid'],
      [(_req, res) => res.cookie('a', 'x', { path: '/;\r\n' }).end(), 'option path is invalid'],
    ];
    for (const [handler, message] of cases) {
      const res = await request(appWith(handler)).get('/').expect(520);
      assert.deepEqual(res.body, { name: 'TypeError', message });
      assert.equal(res.headers['set-cookie'], undefined);
    }
  });

  test('signed without a secret is an error', async () => {
    const res = await request(appWith((_req, res) => res.cookie('s', 'v', { signed: true }).end())).get('/').expect(520);
    assert.deepEqual(res.body, {
      name: 'Error',
      message: 'cookieParser("secret") required for signed cookies',
      code: 'TRESTLE_ERR_COOKIE_SECRET_REQUIRED',
    });
  });
});

describe('signed cookies through cookie-parser', () => {
  function signingApp() {
    const app = trestle();
    app.use(cookieParser('keyboard cat'));
    app.get('/set', (_req, res) => res.cookie('user', { id: 7 }, { signed: true }).cookie('plain', 'p', { signed: true }).cookie('open', 'o').end());
    app.get('/read', (req, res) => res.json({ signed: req.signedCookies, cookies: req.cookies }));
    app.use(reportErrors);
    return app;
  }

  test('values signed with req.secret read back as req.signedCookies', async () => {
    const app = signingApp();
    const set = await request(app).get('/set').expect(200);
    const lines = cookiesOf(set);
    assert.equal(lines.length, 3);
    assert.match(lines[0]!, /^user=s%3Aj%3A%7B%22id%22%3A7%7D\.[^;]+; Path=\/$/);
    const cookieHeader = lines.map((l) => l.split(';')[0]).join('; ');
    const read = await request(app).get('/read').set('Cookie', cookieHeader).expect(200);
    assert.deepEqual(read.body, { signed: { user: { id: 7 }, plain: 'p' }, cookies: { open: 'o' } });
  });

  test('a tampered signed cookie reads as false', async () => {
    const app = signingApp();
    const set = await request(app).get('/set');
    const plain = cookiesOf(set)[1]!.split(';')[0]!;
    const tampered = plain.replace('s%3Ap.', 's%3Aq.');
    const read = await request(app).get('/read').set('Cookie', tampered).expect(200);
    assert.deepEqual(read.body.signed, { plain: false });
  });
});

describe('res.clearCookie', () => {
  test('expires the cookie at the epoch, on path / by default', async () => {
    const res = await request(appWith((_req, res) => res.clearCookie('a').end())).get('/');
    assert.deepEqual(cookiesOf(res), ['a=; Path=/; Expires=Thu, 01 Jan 1970 00:00:00 GMT']);
  });

  test('keeps path, domain and flags; ignores maxAge and expires', async () => {
    const res = await request(
      appWith((_req, res) =>
        res.clearCookie('b', { path: '/admin', domain: 'x.com', maxAge: 1000, expires: new Date(Date.UTC(2030, 0, 1)), httpOnly: true, secure: true }).end(),
      ),
    ).get('/');
    assert.deepEqual(cookiesOf(res), ['b=; Domain=x.com; Path=/admin; Expires=Thu, 01 Jan 1970 00:00:00 GMT; HttpOnly; Secure']);
  });

  test('a null path still means /', async () => {
    const res = await request(appWith((_req, res) => res.clearCookie('a', { path: null as unknown as string }).end())).get('/');
    assert.deepEqual(cookiesOf(res), ['a=; Path=/; Expires=Thu, 01 Jan 1970 00:00:00 GMT']);
  });
});
