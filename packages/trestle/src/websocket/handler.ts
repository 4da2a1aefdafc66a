// Calling a `ws` route's last handler once its socket is open. After the
// 101 no HTTP answer can be sent, so an error it throws (or a promise it
// returns rejects with) closes the socket with 1011 (Internal Error) and is
// logged as Express's final handler logs errors.

type Next = (err?: unknown) => void;

interface Closable {
  close(code?: number, reason?: string): void;
  readyState: number;
}

function failed(ws: Closable, err: unknown, env: unknown): void {
  if (env !== 'test') console.error(err instanceof Error ? (err.stack ?? err.message) : err);
  if (ws.readyState <= 1) ws.close(1011, 'Internal Error');
}

/** Calls `handler(ws, req, next)`; its `next(err)` and its failures close the socket with 1011. */
export function runHandler(handler: (ws: never, req: never, next: Next) => unknown, ws: Closable, req: object, _next: Next, env: unknown): void {
  const next: Next = (err) => {
    if (err !== undefined && err !== null && err !== 'route' && err !== 'router') failed(ws, err, env);
  };
  try {
    const result = handler(ws as never, req as never, next) as { then?: unknown } | undefined;
    if (result !== null && typeof result === 'object' && typeof result.then === 'function') {
      (result as Promise<unknown>).then(undefined, (err: unknown) => failed(ws, err, env));
    }
  } catch (err) {
    failed(ws, err, env);
  }
}
