// `require('trestle/v4')`: the framework with Express 4 behaviour.
import { createFramework } from './framework';
import { v4 } from './profile';
import type * as T from './types';

const trestle = createFramework(v4) as unknown as T.Trestle<'v4'>;

// The type names Express users import, with @types/express's parameter order.
declare namespace trestle {
  export type Application<L extends Record<string, unknown> = Record<string, unknown>> = T.Application<L, 'v4'>;
  export type Request<P = T.ParamsDictionary, ResBody = unknown, ReqBody = unknown, ReqQuery = T.ParsedQs, L extends Record<string, unknown> = Record<string, unknown>> = T.Request<P, ResBody, ReqBody, ReqQuery, L>;
  export type Response<ResBody = unknown, L extends Record<string, unknown> = Record<string, unknown>> = T.Response<ResBody, L>;
  export type NextFunction = T.NextFunction;
  export type RequestHandler<P = T.ParamsDictionary, ResBody = unknown, ReqBody = unknown, ReqQuery = T.ParsedQs, L extends Record<string, unknown> = Record<string, unknown>> = T.RequestHandler<P, ResBody, ReqBody, ReqQuery, L>;
  export type ErrorRequestHandler<P = T.ParamsDictionary, ResBody = unknown, ReqBody = unknown, ReqQuery = T.ParsedQs, L extends Record<string, unknown> = Record<string, unknown>> = T.ErrorRequestHandler<P, ResBody, ReqBody, ReqQuery, L>;
  export type Router = T.Router<'v4'>;
  export type Route<P = T.ParamsDictionary> = T.Route<P>;
  export type RouterOptions = T.RouterOptions;
  export type CookieOptions = T.CookieOptions;
  export type ParamsDictionary = T.ParamsDictionary;
  export type RouteParameters<Path extends string> = T.RouteParametersV4<Path>;
  export type ParsedQs = T.ParsedQs;
  export type Handler = T.Handler;
  export type ParamHandler = T.ParamHandler;
  export type SendFileOptions = T.SendFileOptions;
  export type EngineCallback = T.EngineCallback;
}

export = trestle;
