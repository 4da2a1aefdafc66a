// What the concept files (request, response, handlers, router) name but
// cannot import. A request's `app` is an application, whose routing methods
// take handlers, which take requests: the types form a loop. Each concept
// file is declared once, generic in the generation `G`, and names the others
// through the table below; each generation's module (v5.ts, v4.ts,
// legacy.ts) fills its row in with `declare module './generation'`, so the
// loop is closed at the top and every import points down.
import type { ParamsDictionary, ParsedQs } from './params';
import type { DefaultLocals, Untyped } from './type-options';

export type { DefaultLocals, Untyped } from './type-options';

/** The generations: `trestle` (Express 5), `trestle/v4` (Express 4), `trestle/legacy` (Express 3). */
export type Generation = 'v5' | 'v4' | 'legacy';

/**
 * The locals object a type parameter may name: `Record<string, any>`, as in
 * `@types/express`, so an interface (which has no index signature) fits.
 */
// eslint-disable-next-line @typescript-eslint/no-explicit-any
export type LocalsRecord = Record<string, any>;

/** One row of {@link GenerationTypes}: a generation's objects. */
export interface GenerationRow<Req, Res, App, Rtr, Rte> {
  /** Its request. */
  request: Req;
  /** Its response. */
  response: Res;
  /** Its application. */
  application: App;
  /** Its router. */
  router: Rtr;
  /** What its `req.route` is. */
  route: Rte;
}

/** Per generation, its request, response, application and route types; rows are added by v5.ts, v4.ts and legacy.ts. */
// eslint-disable-next-line @typescript-eslint/no-unused-vars
export interface GenerationTypes<P, ResBody, ReqBody, ReqQuery, LocalsObj extends LocalsRecord, StatusCode extends number> {}

/** The request of generation `G`. */
export type RequestOf<
  G extends Generation,
  P = ParamsDictionary,
  ResBody = Untyped,
  ReqBody = Untyped,
  ReqQuery = ParsedQs,
  LocalsObj extends LocalsRecord = DefaultLocals,
> = GenerationTypes<P, ResBody, ReqBody, ReqQuery, LocalsObj, number>[G]['request'];

/** The response of generation `G`. */
export type ResponseOf<G extends Generation, ResBody = Untyped, LocalsObj extends LocalsRecord = DefaultLocals, StatusCode extends number = number> = GenerationTypes<
  ParamsDictionary,
  ResBody,
  unknown,
  ParsedQs,
  LocalsObj,
  StatusCode
>[G]['response'];

/** The application of generation `G`. */
export type ApplicationOf<G extends Generation, LocalsObj extends LocalsRecord = DefaultLocals> = GenerationTypes<
  ParamsDictionary,
  unknown,
  unknown,
  ParsedQs,
  LocalsObj,
  number
>[G]['application'];

/** The router of generation `G`. */
export type RouterOf<G extends Generation> = GenerationTypes<ParamsDictionary, Untyped, Untyped, ParsedQs, DefaultLocals, number>[G]['router'];

/** The route of generation `G`, its handlers typed by `P`. */
export type RouteOf<G extends Generation, P = ParamsDictionary> = GenerationTypes<P, Untyped, Untyped, ParsedQs, DefaultLocals, number>[G]['route'];
