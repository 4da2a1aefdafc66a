// The route table an app shows (`trestle.routes(app)`), and the OpenAPI
// document built from it (`trestle.openapi(app, options)`).
import type { DescribeMiddleware, RouteDescription, ValidateMiddleware, ValidateOptions, ValidateSchemas } from './validate';

/** One route of an app, as `trestle.routes(app)` lists it. */
export interface RouteInfo {
  /** The methods it answers, upper-case as registered (`GET` without the HEAD it implies); `ALL` for `app.all()`. */
  methods: string[];
  /**
   * The full path: the mount paths of the routers and apps above it, then the
   * route's own path, each as written in the generation's syntax
   * (`/api/users/:id`). A regular expression shows as `/source/flags`.
   */
  path: string;
  /** The pieces `path` is joined from, outermost first: strings as written, regular expressions as they are. */
  parts: Array<string | RegExp>;
  /** The names of the route parameters along the whole path, mount paths included; unnamed captures by index. */
  params: Array<string | number>;
  /** The names of the route's handlers, in order (`<anonymous>` for an unnamed one). */
  handlers: string[];
  /** Whether OpenAPI's path syntax can say what this path matches: not for a regular expression, nor for v4 paths holding regular-expression source. */
  openapi: boolean;
  /**
   * The path in OpenAPI's form (`/users/{id}`) when `openapi` is true: one per
   * combination of optional parts (`/items{/:page}` is `/items` and
   * `/items/{page}`); a wildcard (`*name`, v4's `*`) is a parameter whose value may hold '/'.
   */
  openapiPaths?: string[];
  /** Why OpenAPI cannot express the path, when `openapi` is false. */
  reason?: string;
  /** The generation whose syntax the path is written in. */
  syntax: 'v5' | 'v4';
  /** The schemas of the `trestle.validate()` middleware among its handlers (and the routers' above it). */
  schemas?: ValidateSchemas;
  /** What `trestle.describe()` among its handlers (and the routers' above it) says of it. */
  description?: RouteDescription;
}

/** The `info` object of an OpenAPI document. */
export interface OpenApiInfo {
  /** The API's title. */
  title: string;
  /** The version of the API (not of OpenAPI). */
  version: string;
  /** A longer description; CommonMark. */
  description?: string;
  [extension: string]: unknown;
}

/** A server of the API, as OpenAPI's `servers` lists it. */
export interface OpenApiServer {
  /** Its URL (relative to the document's, or absolute). */
  url: string;
  /** What it is. */
  description?: string;
}

/** A route the document could not hold, listed under `x-trestle-unlisted`. */
export interface UnlistedRoute {
  /** Its methods (only those OpenAPI has no operation for, when that is the reason). */
  methods: string[];
  /** Its full path, as `trestle.routes()` shows it. */
  path: string;
  /** Why OpenAPI cannot express it. */
  reason: string;
}

/** A JSON Schema, as the schema libraries write it. */
export type JsonSchema = Record<string, unknown>;

/** The options of `trestle.openapi(app, options)`. */
export interface OpenApiOptions {
  /** The document's `info`: `title` and `version` at least. */
  info: OpenApiInfo;
  /** The document's `servers` (`[{ url: 'https://api.example.com' }]`). */
  servers?: OpenApiServer[];
  /**
   * Turns a schema into JSON Schema when it does not say itself (Standard
   * JSON Schema's `~standard.jsonSchema`, zod's `toJSONSchema()`, arktype's
   * `toJsonSchema()`): valibot's `toJsonSchema` from `@valibot/to-json-schema`.
   */
  jsonSchema?: (schema: unknown, io: 'input' | 'output') => JsonSchema;
  /** Leave out a route (`(route) => route.path.startsWith('/internal')`). */
  exclude?: (route: RouteInfo) => boolean;
  /** Members copied into the document as they are (`components`, `tags`, `security`, `x-*`). */
  extra?: Record<string, unknown>;
}

/** An OpenAPI 3.1 document, as plain JSON. */
export interface OpenApiDocument {
  /** The version of OpenAPI: 3.1.0. */
  openapi: '3.1.0';
  /** The `info` given. */
  info: OpenApiInfo;
  /** The operations, by OpenAPI path then method. */
  paths: Record<string, Record<string, unknown>>;
  /** Routes OpenAPI cannot express (a regular-expression path, a method it has no operation for), with why. */
  'x-trestle-unlisted'?: UnlistedRoute[];
  /** `servers`, and what `extra` added. */
  [member: string]: unknown;
}

/** The factory's members for routes: `trestle.routes`, `validate`, `describe` and `openapi`, in every generation. */
export interface RouteTools {
  /** Every route of an app (or a router): methods, full path as written, parameters, handlers' names, whether OpenAPI can express it. */
  routes(app: object): RouteInfo[];
  /** A middleware that checks `req.params`, `req.query`, `req.body` and `req.headers` with Standard Schemas and types the handlers after it. */
  validate<S extends ValidateSchemas>(schemas: S, options?: ValidateOptions): ValidateMiddleware<S>;
  /** A middleware that passes every request on and tells the OpenAPI document what the route is (summary, tags, responses). */
  describe(description: RouteDescription): DescribeMiddleware;
  /** The OpenAPI 3.1 document of an app's routes. */
  openapi(app: object, options: OpenApiOptions): OpenApiDocument;
}
