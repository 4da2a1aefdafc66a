// Each entry exports the same type names, so annotations port between them.
// Compiled, never run: a name missing from an entry fails `npm run typecheck`.
import type * as Legacy from 'trestle/legacy';
import type * as V4 from 'trestle/v4';
import type * as V5 from 'trestle';

export type FromV5 = V5.Request | V5.Response | V5.Application | V5.Router | V5.CookieOptions | V5.JsonOptions | V5.UrlencodedOptions | V5.StaticOptions;
export type FromV4 = V4.Request | V4.Response | V4.Application | V4.Router | V4.CookieOptions | V4.JsonOptions | V4.UrlencodedOptions | V4.StaticOptions;
export type FromLegacy = Legacy.Request | Legacy.Response | Legacy.Application | Legacy.Router | Legacy.CookieOptions | Legacy.JsonOptions | Legacy.RawOptions | Legacy.TextOptions;
