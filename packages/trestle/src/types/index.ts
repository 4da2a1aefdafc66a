/**
 * Public types of trestle: the declarations behind the type names that
 * `trestle`, `trestle/v4` and `trestle/legacy` export (`trestle.Request`,
 * `import type { Request } from 'trestle'`, ...). Import them from those
 * entries; this module is not an import path of its own. They are the
 * contract for TypeScript users: the names and generic parameter order follow
 * what Express users import today (`@types/express`), so existing annotations
 * keep compiling.
 *
 * One file per concept (request, response, application, router, handlers,
 * options, settings, params), each generic in the generation; v5.ts, v4.ts
 * and legacy.ts hold what a generation adds and tie the concepts together
 * (see generation.ts).
 *
 * @module trestle/types
 */
export type * from './application';
export type * from './factory';
export type * from './generation';
export type * from './handlers';
export type * from './legacy';
export type * from './lifecycle';
export type * from './options';
export type * from './params';
export type * from './request';
export type * from './response';
export type * from './router';
export type * from './routes';
export type * from './settings';
export type * from './v4';
export type * from './v5';
export type * from './validate';
export type * from './websocket';
