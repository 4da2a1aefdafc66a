// The Connect middleware Express 3 bundled (`express.cookieParser()`,
// `express.session()`, ...). Connect 2 itself had become a set of shims over
// the packages that replaced them; trestle/legacy does the same, loading the
// package from the app's own dependencies when the middleware is asked for,
// and failing at that call, naming the package to install, when the app
// does not have it. Nothing is loaded before an app calls one.
import { dirname } from 'node:path';
import { createError } from '../../errors';

type Middleware = (...args: never[]) => unknown;
type Factory = (...args: unknown[]) => (...args: unknown[]) => unknown;

/** Requires `name` as the app would: from the main module's directory, else the working directory. */
function requireFromApp(name: string, member: string): Factory {
  const paths = [process.cwd()];
  if (require.main?.filename) paths.unshift(dirname(require.main.filename));
  let resolved: string;
  try {
    resolved = require.resolve(name, { paths });
  } catch {
    throw createError(
      Error,
      'TRESTLE_ERR_MIDDLEWARE_NOT_INSTALLED',
      `trestle.${member}() is served by the "${name}" package, which Express 3's ${member} became: install it (npm install ${name})`,
    );
  }
  return require(resolved) as Factory;
}

/** connect's session defaults: a session is saved on every request, and created for every visitor. */
function session(make: Factory, options?: Record<string, unknown>): Middleware {
  return make({ resave: true, saveUninitialized: true, ...options });
}

/**
 * Express 3's `methodOverride(key)`: the body's `_method` field (removed from
 * the body), else the `X-HTTP-Method-Override` header, for any method.
 */
function methodOverride(make: Factory, key?: string): Middleware {
  const prop = key || '_method';
  const opts = { methods: null };
  const fromHeader = make('X-HTTP-Method-Override', opts);
  const fromBody = make((req: { body?: Record<string, unknown> }) => {
    const body = req.body;
    if (body && typeof body === 'object' && prop in body) {
      const method = body[prop];
      delete body[prop];
      return method;
    }
    return undefined;
  }, opts);
  return function methodOverride(req: unknown, res: unknown, next: (err?: unknown) => void) {
    fromBody(req, res, (err?: unknown) => {
      if (err) return next(err);
      fromHeader(req, res, next);
    });
  };
}

interface Bundled {
  /** The package that replaced it. */
  pkg: string;
  /** How Connect 2 called it, when not with the arguments as given. */
  call?: (make: Factory, ...args: never[]) => Middleware;
  /** Members Express 3 apps read from it (`express.session.MemoryStore`). */
  members?: string[];
}

const BUNDLED: Record<string, Bundled> = {
  basicAuth: { pkg: 'basic-auth-connect' },
  compress: { pkg: 'compression' },
  cookieParser: { pkg: 'cookie-parser' },
  cookieSession: { pkg: 'cookie-session' },
  csrf: { pkg: 'csurf' },
  directory: { pkg: 'serve-index' },
  errorHandler: { pkg: 'errorhandler' },
  favicon: { pkg: 'serve-favicon' },
  methodOverride: { pkg: 'method-override', call: methodOverride },
  responseTime: { pkg: 'response-time' },
  session: { pkg: 'express-session', call: session, members: ['Cookie', 'MemoryStore', 'Session', 'Store'] },
  timeout: { pkg: 'connect-timeout' },
  vhost: { pkg: 'vhost' },
};

function bundledMiddleware(member: string, spec: Bundled): Middleware {
  const fn = function (...args: unknown[]) {
    const make = requireFromApp(spec.pkg, member);
    return spec.call ? spec.call(make, ...(args as never[])) : make(...args);
  };
  Object.defineProperty(fn, 'name', { value: member });
  for (const name of spec.members ?? []) {
    Object.defineProperty(fn, name, {
      configurable: true,
      enumerable: true,
      get: () => (requireFromApp(spec.pkg, member) as unknown as Record<string, unknown>)[name],
    });
  }
  return fn;
}

/** The factory members, one per bundled middleware. */
export const bundledFactory: PropertyDescriptorMap = Object.fromEntries(
  Object.keys(BUNDLED).map((member) => [member, { configurable: true, enumerable: true, writable: true, value: bundledMiddleware(member, BUNDLED[member]!) }]),
);
