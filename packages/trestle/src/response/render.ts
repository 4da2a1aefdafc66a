// res.render and res.locals: a view rendered with the app's, the response's
// and the call's locals, sent unless the caller takes the HTML.
import type { RenderDone, ResponseState } from './state';

export const renderMembers = {
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
