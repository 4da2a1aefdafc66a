// The server limits app.listen() applies (docs/production.md#server-limits):
// node's defaults suit a server facing clients directly, not one behind a
// load balancer that keeps connections to it open for 60 s.
import { createError } from '../errors';
import type { ServerLimits } from '../types/lifecycle';

export const DEFAULT_SERVER_LIMITS: Readonly<Required<ServerLimits>> = Object.freeze({
  // Longer than nginx's upstream keepalive_timeout and AWS ALB's idle timeout (60 s):
  // the load balancer, not the server, must be the side that closes an idle
  // connection, or it may send a request on one the server is closing (a 502).
  keepAliveTimeout: 65_000,
  // Above keepAliveTimeout, as node requires of a kept-alive connection's next head.
  headersTimeout: 66_000,
  // The whole request, body included (node's default): long uploads need it raised.
  requestTimeout: 300_000,
  // node's default, stated: a head larger than 16 KiB gets 431.
  maxHeaderSize: 16_384,
  // node's default is 2000; a real client sends a few dozen. Headers past the cap are dropped.
  maxHeadersCount: 200,
});

const NAMES = Object.keys(DEFAULT_SERVER_LIMITS) as Array<keyof ServerLimits>;

/** The limits for the `server limits` setting: the defaults, with what it sets; `false` for node's own. */
export function serverLimits(setting: unknown): ServerLimits {
  if (setting === false) return {};
  if (setting === undefined || setting === true) return DEFAULT_SERVER_LIMITS;
  if (typeof setting !== 'object' || setting === null) {
    throw createError(TypeError, 'TRESTLE_ERR_INVALID_SETTING', `server limits must be an object or false, got ${String(setting)}`);
  }
  const limits: ServerLimits = { ...DEFAULT_SERVER_LIMITS };
  for (const name of NAMES) {
    const value = (setting as ServerLimits)[name];
    if (value === undefined) continue;
    if (typeof value !== 'number' || !(value >= 0)) throw createError(TypeError, 'TRESTLE_ERR_INVALID_SETTING', `server limits: ${name} must be a number >= 0`);
    limits[name] = value;
  }
  return limits;
}

/** Sets the limits that node reads from the server object (all but `maxHeaderSize`, an option of its creation). */
export function applyServerLimits<S extends object>(server: S, limits: ServerLimits = DEFAULT_SERVER_LIMITS): S {
  const target = server as Record<string, unknown>;
  for (const name of NAMES) {
    if (name !== 'maxHeaderSize' && limits[name] !== undefined) target[name] = limits[name];
  }
  return server;
}
