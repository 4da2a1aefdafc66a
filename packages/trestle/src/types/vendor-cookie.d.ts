// Types for the parts of the `cookie` package (0.7) trestle uses; it ships none.
declare module 'cookie' {
  interface CookieSerializeOptions {
    encode?: ((value: string) => string) | undefined;
    maxAge?: number | undefined;
    domain?: string | undefined;
    path?: string | undefined;
    expires?: Date | undefined;
    httpOnly?: boolean | undefined;
    secure?: boolean | undefined;
    partitioned?: boolean | undefined;
    priority?: 'low' | 'medium' | 'high' | undefined;
    sameSite?: boolean | 'lax' | 'strict' | 'none' | undefined;
  }
  function serialize(name: string, value: string, options?: CookieSerializeOptions): string;
  function parse(str: string, options?: { decode?: (value: string) => string }): Record<string, string | undefined>;
  export { type CookieSerializeOptions, parse, serialize };
}
