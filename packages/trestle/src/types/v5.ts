// The types of `trestle` (Express 5's behaviour): the core's, with the v5
// path syntax. Fills in the v5 row of the generation table.
import type { Application } from './application';
import type { FactoryMembers } from './factory';
import type { DefaultLocals, LocalsRecord } from './generation';
import type { Request } from './request';
import type { Response } from './response';
import type { Route, RouteConstructor, Router, RouterClass } from './router';

declare module './generation' {
  interface GenerationTypes<P, ResBody, ReqBody, ReqQuery, LocalsObj extends LocalsRecord, StatusCode extends number> {
    /** `trestle`: Express 5's objects. */
    v5: GenerationRow<
      Request<P, ResBody, ReqBody, ReqQuery, LocalsObj>,
      Response<ResBody, LocalsObj, StatusCode>,
      Application<LocalsObj>,
      Router,
      Route<P>
    >;
  }
}

/** The factory `require('trestle')` returns, with its members. */
export interface Trestle extends FactoryMembers<'v5'> {
  /** Creates a router: `trestle.Router({ mergeParams: true })` or `new trestle.Router()`. */
  Router: RouterClass;
  /** The route class: `new trestle.Route(path)`. */
  Route: RouteConstructor<'v5'>;
  /** Creates an application; `L` types `app.locals`. */
  <L extends LocalsRecord = DefaultLocals>(): Application<L>;
}
