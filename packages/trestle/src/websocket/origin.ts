// `trestle.checkOrigin(allowed)`: a middleware a `ws` route can ask for.
// Browsers send the page's origin with every WebSocket handshake but do not
// apply CORS to it, so a site that authenticates sockets by cookie must
// check it (Cross-Site WebSocket Hijacking). Refuses other origins with 403.

type Next = (err?: unknown) => void;

/** An origin string (`https://example.com`), a list of them, or a test. */
export type AllowedOrigins = string | readonly string[] | ((origin: string | undefined, req: unknown) => boolean);

interface OriginRequest {
  headers: { origin?: string | undefined };
}
interface PlainResponse {
  statusCode: number;
  setHeader(name: string, value: string): unknown;
  end(body: string): unknown;
}

function allows(allowed: AllowedOrigins, origin: string | undefined, req: unknown): boolean {
  if (typeof allowed === 'function') return allowed(origin, req);
  if (origin === undefined) return false;
  return typeof allowed === 'string' ? allowed === origin : allowed.includes(origin);
}

export function checkOrigin(allowed: AllowedOrigins) {
  return function checkOrigin(req: OriginRequest, res: PlainResponse, next: Next): void {
    if (allows(allowed, req.headers.origin, req)) {
      next();
      return;
    }
    res.statusCode = 403;
    res.setHeader('Content-Type', 'text/plain; charset=utf-8');
    res.end('Forbidden origin');
  };
}
