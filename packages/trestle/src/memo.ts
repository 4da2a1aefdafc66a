// Memos for values derived from a few distinct strings that recur on every
// request: content types, header values. Never bodies: see builtinETag in
// response/send.ts for what keeping them cost.

/**
 * Remembers `compute(key)`; cleared when full, so it stays bounded whatever
 * the keys (they may come from clients). `compute` may throw: nothing is
 * remembered then.
 */
export function boundedMemo<T>(compute: (key: string) => T, limit = 256): (key: string) => T {
  const cache = new Map<string, T>();
  // The last key and value, checked first: a hot path mostly asks for the
  // same key again, and comparing strings beats hashing a fresh one.
  let lastKey: string | undefined;
  let lastValue: T | undefined;
  return (key) => {
    if (key === lastKey) return lastValue as T;
    let value = cache.get(key);
    if (value === undefined && !cache.has(key)) {
      value = compute(key);
      if (cache.size >= limit) cache.clear();
      cache.set(key, value);
    }
    lastKey = key;
    lastValue = value;
    return value as T;
  };
}
