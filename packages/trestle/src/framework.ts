// createFramework(profile): the factory users call (`trestle()`) and its
// members, built once per generation from the shared core and the profile.
import { EventEmitter } from 'node:events';
import { IncomingMessage as NodeIncomingMessage, ServerResponse as NodeServerResponse } from 'node:http';
import { type App, applicationMembers, type FrameworkParts } from './app/application';
import { withCompilers } from './app/settings';
import { settleAsyncContextFrame } from './async-context';
import { lifecycleMembers } from './lifecycle/app';
import { shutdown } from './lifecycle/shutdown';
import { shutdownOnSignals } from './lifecycle/signals';
import { signalMembers } from './lifecycle/signal';
import { deadline } from './lifecycle/deadline';
import { applyServerLimits } from './lifecycle/limits';
import { attachWebSockets } from './websocket/upgrade';
import { checkOrigin } from './websocket/origin';
import { bunWebSocket } from './platforms/bun-websocket';
import { json } from './middleware/json';
import { raw } from './middleware/raw';
import { serveStatic } from './middleware/static';
import { text } from './middleware/text';
import { createUrlencoded } from './middleware/urlencoded';
import type { Profile } from './generations/profile';
import type { OpenApiOptions } from './types/routes';
import type { RouteDescription, ValidateOptions, ValidateSchemas } from './types/validate';
import { announceStandIn } from './observability/orchestrion';
import { requestMembers } from './request/properties';
import { responseMembers } from './response/members';
import { type RouterFactory, routerFactory } from './router/factory';
import { type Route, routeClass } from './router/route';
import { lazy } from './lazy';

// trestle.routes, validate, describe and openapi: loaded on first call (an app that uses none pays nothing).
const routeList = lazy(() => require('./routes/list') as typeof import('./routes/list'));
const routeValidate = lazy(() => require('./routes/validate') as typeof import('./routes/validate'));
const routeDescribe = lazy(() => require('./routes/describe') as typeof import('./routes/describe'));
const routeOpenapi = lazy(() => require('./routes/openapi') as typeof import('./routes/openapi'));
const routeMembers = {
  routes: (app: unknown) => routeList().routes(app),
  validate: <S extends ValidateSchemas>(schemas: S, options?: ValidateOptions) => routeValidate().validate(schemas, options),
  describe: (description: RouteDescription) => routeDescribe().describe(description),
  openapi: (app: unknown, options: OpenApiOptions) => routeOpenapi().openapi(app, options),
};

/** Copies the own properties (getters included) of each source onto target. */
function mixin(target: object, ...sources: object[]): void {
  for (const source of sources) {
    for (const key of Reflect.ownKeys(source)) {
      if (key === 'constructor' && typeof target === 'function') continue;
      Object.defineProperty(target, key, Object.getOwnPropertyDescriptor(source, key)!);
    }
  }
}

/**
 * An app's request and response classes, named as node's: Express's
 * requests and responses are node's own objects, so `req.constructor.name`
 * is `IncomingMessage` and stack frames read `IncomingMessage.onEnd`, and
 * code and logs that look for these names find them.
 */
function appClasses() {
  return {
    AppRequest: class IncomingMessage extends NodeIncomingMessage {},
    AppResponse: class ServerResponse extends NodeServerResponse {},
  };
}

export interface Framework {
  (): App;
  application: object;
  request: object;
  response: object;
  Router: RouterFactory;
  Route: typeof Route;
  json: typeof json;
  urlencoded: ReturnType<typeof createUrlencoded>;
  raw: typeof raw;
  text: typeof text;
  static: typeof serveStatic;
  shutdown: typeof shutdown;
  shutdownOnSignals: typeof shutdownOnSignals;
  deadline: typeof deadline;
  applyServerLimits: typeof applyServerLimits;
  routes: typeof routeMembers.routes;
  validate: typeof routeMembers.validate;
  describe: typeof routeMembers.describe;
  openapi: typeof routeMembers.openapi;
  attachWebSockets: typeof attachWebSockets;
  checkOrigin: typeof checkOrigin;
  bunWebSocket: typeof bunWebSocket;
}

export function createFramework(profile: Profile): Framework {
  // Before any request path is compiled (see async-context.ts).
  settleAsyncContextFrame();
  const request = Object.create(NodeIncomingMessage.prototype) as object;
  mixin(request, requestMembers, signalMembers);
  Object.defineProperties(request, profile.overrides.request);

  const response = Object.create(NodeServerResponse.prototype) as object;
  mixin(response, responseMembers);
  Object.defineProperties(response, profile.overrides.response);

  const application: object = {};
  mixin(application, applicationMembers, lifecycleMembers);
  Object.defineProperties(application, profile.overrides.application);

  const { Router, proto: routerProto } = routerFactory(profile.router);
  const { compileETag, compileQueryParser } = profile.settings;
  const compilers = withCompilers({ ...(compileETag && { etag: compileETag }), ...(compileQueryParser && { 'query parser': compileQueryParser }) });
  const parts: FrameworkParts = { profile, routerProto, queryParser: profile.settings.queryParser, compilers, poweredBy: 'Trestle' };

  function createApplication(): App {
    // Sentry 11 waits to hear that Express loaded before it listens to the channels trestle publishes on.
    announceStandIn(profile.router.shape.standIn);
    const app = function (req: NodeIncomingMessage, res: NodeServerResponse, next?: (err?: unknown) => void) {
      app.handle(req, res, next);
    } as App;
    mixin(app, EventEmitter.prototype, application);
    EventEmitter.call(app as unknown as EventEmitter);
    app._framework = parts;
    // Each app has its own request/response prototypes, so `app.request.x = ...`
    // stays local. They are the prototypes of real subclasses of node's classes,
    // which servers can then create requests with directly (see app.listen).
    const appProp = { configurable: true, enumerable: true, writable: true, value: app };
    const { AppRequest, AppResponse } = appClasses();
    Object.setPrototypeOf(AppRequest.prototype, request);
    Object.defineProperty(AppRequest.prototype, 'app', appProp);
    Object.setPrototypeOf(AppResponse.prototype, response);
    Object.defineProperty(AppResponse.prototype, 'app', appProp);
    app.request = AppRequest.prototype;
    app.response = AppResponse.prototype;
    app._classes = { IncomingMessage: AppRequest, ServerResponse: AppResponse };
    (app as unknown as { init(): void }).init();
    return app;
  }

  const framework = createApplication as unknown as Framework;
  framework.application = application;
  framework.request = request;
  framework.response = response;
  framework.Router = Router;
  framework.Route = routeClass(profile.router);
  const { wrap } = profile.bodyParsers;
  framework.json = wrap(json);
  framework.urlencoded = createUrlencoded(profile.bodyParsers.urlencoded, wrap);
  framework.raw = wrap(raw);
  framework.text = wrap(text);
  framework.static = serveStatic;
  framework.shutdown = shutdown;
  framework.shutdownOnSignals = shutdownOnSignals;
  framework.deadline = deadline;
  framework.applyServerLimits = applyServerLimits;
  Object.assign(framework, routeMembers);
  framework.attachWebSockets = attachWebSockets;
  framework.checkOrigin = checkOrigin;
  framework.bunWebSocket = bunWebSocket;
  Object.defineProperties(framework, profile.overrides.factory);
  return framework;
}
