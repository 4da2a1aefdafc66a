// The ecosystem's extension point: the global `Express` namespace.

/**
 * Middleware types add to these global interfaces (`req.user` from passport,
 * `req.session` from express-session, an app's own `req.id`), and trestle's
 * `Request`, `Response`, `Locals` and `Application` extend them, so such
 * additions appear on trestle's objects too:
 *
 * ```ts
 * declare global {
 *   namespace Express {
 *     interface Request { id: string }
 *   }
 * }
 * ```
 */
declare global {
  // eslint-disable-next-line @typescript-eslint/no-namespace
  namespace Express {
    // eslint-disable-next-line @typescript-eslint/no-empty-object-type
    interface Request {}
    // eslint-disable-next-line @typescript-eslint/no-empty-object-type
    interface Response {}
    // eslint-disable-next-line @typescript-eslint/no-empty-object-type
    interface Locals {}
    // eslint-disable-next-line @typescript-eslint/no-empty-object-type
    interface Application {}
  }
}

export {};
