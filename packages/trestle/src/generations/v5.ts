// The v5 generation (Express 5): the core as it is, with the v5 path syntax.
import type { ServerResponse } from 'node:http';
import { createError } from '../errors';
import { compileV5Path } from '../router/path/v5';
import type { RouterShape } from '../router/router';
import { routerStandIn } from '../observability/orchestrion';
import type { Profile } from './profile';

/**
 * Express 5 (router 2): routers inherit `Router.prototype`, a `use('/')`
 * layer is flagged `slash`, and misuse is reported in router 2's words.
 */
const shape: RouterShape = {
  factory: 'constructor',
  boundDispatch: false,
  appLayers: [],
  standIn: routerStandIn,
  exposeLayer(layer, path, options) {
    layer.slash = path === '/' && !options.end;
  },
  useError(_fn, missing) {
    return createError(TypeError, 'TRESTLE_ERR_ROUTER_HANDLER', missing ? 'argument handler is required' : 'argument handler must be a function');
  },
  paramError(_name, fn) {
    return createError(TypeError, 'TRESTLE_ERR_PARAM_HANDLER', fn ? 'argument fn must be a function' : 'argument fn is required');
  },
  routeHandlerError() {
    return createError(TypeError, 'TRESTLE_ERR_ROUTE_HANDLER', 'argument handler must be a function');
  },
};

/** v5 answers an unhandled OPTIONS with the sorted, de-duplicated method list. */
function sendOptions(res: unknown, methods: string[], next: (err?: unknown) => void): void {
  const r = res as ServerResponse;
  try {
    const allow = [...new Set(methods)].sort().join(', ');
    r.setHeader('Allow', allow);
    r.setHeader('Content-Length', Buffer.byteLength(allow));
    r.setHeader('Content-Type', 'text/plain');
    r.setHeader('X-Content-Type-Options', 'nosniff');
    r.end(allow);
  } catch (err) {
    next(err);
  }
}

export const v5: Profile = {
  router: { compilePath: compileV5Path, mountSeparators: '/', sendOptions, paramFactories: false, shape, callbackRequired: true },
  settings: { queryParser: 'simple' },
  stringBodies: 'buffer',
  bodyParsers: { wrap: (make) => make, urlencoded: { extended: false } },
  overrides: { request: {}, response: {}, application: {}, factory: {} },
};
