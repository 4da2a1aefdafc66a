// express-openapi-validator beside trestle.validate: the document
// trestle.openapi() writes is the apiSpec express-openapi-validator checks
// requests against, on a trestle app, over HTTP (docs/routes.md, "Beside
// express-openapi-validator").
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import * as OpenApiValidator from 'express-openapi-validator';
import trestle from 'trestle';
import * as z from 'zod';
import { rawRequest, serve } from '../helpers';

const Note = z.object({ text: z.string().min(1), pinned: z.boolean().optional() });

function addRoutes(app: trestle.Application): void {
  app.post('/notes', trestle.describe({ summary: 'Add a note', responses: { 201: { description: 'Added', schema: Note } } }), trestle.validate({ body: Note }), (req, res) => {
    res.status(201).json(req.body);
  });
  app.get('/notes/:id', trestle.validate({ params: z.object({ id: z.coerce.number().int() }) }), (req, res) => {
    res.json({ id: req.params.id, text: 'x' });
  });
}

describe('express-openapi-validator with the document trestle.openapi() writes', () => {
  test('validates requests on a trestle app; what it lets through reaches trestle.validate and the handler', async () => {
    const described = trestle();
    addRoutes(described);
    const apiSpec = trestle.openapi(described, { info: { title: 'Notes', version: '1.0.0' } });

    const app = trestle();
    app.use(trestle.json());
    app.use(OpenApiValidator.middleware({ apiSpec: structuredClone(apiSpec) as never, validateRequests: true, validateResponses: false }));
    addRoutes(app);
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
