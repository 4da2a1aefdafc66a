// trestle.validate({ params, query, body, headers }): a middleware that
// checks each part of the request with a Standard Schema (zod, valibot,
// arktype, ...), hands the validated (and coerced) values on, and passes an
// invalid request to next(err) as a 400 that lists every problem.
import type { IncomingMessage, ServerResponse } from 'node:http';
import { createError, createHttpError, type HttpError, kErrorAnswer } from '../errors';
import type { StandardIssue, StandardResult, StandardSchema, ValidateMiddleware, ValidateOptions, ValidateSchemas, ValidationIssue } from '../types/validate';
import { kDescribe, kValidate, mark } from './marks';

type Part = keyof ValidateSchemas;
type Next = (err?: unknown) => void;
type Result = StandardResult<unknown>;

/** The parts in the order they are checked and their problems listed. */
const PARTS: readonly Part[] = ['params', 'query', 'headers', 'body'];

interface ValidatedRequest extends IncomingMessage {
  params?: unknown;
  query?: unknown;
  body?: unknown;
  validated?: Record<string, unknown>;
}

function isStandardSchema(value: unknown): value is StandardSchema {
  const std = (value as { '~standard'?: { validate?: unknown } } | null | undefined)?.['~standard'];
  return typeof std === 'object' && std !== null && typeof std.validate === 'function';
}

function isPromise(value: unknown): value is Promise<Result> {
  return typeof (value as { then?: unknown } | null)?.then === 'function';
}

/** An issue's path as keys: libraries give keys, or `{ key }` objects (valibot). */
function keysOf(path: StandardIssue['path']): Array<string | number> {
  return (path ?? []).map((segment) => {
    const key = typeof segment === 'object' && segment !== null ? segment.key : segment;
    return typeof key === 'number' ? key : String(key);
  });
}

function where(issue: ValidationIssue): string {
  return [issue.in, ...issue.path].join('.');
}

/** The 400 for a request with problems; its default answer is the JSON list (docs/routes.md). */
export function validationError(issues: ValidationIssue[]): HttpError {
  const first = issues[0]!;
  const more = issues.length > 1 ? ` (and ${issues.length - 1} more)` : '';
  const err = createHttpError(400, 'TRESTLE_ERR_VALIDATION_FAILED', `Invalid request: ${where(first)}: ${first.message}${more}`, { issues });
  const body = JSON.stringify({ error: 'Bad Request', code: 'TRESTLE_ERR_VALIDATION_FAILED', message: err.message, issues });
  Object.defineProperty(err, kErrorAnswer, { value: { type: 'application/json; charset=utf-8', body } });
  return err;
}

function read(req: ValidatedRequest, part: Part): unknown {
  if (part === 'headers') return req.headers;
  return req[part];
}

/**
 * The validated values go where handlers read them: `req.params`,
 * `req.query` (an own property of the request from here on, which trestle's
 * `req.query` allows), `req.body`; headers stay as they came (node and
 * middleware read them) and the validated ones are in `req.validated.headers`.
 */
function store(req: ValidatedRequest, parts: readonly Part[], results: Result[]): void {
  const validated: Record<string, unknown> = req.validated === undefined ? {} : { ...req.validated };
  for (let i = 0; i < parts.length; i++) {
    const part = parts[i]!;
    const value = (results[i] as { value: unknown }).value;
    validated[part] = value;
    if (part !== 'headers') req[part] = value;
  }
  req.validated = validated;
}

function problems(parts: readonly Part[], results: Result[]): ValidationIssue[] {
  const issues: ValidationIssue[] = [];
  parts.forEach((part, i) => {
    for (const issue of results[i]!.issues ?? []) issues.push({ in: part, path: keysOf(issue.path), message: issue.message });
  });
  return issues;
}

export function validate<S extends ValidateSchemas>(schemas: S, options: ValidateOptions = {}): ValidateMiddleware<S> {
  if (schemas === null || typeof schemas !== 'object') throw createError(TypeError, 'TRESTLE_ERR_INVALID_ARG_TYPE', 'validate() takes an object of schemas: { params, query, body, headers }');
  const parts = PARTS.filter((part) => schemas[part] !== undefined);
  for (const key of Object.keys(schemas)) {
    if (!PARTS.includes(key as Part)) throw createError(TypeError, 'TRESTLE_ERR_INVALID_ARG_VALUE', `validate(): unknown part "${key}" (use params, query, body or headers)`);
    if (!isStandardSchema(schemas[key as Part])) throw createError(TypeError, 'TRESTLE_ERR_INVALID_ARG_TYPE', `validate(): ${key} is not a Standard Schema (it has no ~standard.validate)`);
  }
  const checks = parts.map((part) => schemas[part]!['~standard']);

  const finish = (req: ValidatedRequest, next: Next, results: Result[]): void => {
    for (const result of results) if (result.issues !== undefined) return next(validationError(problems(parts, results)));
    store(req, parts, results);
    next();
  };

  // Plain loops, no closures per request: this runs on every request of a validated route.
  const middleware = function validate(req: ValidatedRequest, _res: ServerResponse, next: Next): void {
    const results: Array<Result | Promise<Result>> = new Array<Result>(checks.length);
    let pending = false;
    try {
      for (let i = 0; i < checks.length; i++) {
        const result = checks[i]!.validate(read(req, parts[i]!));
        if (isPromise(result)) pending = true;
        results[i] = result;
      }
    } catch (err) {
      next(err);
      return;
    }
    // Synchronous schemas answer in this tick; a library that answers with a promise costs one.
    if (!pending) finish(req, next, results as Result[]);
    else Promise.all(results).then((settled) => finish(req, next, settled), next);
  };
  mark(middleware, kValidate, schemas);
  if (options.describe !== undefined) mark(middleware, kDescribe, options.describe);
  return Object.assign(middleware, { schemas });
}
