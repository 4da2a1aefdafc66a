import { METHODS } from 'node:http';

/** Every method the runtime knows, lower-cased: one `app.VERB` / `route.VERB` each. */
export const methods: readonly string[] = METHODS.map((m) => m.toLowerCase());

const LOWER: Record<string, string> = Object.create(null) as Record<string, string>;
for (const m of METHODS) LOWER[m] = m.toLowerCase();

/**
 * `method.toLowerCase()` without a new string per request for the methods
 * node knows (its parser hands them over upper-cased).
 */
export function methodKey(method: string | undefined): string | undefined {
  if (typeof method !== 'string') return method;
  return LOWER[method] ?? method.toLowerCase();
}

/** Flattens nested arrays of handlers, as `app.get(path, [a, [b]], c)` allows. */
export function flatten<T>(args: ReadonlyArray<T | readonly unknown[]>): T[] {
  const out: T[] = [];
  for (const a of args) {
    if (Array.isArray(a)) out.push(...flatten<T>(a as ReadonlyArray<T | readonly unknown[]>));
    else out.push(a as T);
  }
  return out;
}
