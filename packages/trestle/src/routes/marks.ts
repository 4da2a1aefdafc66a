// How the route table recognises trestle.validate() and trestle.describe()
// among a route's handlers: a symbol on the middleware function. Symbol.for,
// so the marks of one copy of trestle are read by another (an app built with
// `trestle/v4` described by a tool that requires `trestle`).
import type { RouteDescription, ValidateSchemas } from '../types/validate';

export const kValidate = Symbol.for('trestle.validate');
export const kDescribe = Symbol.for('trestle.describe');

interface Marked {
  [kValidate]?: ValidateSchemas;
  [kDescribe]?: RouteDescription;
}

/** Marks `fn` with what it holds (not enumerable: the function stays as it was for code that lists its keys). */
export function mark(fn: object, key: typeof kValidate | typeof kDescribe, value: object): void {
  Object.defineProperty(fn, key, { value, enumerable: false });
}

export function schemasOf(fn: unknown): ValidateSchemas | undefined {
  return typeof fn === 'function' ? (fn as Marked)[kValidate] : undefined;
}

export function descriptionOf(fn: unknown): RouteDescription | undefined {
  return typeof fn === 'function' ? (fn as Marked)[kDescribe] : undefined;
}
