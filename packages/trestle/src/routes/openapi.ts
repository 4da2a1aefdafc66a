// trestle.openapi(app, { info }): an OpenAPI 3.1 document built from the
// route table (trestle.routes) and what the routes' trestle.validate() and
// trestle.describe() hold. Schemas become JSON Schema through the schema
// library itself (Standard JSON Schema, or its own method); trestle writes no
// JSON Schema of its own.
import { createError } from '../errors';
import type { JsonSchema, OpenApiDocument, OpenApiOptions, RouteInfo } from '../types/routes';
import type { ResponseDescription, ValidateSchemas } from '../types/validate';
import { routes } from './list';
import { type OpenApiPath, translatePath } from './openapi-path';

type Io = 'input' | 'output';
type Operation = Record<string, unknown>;

/** The operations OpenAPI 3.1 has; `app.all()` is each of them. */
const OPERATIONS = ['get', 'put', 'post', 'delete', 'options', 'head', 'patch', 'trace'] as const;

/** Headers OpenAPI describes elsewhere and says to leave out of parameters. */
const IGNORED_HEADERS = new Set(['accept', 'content-type', 'authorization']);

/** The JSON body trestle.validate()'s 400 answers with, as JSON Schema. */
const VALIDATION_ERROR: JsonSchema = {
  type: 'object',
  required: ['error', 'code', 'message', 'issues'],
  properties: {
    error: { type: 'string' },
    code: { const: 'TRESTLE_ERR_VALIDATION_FAILED' },
    message: { type: 'string' },
    issues: {
      type: 'array',
      items: {
        type: 'object',
        required: ['in', 'path', 'message'],
        properties: {
          in: { enum: ['params', 'query', 'headers', 'body'] },
          path: { type: 'array', items: { type: ['string', 'integer'] } },
          message: { type: 'string' },
        },
      },
    },
  },
};

interface Convertible {
  '~standard'?: { jsonSchema?: Partial<Record<Io, (options: { target: string }) => JsonSchema>> };
  toJSONSchema?: () => JsonSchema;
  toJsonSchema?: () => JsonSchema;
}

/** A schema as JSON Schema, asked of its library; undefined when it cannot say. */
function jsonSchemaOf(schema: unknown, io: Io, options: OpenApiOptions): JsonSchema | undefined {
  const s = schema as Convertible;
  let out: JsonSchema | undefined;
  try {
    const standard = s['~standard']?.jsonSchema?.[io];
    if (typeof standard === 'function') out = standard({ target: 'draft-2020-12' });
    else if (typeof s.toJSONSchema === 'function') out = s.toJSONSchema();
    else if (typeof s.toJsonSchema === 'function') out = s.toJsonSchema();
    else if (options.jsonSchema !== undefined) out = options.jsonSchema(schema, io);
    else if (s['~standard'] === undefined && schema !== null && typeof schema === 'object') out = schema as JsonSchema;
  } catch (err) {
    // A schema the library cannot write as JSON Schema (a transform, a custom check): say so, list the route all the same.
    return { description: `no JSON Schema: ${(err as Error).message}` };
  }
  if (out === undefined) return undefined;
  const { $schema: _dialect, ...rest } = out;
  return rest;
}

function propertiesOf(schema: JsonSchema | undefined): { properties: Record<string, JsonSchema>; required: string[] } {
  const properties = (schema?.properties ?? {}) as Record<string, JsonSchema>;
  const required = Array.isArray(schema?.required) ? (schema.required as string[]) : [];
  return { properties, required };
}

function parameters(path: OpenApiPath, schemas: ValidateSchemas | undefined, options: OpenApiOptions): Operation[] {
  const out: Operation[] = [];
  const params = propertiesOf(schemas?.params && jsonSchemaOf(schemas.params, 'input', options));
  for (const p of path.params) {
    const param: Operation = { name: p.name, in: 'path', required: true, schema: params.properties[p.name] ?? { type: 'string' } };
    if (p.wildcard) param.description = "One or more path segments: the value may hold '/'.";
    out.push(param);
  }
  const lists: Array<['query' | 'header', JsonSchema | undefined]> = [
    ['query', schemas?.query && jsonSchemaOf(schemas.query, 'input', options)],
    ['header', schemas?.headers && jsonSchemaOf(schemas.headers, 'input', options)],
  ];
  for (const [where, schema] of lists) {
    const { properties, required } = propertiesOf(schema);
    for (const name of Object.keys(properties)) {
      if (where === 'header' && IGNORED_HEADERS.has(name.toLowerCase())) continue;
      out.push({ name, in: where, required: required.includes(name), schema: properties[name] });
    }
  }
  return out;
}

function responseObject(response: ResponseDescription, options: OpenApiOptions): Operation {
  const out: Operation = { description: response.description };
  if (response.schema !== undefined) {
    out.content = { [response.contentType ?? 'application/json']: { schema: jsonSchemaOf(response.schema, 'output', options) ?? {} } };
  }
  return out;
}

function operation(route: RouteInfo, path: OpenApiPath, options: OpenApiOptions): Operation {
  const d = route.description ?? {};
  const op: Operation = {};
  for (const key of ['summary', 'description', 'operationId', 'tags', 'deprecated'] as const) if (d[key] !== undefined) op[key] = d[key];
  const params = parameters(path, route.schemas, options);
  if (params.length !== 0) op.parameters = params;
  if (route.schemas?.body !== undefined) {
    op.requestBody = { required: true, content: { 'application/json': { schema: jsonSchemaOf(route.schemas.body, 'input', options) ?? {} } } };
  }
  const responses: Record<string, Operation> = {};
  for (const [status, response] of Object.entries(d.responses ?? {})) responses[status] = responseObject(response, options);
  if (route.schemas !== undefined && responses['400'] === undefined) {
    responses['400'] = { description: 'The request is invalid: each problem with the path of its field.', content: { 'application/json': { schema: VALIDATION_ERROR } } };
  }
  if (Object.keys(responses).length === 0) responses.default = { description: 'The answer.' };
  op.responses = responses;
  return { ...op, ...d.extra };
}

/** The OpenAPI operations of a route's methods; those OpenAPI has no operation for are left with a reason. */
function operationsOf(route: RouteInfo): { ops: string[]; missing: string[] } {
  if (route.methods.includes('ALL')) return { ops: [...OPERATIONS], missing: [] };
  const ops: string[] = [];
  const missing: string[] = [];
  for (const m of route.methods) {
    const op = m.toLowerCase();
    if ((OPERATIONS as readonly string[]).includes(op)) ops.push(op);
    else missing.push(m);
  }
  return { ops, missing };
}

/**
 * The OpenAPI 3.1 document of `app`'s routes. A route OpenAPI cannot express
 * (a regular-expression path, a method OpenAPI has no operation for) is
 * listed under `x-trestle-unlisted` with the reason.
 */
export function openapi(app: unknown, options: OpenApiOptions): OpenApiDocument {
  if (options === null || typeof options !== 'object' || typeof options.info?.title !== 'string' || typeof options.info.version !== 'string') {
    throw createError(TypeError, 'TRESTLE_ERR_INVALID_ARG_TYPE', 'openapi(app, options) needs options.info with a title and a version');
  }
  const doc: OpenApiDocument = { ...options.extra, openapi: '3.1.0', info: options.info, paths: {} };
  if (options.servers !== undefined) doc.servers = options.servers;
  const unlisted: NonNullable<OpenApiDocument['x-trestle-unlisted']> = [];
  for (const route of routes(app)) {
    if (route.description?.hidden || options.exclude?.(route)) continue;
    const translation = translatePath(route.parts, route.syntax);
    if ('reason' in translation) {
      unlisted.push({ methods: route.methods, path: route.path, reason: `OpenAPI cannot express its path: ${translation.reason}` });
      continue;
    }
    const { ops, missing } = operationsOf(route);
    if (missing.length !== 0) unlisted.push({ methods: missing, path: route.path, reason: 'OpenAPI 3.1 has no operation for the method' });
    if (ops.length === 0) continue;
    for (const path of translation.paths) {
      const item = (doc.paths[path.path] ??= {});
      for (const op of ops) {
        // The first route of a method and path is the one requests reach first; a later one runs only after next().
        if (item[op] === undefined) item[op] = operation(route, path, options);
      }
    }
  }
  if (unlisted.length !== 0) doc['x-trestle-unlisted'] = unlisted;
  return doc;
}
