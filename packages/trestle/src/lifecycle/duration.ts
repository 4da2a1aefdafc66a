// Durations as the lifecycle options take them: milliseconds, or a string
// with a unit ('500ms', '5s', '2m'), as connect-timeout and ms read them.
import { createError } from '../errors';

const UNITS: Record<string, number> = { ms: 1, s: 1000, m: 60_000, h: 3_600_000 };
const DURATION = /^(\d+(?:\.\d+)?)\s*(ms|s|m|h)?$/;

/** `value` in milliseconds; `what` names it in the error for a value that is not a duration. */
export function toMilliseconds(value: unknown, what: string): number {
  if (typeof value === 'number' && Number.isFinite(value) && value >= 0) return value;
  const match = typeof value === 'string' ? DURATION.exec(value.trim()) : null;
  if (match === null) {
    throw createError(TypeError, 'TRESTLE_ERR_INVALID_ARG_VALUE', `${what} must be a number of milliseconds or a duration such as '5s', got ${String(value)}`);
  }
  return Number(match[1]) * UNITS[match[2] ?? 'ms']!;
}
