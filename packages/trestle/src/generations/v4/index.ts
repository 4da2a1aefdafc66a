// The v4 generation (Express 4): the v4 path syntax (path-to-regexp 0.1),
// the deprecated forms Express 4 still accepts, and its OPTIONS answer.
import type { ServerResponse } from 'node:http';
import { makeV4Compiler } from '../../router/path/v4';
import type { Profile } from '../profile';
import { v4Application, v4Factory } from './application';
import { withEmptyBody } from './body-parsers';
import { v4Request } from './request';
import { compileQueryParserV4, parseQs } from './query';
import { oldResponseForms } from './response';
import { expressFourAppLayers, expressFourLayerMembers, v4RouterShape } from './router';
import { expressStandIn } from '../../observability/orchestrion';

/**
 * v4 answers an unhandled OPTIONS with the methods in the order the routes
 * declared them, comma-joined, sent through `res.send` (so as HTML, with an ETag).
 */
export function sendOptionsV4(res: unknown, methods: string[], next: (err?: unknown) => void): void {
  const r = res as ServerResponse & { set(field: string, value: string): unknown; send(body: string): unknown };
  try {
    const body = methods.join(',');
    r.set('Allow', body);
    r.send(body);
  } catch (err) {
    next(err);
  }
}

export const v4: Profile = {
  router: {
    compilePath: makeV4Compiler('/', true),
    // Express 4 lets a regular expression's match end before a '.' too.
    mountSeparators: '/.',
    sendOptions: sendOptionsV4,
    paramFactories: 'deprecated',
    shape: { ...v4RouterShape('/', expressFourAppLayers), routerOnFirstUse: true, standIn: expressStandIn, layerMembers: expressFourLayerMembers },
    handlerOptional: true,
  },
  // `query parser` off answers {}; with no `query parser fn` at all, Express 4's query layer fell back to qs.
  settings: { queryParser: 'extended', compileQueryParser: compileQueryParserV4, unsetQuery: parseQs },
  stringBodies: 'buffer',
  bodyParsers: {
    wrap: withEmptyBody,
    urlencoded: { extended: true, deprecation: 'undefined extended: provide extended option' },
  },
  overrides: { request: v4Request, response: oldResponseForms(true), application: v4Application, factory: v4Factory },
};
