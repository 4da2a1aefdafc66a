// Reading a middleware's options object: users pass undefined, null, or
// (by mistake) something that is not an object; all of those mean defaults.
export function optionsObject<T extends object>(options: T | null | undefined): Partial<T> {
  return options !== null && typeof options === 'object' ? options : {};
}
