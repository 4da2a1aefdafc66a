// The legacy generation (Express 3): Express 4's path syntax and body-parser
// behaviour, mount paths that also match before a `.`, `router.param(fn)`
// without a warning, the route table, and the bundled middleware.
import { makeV4Compiler } from '../../router/path/v4';
import type { Profile } from '../profile';
import { withEmptyBody } from '../v4/body-parsers';
import { sendOptionsV4 } from '../v4/index';
import { v4RouterShape } from '../v4/router';
import { legacyApplication, legacyFactory } from './application';
import { legacyRequest } from './request';
import { legacyResponse } from './response';

export const legacy: Profile = {
  router: {
    // Express 3 mounted middleware by prefix: `/apple` also serves `/apple.html`.
    compilePath: makeV4Compiler('/.'),
    mountSeparators: '/.',
    sendOptions: sendOptionsV4,
    paramFactories: true,
    // Express 3 kept its middleware in connect's stack: no Express 4 app layers.
    shape: v4RouterShape('/.', []),
    handlerOptional: true,
  },
  settings: { queryParser: 'extended' },
  // Express 3 parsed forms with qs, and said nothing about it.
  bodyParsers: { wrap: withEmptyBody, urlencoded: { extended: true } },
  overrides: { request: legacyRequest, response: legacyResponse, application: legacyApplication, factory: legacyFactory },
};
