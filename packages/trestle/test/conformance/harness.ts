// The conformance suite's vocabulary: a case is data (how to set an app up,
// which requests to send, which answers to expect), written once for every
// generation. A generation that answers differently says so twice: in the
// case (`v4: [...]`, `legacy: [...]`, its own expected answers) and in its
// list of differences (differences.ts, the reason). The runner checks that the
// two agree, so no difference goes unexplained and none is left untested.
import type { NextFunction, Request, Response } from 'trestle';

export type Generation = 'v5' | 'v4' | 'legacy';
export const GENERATIONS: readonly Generation[] = ['v5', 'v4', 'legacy'];

/** A request handler; `req`/`res` carry the members every generation has. */
export type Handler = (req: Request, res: Response, next: NextFunction) => unknown;
export type ErrorHandler = (err: unknown, req: Request, res: Response, next: NextFunction) => unknown;
export type PathArg = string | RegExp | Array<string | RegExp>;

/** A router or an app as a mountable value (no call signature, so arrows read as `Handler`). */
export interface Mountable {
  handle: unknown;
}

export interface Routable extends Mountable {
  use(...fns: Array<Handler | Mountable | Handler[]>): unknown;
  use(path: PathArg, ...fns: Array<Handler | Mountable | Handler[]>): unknown;
  get(path: PathArg, ...fns: Array<Handler | Handler[]>): unknown;
  post(path: PathArg, ...fns: Handler[]): unknown;
  put(path: PathArg, ...fns: Handler[]): unknown;
  delete(path: PathArg, ...fns: Handler[]): unknown;
  head(path: PathArg, ...fns: Handler[]): unknown;
  options(path: PathArg, ...fns: Handler[]): unknown;
  all(path: PathArg, ...fns: Handler[]): unknown;
  route(path: PathArg): RouteChain;
  param(name: string, fn: (req: Request, res: Response, next: NextFunction, value: string, name: string) => unknown): unknown;
}

export interface RouteChain {
  get(...fns: Handler[]): RouteChain;
  post(...fns: Handler[]): RouteChain;
  all(...fns: Handler[]): RouteChain;
}

export interface CaseApp extends Routable {
  set(name: string, value: unknown): unknown;
  enable(name: string): unknown;
  disable(name: string): unknown;
  mountpath?: unknown;
}

/** What a case may use of an entry's factory. */
export interface CaseFramework {
  (): CaseApp;
  Router(options?: { caseSensitive?: boolean; mergeParams?: boolean; strict?: boolean }): Routable;
}

export interface Send {
  method?: string;
  path: string;
  headers?: Record<string, string>;
  body?: string;
}

export interface Answer {
  status: number;
  /** The whole body (HEAD and 204/304: ''), or a pattern it must match. */
  body?: string | RegExp;
  /** Header values by lower-case name; `null` means the header must be absent. */
  headers?: Record<string, string | RegExp | null>;
}

/** The setup itself throws (a path the generation's syntax rejects). */
export interface Throws {
  throws: RegExp;
}

export type Expected = Answer[] | Throws;

export interface Case {
  name: string;
  /** Defines the app's routes; `fw` is the entry's factory (for `Router()`). */
  setup(app: CaseApp, fw: CaseFramework): void;
  /** Sent in order, each on a new connection, to one app. */
  send: Send[];
  /** The answers `trestle` (v5) gives; the other generations too unless they say otherwise
   *  (each on its own: a case where v4 and legacy differ alike names both). */
  expect: Expected;
  v4?: Expected;
  legacy?: Expected;
}

/** A generation's answers that differ from v5's: case name -> why. */
export type Differences = Record<string, string>;

/** The answer a generation must give to a case. */
export function expectedFor(c: Case, gen: Generation): Expected {
  if (gen === 'v4') return c.v4 ?? c.expect;
  if (gen === 'legacy') return c.legacy ?? c.expect;
  return c.expect;
}

/** Whether a generation's answer to a case differs from v5's (it then needs a reason). */
export function differsFromV5(c: Case, gen: Generation): boolean {
  if (gen === 'v5') return false;
  return expectedFor(c, gen) !== c.expect;
}

/** An error handler where `use()` takes handlers; it keeps its four parameters, which is what marks it. */
export function onError(fn: ErrorHandler): Handler {
  return fn as unknown as Handler;
}

/** Shorthand for cases that echo what the router saw. */
export function echo(req: Request): string {
  return JSON.stringify({ baseUrl: req.baseUrl, url: req.url, params: { ...req.params } });
}
