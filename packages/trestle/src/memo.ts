// Memos for values derived from a few distinct strings that recur on every
// request: content types, header values, ETags of short repeated bodies.

/**
 * Remembers `compute(key)`; cleared when full, so it stays bounded whatever
 * the keys (they may come from clients). `compute` may throw: nothing is
 * remembered then.
 */
export function boundedMemo<T>(compute: (key: string) => T, limit = 256): (key: string) => T {
  const cache = new Map<string, T>();
  return (key) => {
    let value = cache.get(key);
    if (value === undefined && !cache.has(key)) {
      value = compute(key);
      if (cache.size >= limit) cache.clear();
      cache.set(key, value);
    }
    return value as T;
  };
}
