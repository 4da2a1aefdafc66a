import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { describe, test } from 'node:test';
import request from 'supertest';
import trestleLegacy from 'trestle/legacy';
import trestleV4 from 'trestle/v4';

type Loose = Record<string, (...args: unknown[]) => unknown> & Record<string, unknown>;

function echo(factory: typeof trestleV4 | typeof trestleLegacy, read: (req: Loose) => unknown) {
  // The two generations' apps route alike; typed as v4's to add the route once.
  const app = factory() as trestleV4.Application;
  app.set('env', 'production');
  app.get('/x/:id', (req, res) => res.json(read(req as unknown as Loose) ?? null));
  return app;
}

describe('v4 request', () => {
  test('req.host is the hostname without the port', async () => {
    await request(echo(trestleV4, (r) => r.host)).get('/x/1').set('Host', 'example.com:8080').expect('"example.com"');
  });

  test('the singular accepts* aliases answer like the plural ones', async () => {
    const app = echo(trestleV4, (r) => [r.acceptsCharset!('utf-8'), r.acceptsEncoding!('br', 'gzip'), r.acceptsLanguage!('fr', 'en')]);
    await request(app)
      .get('/x/1')
      .set('Accept-Charset', 'utf-8')
      .set('Accept-Encoding', 'gzip')
      .set('Accept-Language', 'en')
      .expect('["utf-8","gzip","en"]');
  });

  test('req.param looks in params, then body, then query, then the default', async () => {
    const app = trestleV4();
    app.set('env', 'production');
    app.use((req, _res, next) => {
      (req as { body: unknown }).body = { b: 'from body', id: 'body id' };
      next();
    });
    app.get('/x/:id', (req, res) => {
      res.json([req.param('id'), req.param('b'), req.param('q'), req.param('none', 'fallback')]);
    });
    await request(app).get('/x/7?q=from%20query&b=query%20b').expect('["7","from body","from query","fallback"]');
  });

  test('req.accepts answers false and req.is null/false/type as in v5', async () => {
    await request(echo(trestleV4, (r) => [r.accepts!('png'), r.is!('json')])).get('/x/1').set('Accept', 'text/html').expect('[false,null]');
  });

  test('each deprecated form warns once per call site on stderr', () => {
    const run = serveTwiceInChild('trestle/v4', "const h = req.host; req.param('x'); req.acceptsCharset('utf-8'); res.end(String(h));");
    assert.equal(run.status, 0);
    assert.equal(run.stdout, '127.0.0.1127.0.0.1');
    assert.equal(run.stderr.match(/trestle deprecated req\.host: Use req\.hostname instead/g)?.length, 1);
    assert.equal(run.stderr.match(/trestle deprecated req\.param\(name\): Use req\.params, req\.body, or req\.query instead/g)?.length, 1);
    assert.equal(run.stderr.match(/trestle deprecated req\.acceptsCharset: Use acceptsCharsets instead/g)?.length, 1);
  });
});

/**
 * Runs an app of `entry` in a child process, sends it two requests over
 * HTTP, and returns what the child printed: stderr is where deprecation
 * warnings go, so it must be a process of its own.
 */
function serveTwiceInChild(entry: string, handlerBody: string) {
  const script = `
    const http = require('http');
    const app = require(${JSON.stringify(entry)})();
    app.get('/', (req, res) => { ${handlerBody} });
    const server = app.listen(0, '127.0.0.1', () => {
      let n = 0;
      const go = () => http.get({ host: '127.0.0.1', port: server.address().port, path: '/' }, (r) => {
        r.setEncoding('utf8');
        r.on('data', (d) => process.stdout.write(d));
        r.on('end', () => (++n < 2 ? go() : server.close()));
      });
      go();
    });
  `;
  return spawnSync(process.execPath, ['-e', script], { encoding: 'utf8', timeout: 10000 });
}

describe('legacy request', () => {
  const headers = {
    Accept: 'text/html;level=1;q=0.5, application/json, image/*;q=0',
    'Accept-Charset': 'utf-8;q=0.2, iso-8859-1',
    'Accept-Language': 'en;q=0.8, fr, de;q=0.8',
  };

  test('req.accepted lists media types best first with value, quality, type, subtype', async () => {
    const res = await request(echo(trestleLegacy, (r) => r.accepted)).get('/x/1').set(headers).expect(200);
    assert.deepEqual(JSON.parse(res.text), [
      { value: 'application/json', quality: 1, params: {}, type: 'application', subtype: 'json' },
      { value: 'text/html', quality: 0.5, params: { level: '1' }, type: 'text', subtype: 'html' },
    ]);
  });

  test('req.acceptedCharsets and req.acceptedLanguages, best first, ties in header order', async () => {
    await request(echo(trestleLegacy, (r) => [r.acceptedCharsets, r.acceptedLanguages]))
      .get('/x/1')
      .set(headers)
      .expect('[["iso-8859-1","utf-8"],["fr","en","de"]]');
    await request(echo(trestleLegacy, (r) => [r.accepted, r.acceptedCharsets])).get('/x/1').expect('[[],[]]');
  });

  test('req.ips lists X-Forwarded-For with trust proxy true, and nothing without it', async () => {
    const trusting = trestleLegacy();
    trusting.set('env', 'production');
    trusting.enable('trust proxy');
    trusting.get('/', (req, res) => res.json({ ips: req.ips, ip: req.ip }));
    await request(trusting).get('/').set('X-Forwarded-For', '203.0.113.7, 10.0.0.2').expect('{"ips":["203.0.113.7","10.0.0.2"],"ip":"203.0.113.7"}');
    await request(echo(trestleLegacy, (r) => r.ips)).get('/x/1').set('X-Forwarded-For', '203.0.113.7').expect('[]');
  });

  test('req.accepts answers undefined when nothing is acceptable; req.is a boolean', async () => {
    const app = trestleLegacy();
    app.set('env', 'production');
    app.post('/x', (req, res) => {
      res.json({ accepts: req.accepts('png') === undefined ? 'undefined' : req.accepts('png'), html: req.accepts('html'), isJson: req.is('json'), isText: req.is('text/*') });
    });
    await request(app)
      .post('/x')
      .set('Accept', 'text/html')
      .set('Content-Type', 'application/json')
      .send('{}')
      .expect('{"accepts":"undefined","html":"html","isJson":true,"isText":false}');
  });

  test('req.host is the hostname; req.param and the singular aliases warn nothing', async () => {
    await request(echo(trestleLegacy, (r) => r.host)).get('/x/1').set('Host', 'a.example:1').expect('"a.example"');
    const run = serveTwiceInChild('trestle/legacy', "res.end(req.host + ':' + req.param('none', 'd') + ':' + req.acceptsLanguage('en'));");
    assert.equal(run.status, 0);
    assert.equal(run.stdout, '127.0.0.1:d:en127.0.0.1:d:en');
    assert.equal(run.stderr, '');
  });
});
