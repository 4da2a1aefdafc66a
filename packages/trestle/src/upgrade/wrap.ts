// Replacing a member of one of trestle/v4's prototypes with one that first
// checks the call for the upgrade report. Done once, when the report is on;
// with it off the prototypes are as built, so requests pay nothing.

export type Method = (this: unknown, ...args: unknown[]) => unknown;
export type Check = (self: unknown, args: unknown[]) => void;

// A form implemented with another (res.redirect('back') sets the location
// through res.location) is reported once: checks run only at the outer call.
let depth = 0;

/** Is no checked call running (so a read now is the app's own, not part of a form already reported)? */
export function outermost(): boolean {
  return depth === 0;
}

/** Runs `check`, never letting the report break the app. */
export function safely(check: Check, self: unknown, args: unknown[]): void {
  try {
    check(self, args);
  } catch {
    // A check only reads; if it fails the app still runs as before.
  }
}

/**
 * Wraps the method `name` of `target` so `check` sees each outermost call,
 * before it runs (`after`: once it returned, to read what it set).
 */
export function checkCalls(target: object, name: string, check: Check, when: 'before' | 'after' = 'before'): void {
  const descriptor = Object.getOwnPropertyDescriptor(target, name);
  const original = descriptor?.value as Method | undefined;
  if (typeof original !== 'function') return;
  const checked = function (this: unknown, ...args: unknown[]): unknown {
    const outer = depth === 0;
    if (outer && when === 'before') safely(check, this, args);
    depth++;
    let result: unknown;
    try {
      result = original.apply(this, args);
    } finally {
      depth--;
    }
    if (outer && when === 'after') safely(check, this, args);
    return result;
  };
  Object.defineProperty(checked, 'name', { value: original.name });
  Object.defineProperty(target, name, { ...descriptor, value: checked });
}

/** Wraps the getter `name` of `target`: `check` sees the receiver and the value read (`before`: before reading, without it). */
export function checkReads(target: object, name: string, check: (self: unknown, value: unknown) => void, when: 'before' | 'after' = 'after'): void {
  const descriptor = Object.getOwnPropertyDescriptor(target, name);
  const get = descriptor?.get;
  if (get === undefined) return;
  Object.defineProperty(target, name, {
    ...descriptor,
    get(this: unknown) {
      if (when === 'before' && depth === 0) safely((self) => check(self, undefined), this, []);
      const value = get.call(this);
      if (when === 'before') return value;
      if (depth === 0) safely((self) => check(self, value), this, []);
      return value;
    },
  });
}

/** Wraps the setter `name` of `target`: `check` sees the receiver and the value assigned. */
export function checkWrites(target: object, name: string, check: Check): void {
  const descriptor = Object.getOwnPropertyDescriptor(target, name);
  const set = descriptor?.set;
  if (set === undefined) return;
  Object.defineProperty(target, name, {
    ...descriptor,
    set(this: unknown, value: unknown) {
      if (depth === 0) safely(check, this, [value]);
      set.call(this, value);
    },
  });
}

/** A value as the report quotes it in a call: short, one line. */
export function show(value: unknown): string {
  if (typeof value === 'string') return JSON.stringify(value.length > 40 ? `${value.slice(0, 40)}…` : value);
  if (typeof value === 'number' || typeof value === 'boolean' || value == null) return String(value);
  if (typeof value === 'function') return 'fn';
  return Array.isArray(value) ? '[…]' : '{…}';
}
