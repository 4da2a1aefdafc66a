// `trestle/lambda`: an app as an AWS Lambda handler. Each event becomes a
// WHATWG `Request` answered by `app.fetch` (the only way in to the app), and
// the `Response` becomes the result the event's kind takes back, or, with
// `streaming`, is written to Lambda's response stream as the app writes it.
import { createError } from '../../errors';
import { binaryRule } from './binary';
import { kindOf, type EventKind, type Incoming } from './events';
import { albRequest, restRequest } from './request-v1';
import { httpRequest } from './request-v2';
import { toResult } from './result';
import { awsLambda, streamTo } from './streaming';
import type { FetchingApp, LambdaAlbEvent, LambdaContext, LambdaEvent, LambdaHandler, LambdaHttpEvent, LambdaOptions, LambdaPlatform, LambdaRestEvent, LambdaStreamingHandler } from './types';

export type * from './types';

function incoming(event: LambdaEvent, kind: EventKind, basePath: string | undefined): Incoming {
  if (kind === 'http') return httpRequest(event as LambdaHttpEvent, basePath);
  if (kind === 'alb') return albRequest(event as LambdaAlbEvent, basePath);
  return restRequest(event as LambdaRestEvent, basePath);
}

/** The invocation as the app sees it, on `req.platform`. */
function platformOf(event: LambdaEvent, context: LambdaContext): LambdaPlatform {
  return { name: 'lambda', event, context };
}

/**
 * A Lambda handler answering API Gateway (REST and HTTP APIs), ALB and
 * function URL events with `app`. With `{ streaming: true }`, the handler
 * made by `awslambda.streamifyResponse()`, streaming the answer.
 */
export function lambda(app: FetchingApp, options: LambdaOptions & { streaming: true }): LambdaStreamingHandler;
export function lambda(app: FetchingApp, options?: LambdaOptions): LambdaHandler;
export function lambda(app: FetchingApp, options: LambdaOptions = {}): LambdaHandler | LambdaStreamingHandler {
  if (app == null || typeof app.fetch !== 'function') {
    throw createError(TypeError, 'TRESTLE_ERR_INVALID_ARG_TYPE', 'lambda() requires an app with a fetch method');
  }
  const basePath = options.basePath?.replace(/\/+$/, '');
  if (options.streaming === true) {
    const aws = awsLambda();
    return aws.streamifyResponse(async (event, responseStream, context) => {
      const kind = kindOf(event);
      const { request, remoteAddress } = incoming(event, kind, basePath);
      const response = await app.fetch(request, { remoteAddress, platform: platformOf(event, context) });
      await streamTo(responseStream, response, aws);
    });
  }
  const isBinary = binaryRule(options.binary);
  return async (event: LambdaEvent, context: LambdaContext) => {
    const kind = kindOf(event);
    const { request, remoteAddress } = incoming(event, kind, basePath);
    const response = await app.fetch(request, { remoteAddress, platform: platformOf(event, context) });
    return toResult(response, kind, event, isBinary, request);
  };
}

/**
 * The Lambda event and context of a request `lambda()` made (`req.platform`,
 * which `Request` types do not declare), typed; `undefined` for any other request.
 */
export function lambdaOf(req: object): LambdaPlatform | undefined {
  const platform = (req as { platform?: LambdaPlatform }).platform;
  return platform?.name === 'lambda' ? platform : undefined;
}
