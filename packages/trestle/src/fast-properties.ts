// V8 keeps an object's properties in "fast mode" (a hidden class, reads
// compiled to one load) until it judges the object a dictionary. One of its
// triggers: a property *added* by a keyed store (`obj[key] = v`, symbols
// included) once the object has a dozen or more properties outside its own
// slots. An app is a function with some 90 members, so adding a symbol slot
// that way made every `app.x` read on the request path a generic lookup.
// `Object.defineProperty` adds a property by name: no such trigger.

/** `obj[key] = value` for a property `obj` does not have yet, leaving `obj` in fast mode. */
export function addOwnProperty(obj: object, key: PropertyKey, value: unknown): void {
  Object.defineProperty(obj, key, { value, writable: true, enumerable: true, configurable: true });
}

/**
 * A constructor of records V8 keeps in fast mode with no inherited keys (any
 * name, `__proto__` or `constructor`, is an own key, as in node's
 * `{ __proto__: null }` objects, which V8 keeps as dictionaries). Each call
 * makes a constructor of its own, so records of different kinds keep
 * separate shapes.
 */
export function fastRecordType<T extends object>(): new () => T {
  const FastRecord = function FastRecord() {} as unknown as new () => T;
  FastRecord.prototype = Object.create(null) as T;
  return FastRecord;
}
