import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { join, relative } from 'node:path';
import { describe, test } from 'node:test';
import request from 'supertest';
import trestleLegacy from 'trestle/legacy';
import trestleV4 from 'trestle/v4';

type OldRes = trestleV4.Response | trestleLegacy.Response;

/** The old forms, each on a route of an app of `factory`. */
function oldFormsApp(factory: typeof trestleV4 | typeof trestleLegacy) {
  // The two generations' apps route alike; typed as v4's to add the routes once.
  const app = factory() as trestleV4.Application;
  app.set('env', 'production');
  const routes: Record<string, (res: OldRes) => unknown> = {
    '/send-status-body': (res) => res.send(201, 'created'),
    '/send-body-status': (res) => res.send('accepted', 202),
    '/send-status': (res) => res.send(404),
    '/json-status-obj': (res) => res.json(201, { a: 1 }),
    '/json-obj-status': (res) => res.json({ a: 2 }, 202),
    '/jsonp-status-obj': (res) => res.jsonp(201, { a: 3 }),
    '/redirect-url-status': (res) => res.redirect('/there', 301),
    '/redirect-back': (res) => res.redirect('back'),
    '/location-back': (res) => res.location('back').end(),
    '/sendfile': (res) => res.sendfile(relative(process.cwd(), join(__dirname, 'fixtures', 'tls', 'cert.pem'))),
  };
  for (const [path, answer] of Object.entries(routes)) app.get(path, (_req, res) => answer(res));
  return app;
}

for (const [name, factory] of [['v4', trestleV4], ['legacy', trestleLegacy]] as const) {
  describe(`${name}: the older response forms`, () => {
    const app = oldFormsApp(factory);

    test('res.send(status, body), res.send(body, status), res.send(status)', async () => {
      await request(app).get('/send-status-body').expect(201, 'created');
      await request(app).get('/send-body-status').expect(202, 'accepted');
      const res = await request(app).get('/send-status').expect(404, 'Not Found');
      assert.equal(res.headers['content-type'], 'text/plain; charset=utf-8');
    });

    test('res.json and res.jsonp with a status first or last', async () => {
      await request(app).get('/json-status-obj').expect(201, '{"a":1}');
      await request(app).get('/json-obj-status').expect(202, '{"a":2}');
      await request(app).get('/jsonp-status-obj?callback=cb').expect(201, "/**/ typeof cb === 'function' && cb({\"a\":3});");
    });

    test("res.redirect(url, status) and 'back' as the Referrer (or /)", async () => {
      const moved = await request(app).get('/redirect-url-status').expect(301);
      assert.equal(moved.headers.location, '/there');
      const back = await request(app).get('/redirect-back').set('Referer', '/previous').expect(302);
      assert.equal(back.headers.location, '/previous');
      const home = await request(app).get('/redirect-back').expect(302);
      assert.equal(home.headers.location, '/');
      const located = await request(app).get('/location-back').set('Referrer', '/r').expect(200);
      assert.equal(located.headers.location, '/r');
    });

    test('res.sendfile takes a path relative to the working directory', async () => {
      const res = await request(app).get('/sendfile').expect(200);
      assert.match(res.text, /^-----BEGIN CERTIFICATE-----/);
    });
  });
}

describe('warnings', () => {
  const script = (entry: string, handler: string) => `
    const http = require('http');
    const app = require(${JSON.stringify(entry)})();
    app.get('/', (req, res) => { ${handler}; });
    const server = app.listen(0, '127.0.0.1', () => {
      http.get({ host: '127.0.0.1', port: server.address().port, path: '/' }, (r) => { r.resume(); r.on('end', () => server.close()); });
    });
  `;
  const run = (entry: string, handler: string) => spawnSync(process.execPath, ['-e', script(entry, handler)], { encoding: 'utf8', timeout: 10000 });

  test('v4 warns about each older form; legacy only where Express 3 did, on stderr, in its words', () => {
    const v4 = run('trestle/v4', 'res.json({ a: 1 }, 201)');
    assert.equal(v4.status, 0);
    assert.match(v4.stderr, /trestle deprecated res\.json\(obj, status\): Use res\.status\(status\)\.json\(obj\) instead/);
    const legacy = run('trestle/legacy', 'res.json({ a: 1 }, 201)');
    assert.equal(legacy.status, 0);
    assert.match(legacy.stderr, /^.* GMT trestle deprecated res\.json\(num, status\): Use res\.status\(status\)\.json\(num\) instead at \[eval\]:\d+:\d+\n$/);
    // res.json(status, obj) was Express 3's documented form: no warning.
    const documented = run('trestle/legacy', 'res.json(201, { a: 1 })');
    assert.equal(documented.status, 0);
    assert.equal(documented.stderr, '');
  });
});
