// What makes a WebSocket handshake request invalid (RFC 6455, 4.2.1), said
// before the socket is accepted so the refusal goes through `res` (and the
// request log) on every server and runtime; and the message size limit
// every seam applies.

interface HandshakeRequest {
  method?: string | undefined;
  headers: Record<string, string | string[] | undefined>;
}

/** Why `req` is not a valid handshake, or undefined. */
export function handshakeProblem(req: HandshakeRequest): string | undefined {
  if (req.method !== 'GET') return 'WebSocket handshakes use GET';
  const key = req.headers['sec-websocket-key'];
  if (typeof key !== 'string' || !/^[+/0-9A-Za-z]{22}==$/.test(key)) return 'Missing or invalid Sec-WebSocket-Key header';
  const version = req.headers['sec-websocket-version'];
  if (version !== '13' && version !== '8') return 'Missing or invalid Sec-WebSocket-Version header';
  return undefined;
}

interface PlainResponse {
  statusCode: number;
  setHeader(name: string, value: string): unknown;
  end(body: string): unknown;
}

/** Answers 400 when `req` is not a valid handshake; true when it did. */
export function refusedHandshake(req: HandshakeRequest, res: PlainResponse): boolean {
  const problem = handshakeProblem(req);
  if (problem === undefined) return false;
  res.statusCode = 400;
  res.setHeader('Content-Type', 'text/plain; charset=utf-8');
  res.end(problem);
  return true;
}

/** The default largest message a client may send (bytes); larger ones close the socket with 1009. */
export const DEFAULT_MAX_PAYLOAD = 1024 * 1024;

/** The app's `websocket max payload` setting, or the default. */
export function maxPayloadOf(settings: Record<string, unknown>): number {
  const max = settings['websocket max payload'];
  return typeof max === 'number' && max > 0 ? max : DEFAULT_MAX_PAYLOAD;
}
