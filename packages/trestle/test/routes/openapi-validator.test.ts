// express-openapi-validator beside trestle.validate: the document
// trestle.openapi() writes is the apiSpec express-openapi-validator checks
// requests against, on a trestle app of each entry, over HTTP
// (docs/routes.md, "Beside express-openapi-validator").
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import * as OpenApiValidator from 'express-openapi-validator';
import trestle from 'trestle';
import trestleLegacy from 'trestle/legacy';
import trestleV4 from 'trestle/v4';
import * as z from 'zod';
import { rawRequest, serve } from '../helpers';

const Note = z.object({ text: z.string().min(1), pinned: z.boolean().optional() });

/** What the test uses of each entry; the handlers are typed with trestle's request and response. */
interface Entry {
  (): { use(...handlers: unknown[]): unknown; get(path: string, ...handlers: unknown[]): unknown; post(path: string, ...handlers: unknown[]): unknown };
  json(): unknown;
  validate: typeof trestle.validate;
  describe: typeof trestle.describe;
  openapi: typeof trestle.openapi;
}
type App = ReturnType<Entry>;
const ENTRIES: Array<[string, Entry]> = [
  ['trestle', trestle],
  ['trestle/v4', trestleV4],
  ['trestle/legacy', trestleLegacy],
];

function addRoutes(trestle: Entry, app: App): void {
  app.post('/notes', trestle.describe({ summary: 'Add a note', responses: { 201: { description: 'Added', schema: Note } } }), trestle.validate({ body: Note }), (req: trestle.Request, res: trestle.Response) => {
    res.status(201).json(req.body);
  });
  app.get('/notes/:id', trestle.validate({ params: z.object({ id: z.coerce.number().int() }) }), (req: trestle.Request, res: trestle.Response) => {
    res.json({ id: req.params.id, text: 'x' });
  });
}

describe('express-openapi-validator with the document trestle.openapi() writes', () => {
  for (const [entryName, entry] of ENTRIES) test(`${entryName}: validates requests on a trestle app; what it lets through reaches trestle.validate and the handler`, async () => {
    const described = entry();
    addRoutes(entry, described);
    const apiSpec = entry.openapi(described, { info: { title: 'Notes', version: '1.0.0' } });

    const app = entry();
    app.use(entry.json());
    app.use(OpenApiValidator.middleware({ apiSpec: structuredClone(apiSpec) as never, validateRequests: true, validateResponses: false }));
    addRoutes(entry, app);
    app.use((err: { status?: number; errors?: Array<{ path: string }>; code?: string }, _req: trestle.Request, res: trestle.Response, _next: trestle.NextFunction) => {
      res.status(err.status ?? 500).json({ by: err.code === 'TRESTLE_ERR_VALIDATION_FAILED' ? 'trestle' : 'express-openapi-validator', paths: err.errors?.map((e) => e.path) });
    });

    const server = await serve(app as never);
    try {
      const ok = await rawRequest(server.port, 'POST', '/notes', { 'content-type': 'application/json' }, '{"text":"hi","pinned":true}');
      assert.equal(ok.status, 201, ok.body);
      assert.deepEqual(JSON.parse(ok.body), { text: 'hi', pinned: true });
      const bad = await rawRequest(server.port, 'POST', '/notes', { 'content-type': 'application/json' }, '{"pinned":"yes"}');
      assert.equal(bad.status, 400, bad.body);
      assert.equal((JSON.parse(bad.body) as { by: string }).by, 'express-openapi-validator');
      const one = await rawRequest(server.port, 'GET', '/notes/12');
      assert.equal(one.status, 200, one.body);
      assert.deepEqual(JSON.parse(one.body), { id: 12, text: 'x' });
      const unknown = await rawRequest(server.port, 'GET', '/nothing');
      assert.equal(unknown.status, 404, unknown.body);
    } finally {
      await server.close();
    }
  });
});
