// The response prototype's own members, shared by every profile. Each app's
// `app.response` inherits from the profile's response object, which inherits
// from these and from node's ServerResponse. Larger members live beside this
// file (headers.ts, send.ts, cookies.ts, redirect.ts, files.ts) and are
// gathered into `responseMembers` at the end.
import { bodyMembers } from './send';
import { cookieMembers } from './cookies';
import { headerMembers } from './headers';
import { redirectMembers } from './redirect';
import { sendFileMembers } from './files';
import type { RenderDone, ResponseState } from './state';

export type { ResponseState } from './state';
export { contentTypeFor, setCharset } from './headers';
export { stringifyJson } from './send';

const viewMembers = {
  /** Renders a view with app, response and call locals; sends it unless given a callback. */
  render(this: ResponseState, view: string, options?: Record<string, unknown> | RenderDone, callback?: RenderDone): void {
    let opts: Record<string, unknown> = {};
    let done = callback;
    if (typeof options === 'function') done = options;
    else if (options) opts = options;
    opts._locals = this.locals;
    const req = this.req;
    done ??= (err, html) => {
      if (err) req.next!(err);
      else this.send(html);
    };
    this.app.render(view, opts, done);
  },

  /** Per-request view locals, created on first use. */
  get locals(): Record<string, unknown> {
    const value = Object.create(null) as Record<string, unknown>;
    Object.defineProperty(this, 'locals', { value, writable: true, enumerable: true, configurable: true });
    return value;
  },
  set locals(value: Record<string, unknown>) {
    Object.defineProperty(this, 'locals', { value, writable: true, enumerable: true, configurable: true });
  },
};

/** Every response member, getters included, in one object the framework mixes in. */
export const responseMembers: Record<string, unknown> = {};
for (const part of [headerMembers, bodyMembers, cookieMembers, redirectMembers, sendFileMembers, viewMembers]) {
  Object.defineProperties(responseMembers, Object.getOwnPropertyDescriptors(part));
}
Object.defineProperty(responseMembers, 'header', Object.getOwnPropertyDescriptor(responseMembers, 'set')!);
Object.defineProperty(responseMembers, 'contentType', Object.getOwnPropertyDescriptor(responseMembers, 'type')!);
