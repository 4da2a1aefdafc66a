// How strict the types are where no type argument says more. By default they
// follow `@types/express` (`req.body` is `any`), so an app typed against it
// compiles unchanged; an app opts into the stricter form with one
// declaration, read here through the global `Trestle.TypeOptions` interface
// (global, so it works whatever name the package is imported under, such as
// `express` under the alias).

/**
 * Switches for trestle's types, set by declaration merging. Empty by default;
 * an app that wants `unknown` where `@types/express` has `any` declares:
 *
 * ```ts
 * declare global {
 *   namespace Trestle {
 *     interface TypeOptions { strict: true }
 *   }
 * }
 * ```
 */
declare global {
  // eslint-disable-next-line @typescript-eslint/no-namespace
  namespace Trestle {
    // eslint-disable-next-line @typescript-eslint/no-empty-object-type
    interface TypeOptions {}
  }
}

/** Whether the app declared `Trestle.TypeOptions { strict: true }`. */
export type StrictTypes = Trestle.TypeOptions extends { strict: true } ? true : false;

/**
 * What a value is when no type argument says: `req.body`, the `ResBody` of
 * `res.json()`, an error handler's `err`, a `res.locals` entry. `any`, as
 * `@types/express` has it; `unknown` under `Trestle.TypeOptions { strict: true }`.
 */
// eslint-disable-next-line @typescript-eslint/no-explicit-any
export type Untyped = StrictTypes extends true ? unknown : any;

/** `res.locals` and `app.locals` when no type argument says: `Record<string, any>`, as `@types/express` has it (`Record<string, unknown>` when strict). */
export type DefaultLocals = Record<string, Untyped>;

/** `req.cookies` and `req.signedCookies`: `any`, as `@types/express` has them; when strict, what a cookie parser fills in, or `undefined` before one ran. */
export type CookieJar<V> = StrictTypes extends true ? Record<string, V> | undefined : Untyped;
