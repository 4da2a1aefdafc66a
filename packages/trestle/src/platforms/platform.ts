// What the platform under the app cannot do. Only Cloudflare Workers refuses
// anything: a Worker has no disk to read files from and opens no server
// socket. The core asks here before it reaches for either, so the app hears
// a clear error naming the platform instead of an ENOENT or a runtime's
// "not implemented" from deep inside node's modules.
import { createError } from '../errors';

/** On Cloudflare Workers `navigator.userAgent` is this, as Cloudflare documents. */
export const onWorkers: boolean = (globalThis as { navigator?: { userAgent?: string } }).navigator?.userAgent === 'Cloudflare-Workers';

const WHY = {
  disk: 'a Worker has no disk to read files from (serve them as Workers static assets, or from R2 or KV)',
  listen: 'a Worker opens no server socket (export { fetch: app.fetch } as its handler)',
  views: "a Worker has no disk to find view files on (give app.set('view', ...) a class that takes templates bundled with the Worker)",
} as const;

/** Throws TRESTLE_ERR_PLATFORM_UNSUPPORTED for `what` (`res.sendFile()`) on a platform that cannot do it. */
export function refuseOnPlatform(what: string, need: keyof typeof WHY): void {
  if (onWorkers) throw createError(Error, 'TRESTLE_ERR_PLATFORM_UNSUPPORTED', `${what} is not supported on Cloudflare Workers: ${WHY[need]}`);
}

type Wrapper = (fn: (...args: unknown[]) => unknown, log: (...args: unknown[]) => void, deprecate: unknown, message: unknown, site: unknown) => unknown;

/**
 * `load()`, on Workers with depd able to wrap deprecated functions. depd
 * builds each wrapper with `new Function` (to keep the function's arity), and
 * a Worker refuses code made from strings (an EvalError); send 0.19 wraps its
 * deprecated methods so as it loads. While `load` runs there, `Function`
 * builds depd's wrapper (and only it, known by its parameters) as a closure;
 * anything else gets the real `Function`, which refuses as before.
 */
export function loadWithoutEval<T>(load: () => T): T {
  if (!onWorkers) return load();
  const global = globalThis as { Function: FunctionConstructor };
  const real = global.Function;
  global.Function = function (this: unknown, ...params: string[]): unknown {
    if (params.length === 6 && params.slice(0, 5).join() === 'fn,log,deprecate,message,site') return depdWrapper;
    return Reflect.construct(real, params);
  } as unknown as FunctionConstructor;
  try {
    return load();
  } finally {
    global.Function = real;
  }
}

/** What depd's generated code does (the wrapper, without its arity). */
const depdWrapper: Wrapper = (fn, log, deprecate, message, site) =>
  function deprecated(this: unknown, ...args: unknown[]): unknown {
    log.call(deprecate, message, site);
    return fn.apply(this, args);
  };
