// The legacy generation (Express 3): Express 4's path syntax and body-parser
// behaviour, mount paths that also match before a `.`, `router.param(fn)`
// without a warning, the route table, and the bundled middleware.
import { type FinalPage, htmlText } from '../../app/final-handler';
import { makeV4Compiler } from '../../router/path/v4';
import type { Profile } from '../profile';
import { withEmptyBody } from '../v4/body-parsers';
import { compileQueryParserV4, parseQs } from '../v4/query';
import { sendOptionsV4 } from '../v4/index';
import { v4RouterShape } from '../v4/router';
import { express3HandlerError, legacyApplication, legacyFactory } from './application';
import { compileETagMd5 } from './etag';
import { legacyRequest } from './request';
import { legacyResponse } from './response';

/**
 * Express 3's final page (Connect's): the message alone as HTML text and a
 * newline, "Cannot GET " and the whole original URL as sent (escaped, not
 * re-encoded), `X-Content-Type-Options` but no Content-Security-Policy.
 */
const express3Page: FinalPage = {
  notFound: (method, originalUrl) => `Cannot ${method} ${originalUrl}`,
  body: (message) => `${htmlText(message)}\n`,
  contentSecurityPolicy: false,
};

export const legacy: Profile = {
  router: {
    // Express 3 mounted middleware by prefix: `/apple` also serves `/apple.html`.
    compilePath: makeV4Compiler('/.'),
    mountSeparators: '/.',
    sendOptions: sendOptionsV4,
    paramFactories: true,
    // Express 3 kept its middleware in connect's stack: no Express 4 app layers.
    shape: { ...v4RouterShape('/.', []), routeHandlerError: express3HandlerError },
    handlerOptional: true,
  },
  // `query parser` as v4 reads it (Express 3 had no such setting: it always parsed with qs).
  settings: { queryParser: 'extended', compileETag: compileETagMd5, compileQueryParser: compileQueryParserV4, unsetQuery: parseQs },
  // Express 3 sent strings as strings: a header's latin1 goes out in UTF-8.
  stringBodies: 'string',
  // Express 3 parsed forms with qs, and said nothing about it.
  bodyParsers: { wrap: withEmptyBody, urlencoded: { extended: true } },
  finalPage: express3Page,
  overrides: { request: legacyRequest, response: legacyResponse, application: legacyApplication, factory: legacyFactory },
};
