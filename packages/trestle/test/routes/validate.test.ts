// trestle.validate() over real HTTP on each entry, with zod, valibot and
// arktype: valid requests reach the handler with the validated (coerced)
// values; invalid ones are a 400 whose default answer lists each problem
// with its field's path, through next(err) so the app's handler can answer.
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import trestle from 'trestle';
import trestleLegacy from 'trestle/legacy';
import trestleV4 from 'trestle/v4';
import * as v from 'valibot';
import * as z from 'zod';
import { rawRequest, serve } from '../helpers';

/** What the tests use of each entry; its handlers are typed with trestle's request and response. */
interface Entry {
  (): { use(...handlers: unknown[]): unknown; post(path: string, ...handlers: unknown[]): unknown };
  json(): unknown;
  validate: typeof trestle.validate;
}
type Req = trestle.Request & { validated: Record<string, Record<string, unknown>> };
const ENTRIES: Array<[string, Entry]> = [
  ['trestle', trestle],
  ['trestle/v4', trestleV4],
  ['trestle/legacy', trestleLegacy],
];

const JSON_TYPE = { 'content-type': 'application/json' };

async function ask(app: unknown, method: string, path: string, headers: Record<string, string> = {}, body?: string) {
  const server = await serve(app as never);
  try {
    const res = await rawRequest(server.port, method, path, headers, body);
    return { ...res, json: res.headers['content-type']?.startsWith('application/json') ? (JSON.parse(res.body) as Record<string, unknown>) : undefined };
  } finally {
    await server.close();
  }
}

// arktype is an ES module only: loaded as one.
const arktype = import('arktype');

/** The same schemas in three libraries: `id` and `limit` numbers coerced from text, `name` a non-empty string. */
const LIBRARIES: Record<string, () => Promise<Record<'body' | 'query' | 'params' | 'headers', trestle.ValidateSchemas['body']>>> = {
  zod: async () => ({
    body: z.object({ name: z.string().min(1), tags: z.array(z.string()).default([]) }),
    query: z.object({ limit: z.coerce.number().int().max(100), q: z.string().optional() }),
    params: z.object({ id: z.coerce.number().int() }),
    headers: z.object({ 'x-api-key': z.string().min(3) }),
  }),
  valibot: async () => ({
    body: v.object({ name: v.pipe(v.string(), v.minLength(1)), tags: v.optional(v.array(v.string()), []) }),
    query: v.object({ limit: v.pipe(v.string(), v.transform(Number), v.integer(), v.maxValue(100)), q: v.optional(v.string()) }),
    params: v.object({ id: v.pipe(v.string(), v.transform(Number), v.integer()) }),
    headers: v.object({ 'x-api-key': v.pipe(v.string(), v.minLength(3)) }),
  }),
  arktype: async () => {
    const { type } = await arktype;
    return {
      body: type({ name: 'string > 0', 'tags?': 'string[]' }),
      query: type({ limit: type('string.integer.parse').to('number <= 100'), 'q?': 'string' }),
      params: type({ id: 'string.integer.parse' }),
      headers: type({ 'x-api-key': 'string >= 3' }),
    };
  },
};

for (const [entryName, entry] of ENTRIES) {
  describe(`trestle.validate (${entryName})`, () => {
    for (const [library, make] of Object.entries(LIBRARIES)) {
      const build = async () => {
        const schemas = await make();
        const app = entry();
        app.use(entry.json());
        app.post('/users/:id', entry.validate(schemas), (req: Req, res: trestle.Response) => {
          res.json({ params: req.params, query: req.query, body: req.body, header: req.validated.headers!['x-api-key'], rawHeader: req.headers['x-api-key'] });
        });
        return app;
      };

      test(`${library}: a valid request reaches the handler with the validated and coerced values`, async () => {
        const res = await ask(await build(), 'POST', '/users/42?limit=10&q=ann', { ...JSON_TYPE, 'x-api-key': 'secret' }, JSON.stringify({ name: 'Ann', extra: true }));
        assert.equal(res.status, 200, res.body);
        const out = res.json!;
        assert.deepEqual(out.params, { id: 42 });
        assert.deepEqual(out.query, { limit: 10, q: 'ann' });
        assert.equal((out.body as { name: string }).name, 'Ann');
        assert.equal(out.header, 'secret');
        assert.equal(out.rawHeader, 'secret');
      });

      test(`${library}: an invalid request is a 400 whose JSON lists every problem with the path of its field`, async () => {
        const res = await ask(await build(), 'POST', '/users/abc?limit=500', { ...JSON_TYPE, 'x-api-key': 'x' }, JSON.stringify({ name: '', tags: ['ok', 7] }));
        assert.equal(res.status, 400);
        assert.equal(res.headers['content-type'], 'application/json; charset=utf-8');
        const body = res.json as { code: string; error: string; message: string; issues: Array<{ in: string; path: Array<string | number>; message: string }> };
        assert.equal(body.code, 'TRESTLE_ERR_VALIDATION_FAILED');
        assert.equal(body.error, 'Bad Request');
        const where = body.issues.map((i) => `${i.in}:${i.path.join('.')}`);
        for (const expected of ['params:id', 'query:limit', 'headers:x-api-key', 'body:name', 'body:tags.1']) {
          assert.ok(where.includes(expected), `no problem listed at ${expected}; listed: ${where.join(', ')}`);
        }
        for (const issue of body.issues) assert.equal(typeof issue.message, 'string');
        assert.match(body.message, /^Invalid request: params\.id: /);
      });
    }

    test("the app's own error handler gets the error (code, status, issues) and shapes the answer", async () => {
      const app = entry();
      app.use(entry.json());
      app.post('/items', entry.validate({ body: z.object({ price: z.number().positive() }) }), (_req: Req, res: trestle.Response) => {
        res.send('never');
      });
      app.use((err: { code?: string; status?: number; issues?: Array<{ path: unknown[] }> }, _req: unknown, res: { status(n: number): { json(v: unknown): void } }, _next: unknown) => {
        res.status(422).json({ mine: true, code: err.code, status: err.status, fields: err.issues?.map((i) => i.path.join('.')) });
      });
      const res = await ask(app, 'POST', '/items', JSON_TYPE, '{"price":-1}');
      assert.equal(res.status, 422);
      assert.deepEqual(res.json, { mine: true, code: 'TRESTLE_ERR_VALIDATION_FAILED', status: 400, fields: ['price'] });
    });
  });
}

describe('trestle.validate: more', () => {
  test('an asynchronous schema (a promise from ~standard.validate) is awaited, valid and invalid', async () => {
    const app = trestle();
    app.use(trestle.json());
    const slowName = z.object({ name: z.string().refine(async (n) => n !== 'taken', 'name is taken') });
    app.post('/u', trestle.validate({ body: slowName }), (req, res) => res.json(req.body));
    assert.equal((await ask(app, 'POST', '/u', JSON_TYPE, '{"name":"free"}')).status, 200);
    const bad = await ask(app, 'POST', '/u', JSON_TYPE, '{"name":"taken"}');
    assert.equal(bad.status, 400);
    assert.deepEqual((bad.json as { issues: unknown[] }).issues, [{ in: 'body', path: ['name'], message: 'name is taken' }]);
  });

  test('a schema that throws passes its error on (500), not a 400', async () => {
    const app = trestle();
    const throwing = { '~standard': { version: 1 as const, vendor: 'test', validate: () => { throw new Error('schema broke'); } } };
    app.set('env', 'test');
    app.get('/t', trestle.validate({ query: throwing }), (_req, res) => res.send('never'));
    const res = await ask(app, 'GET', '/t');
    assert.equal(res.status, 500);
    assert.match(res.body, /schema broke/);
  });

  test('a later handler of the route sees the validated query, and the next request its own', async () => {
    const app = trestle();
    app.get('/q', trestle.validate({ query: z.object({ n: z.coerce.number() }) }), (req, _res, next) => next(), (req, res) => res.json({ n: req.query.n, type: typeof req.query.n }));
    assert.deepEqual((await ask(app, 'GET', '/q?n=5')).json, { n: 5, type: 'number' });
    assert.deepEqual((await ask(app, 'GET', '/q?n=6')).json, { n: 6, type: 'number' });
  });

  test('validate() refuses what is not a Standard Schema and parts it does not know, when the app is built', () => {
    assert.throws(() => trestle.validate({ body: { parse() {} } } as never), { code: 'TRESTLE_ERR_INVALID_ARG_TYPE', message: /body is not a Standard Schema/ });
    assert.throws(() => trestle.validate({ cookies: z.object({}) } as never), { code: 'TRESTLE_ERR_INVALID_ARG_VALUE', message: /unknown part "cookies"/ });
  });

  test('a route without validate() is unchanged: no req.validated, req.query as parsed', async () => {
    const app = trestle();
    app.get('/plain', (req, res) => res.json({ validated: 'validated' in req, query: req.query }));
    assert.deepEqual((await ask(app, 'GET', '/plain?a=1')).json, { validated: false, query: { a: '1' } });
  });
});
