import { METHODS } from 'node:http';

/** Every method the runtime knows, lower-cased: one `app.VERB` / `route.VERB` each. */
export const methods: readonly string[] = METHODS.map((m) => m.toLowerCase());

/** Flattens nested arrays of handlers, as `app.get(path, [a, [b]], c)` allows. */
export function flatten<T>(args: ReadonlyArray<T | readonly unknown[]>): T[] {
  const out: T[] = [];
  for (const a of args) {
    if (Array.isArray(a)) out.push(...flatten<T>(a as ReadonlyArray<T | readonly unknown[]>));
    else out.push(a as T);
  }
  return out;
}
