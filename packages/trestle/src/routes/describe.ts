// trestle.describe({ summary, tags, responses }): what a route is, for its
// OpenAPI operation. A middleware that passes every request on, so it goes
// among a route's handlers (or a router's middleware, for all its routes).
import type { IncomingMessage, ServerResponse } from 'node:http';
import { createError } from '../errors';
import type { DescribeMiddleware, RouteDescription } from '../types/validate';
import { kDescribe, mark } from './marks';

type Next = (err?: unknown) => void;

/** trestle.describe({ summary, tags, responses }): passes every request on; tells the OpenAPI document about the route. */
export function describe(description: RouteDescription): DescribeMiddleware {
  if (description === null || typeof description !== 'object') throw createError(TypeError, 'TRESTLE_ERR_INVALID_ARG_TYPE', 'describe() takes an object: { summary, description, tags, responses, ... }');
  const middleware = function describe(_req: IncomingMessage, _res: ServerResponse, next: Next): void {
    next();
  };
  mark(middleware, kDescribe, description);
  return Object.assign(middleware, { description });
}
