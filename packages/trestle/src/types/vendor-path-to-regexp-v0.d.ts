// path-to-regexp 0.1 ships no types; this is the one call we make.
declare module 'path-to-regexp-v0' {
  namespace pathToRegexp {
    interface Key {
      name: string | number;
      optional: boolean;
      offset: number;
    }
    interface Options {
      end?: boolean;
      strict?: boolean;
      sensitive?: boolean;
    }
  }
  function pathToRegexp(path: string | RegExp | Array<string | RegExp>, keys?: pathToRegexp.Key[], options?: pathToRegexp.Options): RegExp;
  export = pathToRegexp;
}
