// req.get / req.header and the cache validators req.fresh / req.stale.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import request from 'supertest';
import trestle from 'trestle';

test('req.get and req.header read a header without regard to case', async () => {
  const app = trestle();
  app.get('/', (req, res) => {
    res.json([req.get('x-foo'), req.get('X-FOO'), req.header('X-Foo'), req.get('content-type') ?? null, req.get('x-missing') ?? null]);
  });
  const res = await request(app).get('/').set('X-Foo', 'bar').expect(200);
  assert.deepEqual(res.body, ['bar', 'bar', 'bar', null, null]);
});

test('Referer and Referrer are interchangeable, whichever the client sent', async () => {
  const app = trestle();
  app.get('/', (req, res) => {
    res.json([req.get('Referer'), req.get('referrer'), req.header('REFERRER'), req.header('referer')]);
  });
  const a = await request(app).get('/').set('Referer', 'http://a.test/').expect(200);
  assert.deepEqual(a.body, ['http://a.test/', 'http://a.test/', 'http://a.test/', 'http://a.test/']);
  const b = await request(app).get('/').set('Referrer', 'http://b.test/').expect(200);
  assert.deepEqual(b.body, ['http://b.test/', 'http://b.test/', 'http://b.test/', 'http://b.test/']);
});

test('req.get of a repeated Set-Cookie gives every value', async () => {
  const app = trestle();
  app.get('/', (req, res) => {
    res.json(req.get('Set-Cookie'));
  });
  // superagent sends an array value as one header line per item.
  const res = await request(app).get('/').set('Set-Cookie', ['a=1', 'b=2'] as unknown as string).expect(200);
  assert.deepEqual(res.body, ['a=1', 'b=2']);
});

test('req.get throws a clear TypeError for a missing or non-string name', async () => {
  const app = trestle();
  app.get('/', (req, res) => {
    const call = (name: unknown) => {
      try {
        req.get(name as string);
        return 'no error';
      } catch (err) {
        return `${(err as Error).name}: ${(err as Error).message}`;
      }
    };
    res.json([call(undefined), call(''), call(42), call({}), (() => {
      try {
        (req.header as (n?: unknown) => unknown)();
        return 'no error';
      } catch (err) {
        return (err as Error).message;
      }
    })()]);
  });
  const res = await request(app).get('/').expect(200);
  assert.deepEqual(res.body, [
    'TypeError: name argument is required to req.get',
    'TypeError: name argument is required to req.get',
    'TypeError: name must be a string to req.get',
    'TypeError: name must be a string to req.get',
    'name argument is required to req.get',
  ]);
});

test('a thrown req.get error reaches the error handler as a 500, the server keeps serving', async () => {
  const app = trestle();
  app.set('env', 'production');
  app.get('/', (req, res) => {
    res.send(req.get(undefined as unknown as string));
  });
  await request(app).get('/').expect(500);
  await request(app).get('/').expect(500);
});

/** An app that sets the validators and status given, and answers `fresh,stale`. */
function validating(set: { etag?: string; lastModified?: string; status?: number }) {
  const app = trestle();
  app.all('/', (req, res) => {
    if (set.etag) res.set('ETag', set.etag);
    if (set.lastModified) res.set('Last-Modified', set.lastModified);
    res.status(set.status ?? 200);
    const answer = `${req.fresh},${req.stale}`;
    // Status 200 and `end` (not `send`, which would answer 304 when fresh) so the answer always arrives.
    res.status(200).set('X-Fresh', answer).end(answer);
  });
  return app;
}

const fresh = 'true,false';
const stale = 'false,true';

test('req.fresh by ETag against If-None-Match', async () => {
  const app = validating({ etag: '"abc"' });
  await request(app).get('/').set('If-None-Match', '"abc"').expect(200, fresh);
  await request(app).get('/').set('If-None-Match', 'W/"abc"').expect(200, fresh);
  await request(app).get('/').set('If-None-Match', '"x", "abc"').expect(200, fresh);
  await request(app).get('/').set('If-None-Match', '*').expect(200, fresh);
  await request(app).get('/').set('If-None-Match', '"other"').expect(200, stale);
  await request(app).get('/').expect(200, stale);
});

test('req.fresh by Last-Modified against If-Modified-Since', async () => {
  const since = 'Wed, 21 Oct 2015 07:28:00 GMT';
  await request(validating({ lastModified: 'Tue, 20 Oct 2015 07:28:00 GMT' })).get('/').set('If-Modified-Since', since).expect(200, fresh);
  await request(validating({ lastModified: since })).get('/').set('If-Modified-Since', since).expect(200, fresh);
  await request(validating({ lastModified: 'Thu, 22 Oct 2015 07:28:00 GMT' })).get('/').set('If-Modified-Since', since).expect(200, stale);
  // No validator on the response: nothing to compare, stale.
  await request(validating({})).get('/').set('If-Modified-Since', since).expect(200, stale);
});

test('Cache-Control: no-cache makes the request stale', async () => {
  await request(validating({ etag: '"abc"' })).get('/').set('If-None-Match', '"abc"').set('Cache-Control', 'no-cache').expect(200, stale);
});

test('req.fresh only for GET and HEAD', async () => {
  const app = validating({ etag: '"abc"' });
  await request(app).head('/').set('If-None-Match', '"abc"').expect('X-Fresh', fresh).expect(200);
  await request(app).post('/').set('If-None-Match', '"abc"').expect(200, stale);
  await request(app).put('/').set('If-None-Match', '"abc"').expect(200, stale);
});

test('req.fresh only with a 2xx or 304 status', async () => {
  const ask = (status: number) => request(validating({ etag: '"abc"', status })).get('/').set('If-None-Match', '"abc"');
  await ask(200).expect(200, fresh);
  await ask(204).expect(200, fresh);
  await ask(299).expect(200, fresh);
  await ask(304).expect(200, fresh);
  await ask(301).expect(200, stale);
  await ask(404).expect(200, stale);
  await ask(500).expect(200, stale);
});

test('the conditional-GET pattern: 304 when fresh', async () => {
  const app = trestle();
  app.get('/', (req, res) => {
    res.set('ETag', '"v1"');
    if (req.fresh) res.status(304).end();
    else res.send('body');
  });
  await request(app).get('/').expect(200, 'body');
  await request(app).get('/').set('If-None-Match', '"v1"').expect(304, '');
});
