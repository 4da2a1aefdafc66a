// Type-level assertions, checked by `tsc` in `npm run typecheck` (part of
// `npm test`). `expectType<T>()(value)` compiles only when the value's type
// is exactly T: assignable to it, and it to the value's type.
export type Equal<A, B> = (<T>() => T extends A ? 1 : 2) extends <T>() => T extends B ? 1 : 2 ? true : false;

export function expectType<Expected>() {
  return <Actual extends Expected>(_value: Actual & (Equal<Actual, Expected> extends true ? unknown : never)): void => undefined;
}
