// createFramework(profile): the factory users call (`trestle()`) and its
// members, built once per generation from the shared core and the profile.
import { EventEmitter } from 'node:events';
import { IncomingMessage, ServerResponse } from 'node:http';
import { type App, applicationMembers, type FrameworkParts } from './app/application';
import { json } from './middleware/json';
import { raw } from './middleware/raw';
import { serveStatic } from './middleware/static';
import { text } from './middleware/text';
import { createUrlencoded } from './middleware/urlencoded';
import type { Profile } from './generations/profile';
import { requestMembers } from './request/properties';
import { responseMembers } from './response/members';
import { Route } from './router/route';
import { createRouter, type RouterOptions, routerPrototype } from './router/router';

/** Copies the own properties (getters included) of each source onto target. */
function mixin(target: object, ...sources: object[]): void {
  for (const source of sources) {
    for (const key of Reflect.ownKeys(source)) {
      if (key === 'constructor' && typeof target === 'function') continue;
      Object.defineProperty(target, key, Object.getOwnPropertyDescriptor(source, key)!);
    }
  }
}

export interface Framework {
  (): App;
  application: object;
  request: object;
  response: object;
  Router: (options?: RouterOptions) => unknown;
  Route: typeof Route;
  json: typeof json;
  urlencoded: ReturnType<typeof createUrlencoded>;
  raw: typeof raw;
  text: typeof text;
  static: typeof serveStatic;
}

type Middleware = (req: IncomingMessage & { body?: unknown }, res: ServerResponse, next: (err?: unknown) => void) => void;

/** A body parser factory whose parsers leave `req.body` at least `{}` (v4 and legacy). */
function withEmptyBody<F extends (options?: never) => unknown>(make: F): F {
  return ((options?: never) => {
    const parse = make(options) as Middleware;
    return function bodyParser(req, res, next) {
      req.body ??= {};
      parse(req, res, next);
    } as Middleware;
  }) as F;
}

export function createFramework(profile: Profile): Framework {
  const request = Object.create(IncomingMessage.prototype) as object;
  mixin(request, requestMembers);
  Object.defineProperties(request, profile.request);

  const response = Object.create(ServerResponse.prototype) as object;
  mixin(response, responseMembers);
  Object.defineProperties(response, profile.response);

  const application: object = {};
  mixin(application, applicationMembers);
  Object.defineProperties(application, profile.application);

  const routerProto = routerPrototype(profile);
  const parts: FrameworkParts = { profile, routerProto, queryParser: profile.queryParser, poweredBy: 'Trestle' };

  function createApplication(): App {
    const app = function (req: IncomingMessage, res: ServerResponse, next?: (err?: unknown) => void) {
      app.handle(req, res, next);
    } as App;
    mixin(app, EventEmitter.prototype, application);
    EventEmitter.call(app as unknown as EventEmitter);
    app._framework = parts;
    // Each app has its own request/response prototypes, so `app.request.x = ...`
    // stays local. They are the prototypes of real subclasses of node's classes,
    // which servers can then create requests with directly (see app.listen).
    const appProp = { configurable: true, enumerable: true, writable: true, value: app };
    class AppRequest extends IncomingMessage {}
    Object.setPrototypeOf(AppRequest.prototype, request);
    Object.defineProperty(AppRequest.prototype, 'app', appProp);
    class AppResponse extends ServerResponse {}
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
  framework.Router = function Router(options?: RouterOptions) {
    return createRouter(routerProto, options);
  };
  framework.Route = Route;
  const parser = profile.emptyBody ? withEmptyBody : <F>(make: F) => make;
  framework.json = parser(json);
  framework.urlencoded = parser(createUrlencoded(profile.urlencoded));
  framework.raw = parser(raw);
  framework.text = parser(text);
  framework.static = serveStatic;
  Object.defineProperties(framework, profile.members);
  return framework;
}
