// trestle.openapi(app): the document of each entry's app, checked by a real
// OpenAPI 3.1 validator (@readme/openapi-parser) after it went over HTTP,
// with schemas from zod, valibot and arktype; and examples/openapi.js
// serving it with swagger-ui-express.
import assert from 'node:assert/strict';
import { join } from 'node:path';
import { describe, test } from 'node:test';
import { validate as validateDocument } from '@readme/openapi-parser';
import { toJsonSchema } from '@valibot/to-json-schema';
import trestle from 'trestle';
import trestleLegacy from 'trestle/legacy';
import trestleV4 from 'trestle/v4';
import * as v from 'valibot';
import * as z from 'zod';
import { rawRequest, serve } from '../helpers';

const arktype = import('arktype');
const INFO = { title: 'Test API', version: '1.2.3' };

type Doc = trestle.OpenApiDocument;
type Operation = { summary?: string; tags?: string[]; parameters?: Array<{ name: string; in: string; required: boolean; schema: Record<string, unknown> }>; requestBody?: { content: Record<string, { schema: Record<string, unknown> }> }; responses: Record<string, { description: string; content?: Record<string, { schema: Record<string, unknown> }> }> };

/** GETs the document an app serves, as a client would, and has the validator read it. */
async function served(app: unknown, path = '/openapi.json'): Promise<Doc> {
  const server = await serve(app as never);
  try {
    const res = await rawRequest(server.port, 'GET', path);
    assert.equal(res.status, 200, `GET ${path}: ${res.status}`);
    const doc = JSON.parse(res.body) as Doc;
    const result = await validateDocument(structuredClone(doc) as never);
    assert.ok(result.valid, `the document is not valid OpenAPI: ${JSON.stringify(result)}`);
    return doc;
  } finally {
    await server.close();
  }
}

function op(doc: Doc, path: string, method: string): Operation {
  const found = doc.paths[path]?.[method] as Operation | undefined;
  assert.ok(found, `no ${method} ${path} in ${Object.keys(doc.paths).join(', ')}`);
  return found;
}

describe('trestle.openapi (v5)', () => {
  async function build() {
    const { type } = await arktype;
    const app = trestle();
    app.use(trestle.json());
    const users = trestle.Router();
    users.use(trestle.describe({ tags: ['users'] }));
    users.get('/', trestle.describe({ summary: 'List users', responses: { 200: { description: 'The users', schema: z.array(z.object({ id: z.number(), name: z.string() })) } } }), trestle.validate({ query: z.object({ limit: z.coerce.number().int().max(100), q: z.string().optional() }) }), (_req, res) => res.json([]));
    users.post('/', trestle.validate({ body: z.object({ name: z.string(), email: z.email() }) }), (req, res) => res.status(201).json(req.body));
    users.get('/:id', trestle.validate({ params: z.object({ id: z.coerce.number().int() }), headers: z.object({ 'x-tenant': z.string() }) }), (_req, res) => res.json({}));
    app.use('/api/users', users);
    app.put('/items{/:page}', trestle.validate({ body: v.object({ title: v.string() }) }), (_req, res) => res.end());
    app.patch('/files/*path', trestle.validate({ body: type({ mode: "'r' | 'w'" }) }), (_req, res) => res.end());
    app.get(/^\/legacy\/(\d+)$/, (_req, res) => res.end());
    app.propfind('/dav', (_req, res) => res.end());
    app.get('/internal', trestle.describe({ hidden: true }), (_req, res) => res.end());
    app.get('/openapi.json', (_req, res) => res.json(trestle.openapi(app, { info: INFO, jsonSchema: (schema) => toJsonSchema(schema as never) as Record<string, unknown>, exclude: (r) => r.path === '/openapi.json' })));
    return app;
  }

  test('a valid OpenAPI 3.1 document of every route OpenAPI can express, with the regexp and method it cannot listed apart', async () => {
    const doc = await served(await build());
    assert.equal(doc.openapi, '3.1.0');
    assert.deepEqual(doc.info, INFO);
    assert.deepEqual(Object.keys(doc.paths), ['/api/users', '/api/users/{id}', '/items', '/items/{page}', '/files/{path}']);
    assert.deepEqual(Object.keys(doc.paths['/api/users']!), ['get', 'post']);
    const unlisted = doc['x-trestle-unlisted']!;
    assert.deepEqual(unlisted.map((u) => [u.methods.join(), u.path]), [['GET', '/^\\/legacy\\/(\\d+)$/'], ['PROPFIND', '/dav']]);
    assert.match(unlisted[0]!.reason, /regular expression/);
    assert.ok(!JSON.stringify(doc).includes('/internal'), 'a hidden route is in the document');
  });

  test('parameters, request bodies and responses come from the schemas (zod, valibot through jsonSchema, arktype) and describe()', async () => {
    const doc = await served(await build());
    const list = op(doc, '/api/users', 'get');
    assert.equal(list.summary, 'List users');
    assert.deepEqual(list.tags, ['users']);
    assert.deepEqual(list.parameters!.map((p) => [p.name, p.in, p.required, p.schema.type]), [['limit', 'query', true, 'integer'], ['q', 'query', false, 'string']]);
    assert.equal(list.responses['200']!.content!['application/json']!.schema.type, 'array');
    assert.equal(list.responses['400']!.description.length > 0, true);
    const create = op(doc, '/api/users', 'post');
    assert.deepEqual(create.tags, ['users']);
    const body = create.requestBody!.content['application/json']!.schema as { properties: Record<string, { format?: string }>; required: string[] };
    assert.deepEqual(body.required, ['name', 'email']);
    assert.equal(body.properties.email!.format, 'email');
    const one = op(doc, '/api/users/{id}', 'get');
    assert.deepEqual(one.parameters!.map((p) => [p.name, p.in, p.required, p.schema.type]), [['id', 'path', true, 'integer'], ['x-tenant', 'header', true, 'string']]);
    // valibot, through the jsonSchema option; both forms of the optional part.
    for (const path of ['/items', '/items/{page}']) {
      assert.deepEqual((op(doc, path, 'put').requestBody!.content['application/json']!.schema as { required: string[] }).required, ['title']);
    }
    assert.deepEqual(op(doc, '/items/{page}', 'put').parameters!.map((p) => p.name), ['page']);
    // arktype, through Standard JSON Schema; the wildcard is a parameter that may hold '/'.
    const files = op(doc, '/files/{path}', 'patch');
    assert.deepEqual((files.requestBody!.content['application/json']!.schema as { properties: { mode: unknown } }).properties.mode, { enum: ['r', 'w'] });
    assert.match(String((files.parameters![0] as { description?: string }).description), /'\/'/);
  });

  test("validate(schemas, { describe }), a router's validate() for the routes after it, plain JSON Schema responses, extra and exclude", async () => {
    const app = trestle();
    const admin = trestle.Router();
    admin.get('/open', (_req, res) => res.end());
    admin.use(trestle.validate({ headers: z.object({ 'x-admin-token': z.string() }) }));
    admin.get(
      '/stats',
      trestle.validate({ query: z.object({ day: z.string() }) }, { describe: { operationId: 'getStats', deprecated: true, responses: { 200: { description: 'Stats', schema: { type: 'object', properties: { hits: { type: 'integer' } } } } }, extra: { 'x-owner': 'ops' } } }),
      (_req, res) => res.json({ hits: 1 }),
    );
    app.use('/admin', admin);
    app.get('/skip', (_req, res) => res.end());
    app.get('/openapi.json', (_req, res) => res.json(trestle.openapi(app, { info: INFO, servers: [{ url: 'https://api.example.com' }], extra: { tags: [{ name: 'ops' }] }, exclude: (r) => r.path === '/skip' })));
    const doc = await served(app);
    assert.deepEqual(Object.keys(doc.paths), ['/admin/open', '/admin/stats', '/openapi.json']);
    assert.deepEqual(doc.servers, [{ url: 'https://api.example.com' }]);
    assert.deepEqual(doc.tags, [{ name: 'ops' }]);
    // The router's header check applies to /stats (after it), not to /open (before it).
    assert.equal(op(doc, '/admin/open', 'get').parameters, undefined);
    const stats = op(doc, '/admin/stats', 'get') as Operation & { operationId?: string; deprecated?: boolean; 'x-owner'?: string };
    assert.deepEqual(stats.parameters!.map((p) => [p.name, p.in]), [['day', 'query'], ['x-admin-token', 'header']]);
    assert.equal(stats.operationId, 'getStats');
    assert.equal(stats.deprecated, true);
    assert.equal(stats['x-owner'], 'ops');
    assert.deepEqual(stats.responses['200']!.content!['application/json']!.schema, { type: 'object', properties: { hits: { type: 'integer' } } });
    // And the router's validate() really runs for /stats.
    const server = await serve(app as never);
    try {
      assert.equal((await rawRequest(server.port, 'GET', '/admin/stats?day=mon')).status, 400);
      assert.equal((await rawRequest(server.port, 'GET', '/admin/stats?day=mon', { 'x-admin-token': 't' })).status, 200);
      assert.equal((await rawRequest(server.port, 'GET', '/admin/open')).status, 200);
    } finally {
      await server.close();
    }
  });

  test('openapi() wants info with a title and a version', () => {
    assert.throws(() => trestle.openapi(trestle(), {} as never), { code: 'TRESTLE_ERR_INVALID_ARG_TYPE' });
  });
});

describe('trestle.openapi (v4 and legacy)', () => {
  test("v4: ':id?' is two paths, '*' a numbered parameter, raw regular-expression source unlisted; the document is valid", async () => {
    const app = trestleV4();
    app.get('/items/:id?', trestleV4.validate({ query: z.object({ full: z.enum(['yes', 'no']).optional() }) }), (_req, res) => res.end());
    app.get('/files/*', (_req, res) => res.end());
    app.get('/ab?cd', (_req, res) => res.end());
    app.get('/openapi.json', (_req, res) => res.json(trestleV4.openapi(app, { info: INFO })));
    const doc = await served(app);
    assert.deepEqual(Object.keys(doc.paths), ['/items', '/items/{id}', '/files/{0}', '/openapi.json']);
    assert.deepEqual(op(doc, '/items/{id}', 'get').parameters!.map((p) => [p.name, p.in]), [['id', 'path'], ['full', 'query']]);
    assert.deepEqual(doc['x-trestle-unlisted']!.map((u) => u.path), ['/ab?cd']);
  });

  test("legacy: the routes of Express 3's table, validated, in a valid document", async () => {
    const app = trestleLegacy();
    app.use(trestleLegacy.json());
    app.post('/notes', trestleLegacy.describe({ summary: 'Add a note' }), trestleLegacy.validate({ body: z.object({ text: z.string() }) }), (_req, res) => res.end());
    app.get('/notes/:id', (_req, res) => res.end());
    app.get('/openapi.json', (_req, res) => res.json(trestleLegacy.openapi(app, { info: INFO })));
    const doc = await served(app);
    assert.deepEqual(Object.keys(doc.paths), ['/notes', '/notes/{id}', '/openapi.json']);
    assert.equal(op(doc, '/notes', 'post').summary, 'Add a note');
    assert.deepEqual(op(doc, '/notes/{id}', 'get').parameters!.map((p) => p.name), ['id']);
  });
});

describe('examples/openapi.js', () => {
  const createApp = require(join(__dirname, '..', '..', '..', '..', 'examples', 'openapi.js')) as () => unknown;

  test('serves a valid document of its routes, and Swagger UI over it', async () => {
    const app = createApp();
    const doc = await served(app);
    assert.deepEqual(Object.keys(doc.paths), ['/api/books', '/api/books/{id}']);
    const server = await serve(app as never);
    try {
      const page = await rawRequest(server.port, 'GET', '/docs/');
      assert.equal(page.status, 200);
      assert.match(page.body, /swagger-ui/);
      const init = await rawRequest(server.port, 'GET', '/docs/swagger-ui-init.js');
      assert.equal(init.status, 200);
      assert.match(init.body, /"\/api\/books\/\{id\}"/);
    } finally {
      await server.close();
    }
  });

  test('its routes validate what they document', async () => {
    const server = await serve(createApp() as never);
    try {
      const added = await rawRequest(server.port, 'POST', '/api/books', { 'content-type': 'application/json' }, JSON.stringify({ title: 'Solaris', year: 1961 }));
      assert.equal(added.status, 201, added.body);
      const bad = await rawRequest(server.port, 'POST', '/api/books', { 'content-type': 'application/json' }, JSON.stringify({ year: 'soon' }));
      assert.equal(bad.status, 400);
      assert.deepEqual((JSON.parse(bad.body) as { issues: Array<{ path: string[] }> }).issues.map((i) => i.path.join('.')), ['title', 'year']);
      assert.equal((await rawRequest(server.port, 'GET', '/api/books?limit=1')).body, JSON.stringify([{ id: 1, title: 'The Left Hand of Darkness', year: 1969 }]));
      assert.equal((await rawRequest(server.port, 'GET', '/api/books/2')).status, 200);
    } finally {
      await server.close();
    }
  });
});
