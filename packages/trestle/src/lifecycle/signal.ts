// `req.signal`: an AbortSignal aborted when the client goes away before the
// answer is complete (HTTP/1 connection closed, HTTP/2 stream reset) or when
// the request's deadline passes (deadline.ts). Made on first read and kept in
// a WeakMap, so a request that never reads it allocates nothing and keeps its
// shape; the response's 'close' is listened to only from that first read.

interface SignalRequest {
  res?: SignalResponse;
}

interface SignalResponse {
  writableEnded: boolean;
  writableFinished: boolean;
  /** Set on an HTTP/2 response: its stream, whose reset code says how it ended. */
  stream?: { rstCode?: number };
  closed?: boolean;
  once(event: 'close', listener: () => void): unknown;
}

const controllers = new WeakMap<object, AbortController>();

/** The reason `req.signal` aborts with when the client went away. */
function clientGone(): DOMException {
  return new DOMException('The client went away before the answer was complete', 'AbortError');
}

/** Was the answer delivered whole? HTTP/2: ended, and the stream closed without a reset. */
function completed(res: SignalResponse): boolean {
  if (res.stream !== undefined) return res.writableEnded && res.stream.rstCode === 0;
  return res.writableFinished;
}

function controllerFor(req: SignalRequest): AbortController {
  let controller = controllers.get(req);
  if (controller === undefined) {
    controller = new AbortController();
    controllers.set(req, controller);
    watch(req, controller);
  }
  return controller;
}

function watch(req: SignalRequest, controller: AbortController): void {
  const res = req.res;
  if (res === undefined) return;
  if (res.closed === true) {
    if (!completed(res)) controller.abort(clientGone());
    return;
  }
  res.once('close', () => {
    if (!controller.signal.aborted && !completed(res)) controller.abort(clientGone());
  });
}

/** Aborts the request's signal (made now if it was never read, so a later read sees it aborted). */
export function abortRequest(req: object, reason: unknown): void {
  const controller = controllerFor(req as SignalRequest);
  if (!controller.signal.aborted) controller.abort(reason);
}

/** Is `err` what the request's signal aborted with (a `fetch` given `req.signal` rejects with it)? */
export function isAbortReason(req: object, err: unknown): boolean {
  const signal = controllers.get(req)?.signal;
  return signal !== undefined && signal.aborted && signal.reason === err;
}

export const signalMembers = {
  /** Aborted when the client goes away before the answer is complete, or when the request's deadline passes. */
  get signal(): AbortSignal {
    return controllerFor(this as SignalRequest).signal;
  },
};
