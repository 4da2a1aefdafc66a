// `trestle.validate({ params, query, body, headers })` and
// `trestle.describe({ summary, tags, responses })`: the schemas a route
// checks its input with (any library implementing Standard Schema), and what
// its handlers after them see.
import type * as http from 'node:http';
import type { Generation, LocalsRecord, RequestOf, ResponseOf } from './generation';
import type { HandlerResult, NextFunction } from './handlers';
import type { ParsedQs } from './params';

/** A step of an issue's path given as an object (valibot does). */
export interface StandardPathSegment {
  /** The key of the step. */
  readonly key: PropertyKey;
}

/** One problem a schema found: what it says, and where (keys from the part's root). */
export interface StandardIssue {
  /** The library's message. */
  readonly message: string;
  /** The keys down to the value in question; a library may give each as `{ key }`. */
  readonly path?: ReadonlyArray<PropertyKey | StandardPathSegment> | undefined;
}

/** A value a schema accepted. */
export interface StandardSuccess<Output> {
  /** The value, as the schema gives it back (coerced, defaults filled in). */
  readonly value: Output;
  /** None. */
  readonly issues?: undefined;
}

/** A value a schema refused. */
export interface StandardFailure {
  /** The problems. */
  readonly issues: ReadonlyArray<StandardIssue>;
}

/** What a Standard Schema's `validate` returns: the (coerced) value, or the problems. */
export type StandardResult<Output> = StandardSuccess<Output> | StandardFailure;

/** The types a Standard Schema declares (at the type level only). */
export interface StandardTypes<Input, Output> {
  /** What it takes. */
  readonly input: Input;
  /** What it gives back. */
  readonly output: Output;
}

/**
 * A schema of any library implementing Standard Schema v1 (standardschema.dev):
 * zod (3.24 and later), valibot (1.0 and later), arktype (2.0 and later), and others.
 */
export interface StandardSchema<Input = unknown, Output = Input> {
  /** The Standard Schema interface the library gives its schemas. */
  readonly '~standard': {
    /** The version of the interface: 1. */
    readonly version: 1;
    /** The library's name. */
    readonly vendor: string;
    /** Checks a value; may answer with a promise. */
    readonly validate: (value: unknown) => StandardResult<Output> | Promise<StandardResult<Output>>;
    /** The input and output types (at the type level only). */
    readonly types?: StandardTypes<Input, Output> | undefined;
  };
}

/** The schemas `trestle.validate()` checks a request with, one per part; each is optional. */
export interface ValidateSchemas {
  /** The route parameters (`req.params`), as strings by name. */
  params?: StandardSchema;
  /** The query (`req.query`), as the query parser gave it. */
  query?: StandardSchema;
  /** The body (`req.body`), as a body parser gave it. */
  body?: StandardSchema;
  /** The request headers (`req.headers`), by lower-case name. */
  headers?: StandardSchema;
}

/** The output type of schema `S`, or `Fallback` when `S` is not one. */
export type SchemaOutput<S, Fallback = unknown> = S extends StandardSchema<unknown, infer O> ? O : Fallback;

/** The output of the schema of `Part` in `S`, or `Fallback` when `S` has none. */
export type PartOutput<S, Part extends keyof ValidateSchemas, Fallback> = S extends { readonly [K in Part]: infer PS } ? SchemaOutput<PS, Fallback> : Fallback;

/** `req.validated`: the validated (and coerced) value of each part a schema was given for. */
export type ValidatedParts<S> = { [K in keyof S & keyof ValidateSchemas]: SchemaOutput<S[K]> };

/** What `trestle.validate(schemas)` returns: a middleware that holds its schemas (read by `trestle.routes` and `trestle.openapi`). */
export interface ValidateMiddleware<S extends ValidateSchemas = ValidateSchemas> {
  (req: http.IncomingMessage, res: http.ServerResponse, next: NextFunction): void;
  /** The schemas it was given. */
  readonly schemas: S;
}

/** The options of `trestle.validate(schemas, options)`. */
export interface ValidateOptions {
  /** Metadata for the OpenAPI document (as `trestle.describe()` takes it), kept with the schemas. */
  describe?: RouteDescription;
}

/**
 * A handler after `trestle.validate(schemas)` on the same route: `req.params`,
 * `req.query` and `req.body` have the schemas' output types (the path's and
 * the defaults where no schema was given), and `req.validated` every part.
 */
export interface ValidatedHandler<P, S extends ValidateSchemas, L extends LocalsRecord = LocalsRecord, G extends Generation = 'v5'> {
  (
    req: RequestOf<G, PartOutput<S, 'params', P>, unknown, PartOutput<S, 'body', RequestOf<G>['body']>, PartOutput<S, 'query', ParsedQs>, L> & { validated: ValidatedParts<S> },
    res: ResponseOf<G, unknown, L>,
    next: NextFunction,
  ): HandlerResult;
}

/** A response the OpenAPI document lists for a route, by status. */
export interface ResponseDescription {
  /** What the answer means. */
  description: string;
  /** The body's schema (a Standard Schema with JSON Schema output, or JSON Schema itself); sent as `application/json` unless `contentType` says otherwise. */
  schema?: unknown;
  /** The body's media type; `application/json` by default. */
  contentType?: string;
}

/** What `trestle.describe()` says of a route, for its OpenAPI operation. */
export interface RouteDescription {
  /** A one-line summary. */
  summary?: string;
  /** A longer description; CommonMark. */
  description?: string;
  /** Tags that group operations. */
  tags?: string[];
  /** A unique id for the operation (`getUser`). */
  operationId?: string;
  /** Whether the operation is deprecated. */
  deprecated?: boolean;
  /** The answers, by status code (`200`, `'404'`, `'default'`). */
  responses?: Record<string | number, ResponseDescription>;
  /** Leave the route out of the document. */
  hidden?: boolean;
  /** Other members copied into the operation as they are (`security`, `x-*`). */
  extra?: Record<string, unknown>;
}

/** What `trestle.describe(description)` returns: a middleware that passes every request on and holds the description. */
export interface DescribeMiddleware {
  (req: http.IncomingMessage, res: http.ServerResponse, next: NextFunction): void;
  /** The description it was given. */
  readonly description: RouteDescription;
}

/** One problem of an invalid request, as the 400 answer lists it. */
export interface ValidationIssue {
  /** The part of the request: `params`, `query`, `body` or `headers`. */
  in: keyof ValidateSchemas;
  /** The keys from the part's root down to the field (`['items', 0, 'name']`); empty for the part itself. */
  path: Array<string | number>;
  /** The schema library's message. */
  message: string;
}
