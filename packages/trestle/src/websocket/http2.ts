// HTTP/2's seam: WebSockets over the extended CONNECT of RFC 8441. The
// client opens a stream with `:method: CONNECT` and `:protocol: websocket`
// (the server must advertise SETTINGS_ENABLE_CONNECT_PROTOCOL: node's
// `settings: { enableConnectProtocol: true }`); the request goes through the
// app like any other, and a `ws` route's last step answers 200 and runs
// the `ws` package's framing over the stream itself.
import type { Http2ServerRequest, Http2ServerResponse } from 'node:http2';
import { kUpgrade, type PendingUpgrade } from './marker';
import { runHandler } from './handler';
import { trackSocket } from './connections';
import { socketOverStream } from './ws-library';
import { maxPayloadOf } from './handshake';

interface Http2App {
  settings: Record<string, unknown>;
}

/** Marks an extended CONNECT for WebSocket as an upgrade; called by the app for HTTP/2 CONNECT requests. */
export function markHttp2Upgrade(app: Http2App, req: Http2ServerRequest): void {
  if (req.headers[':protocol'] !== 'websocket') return;
  (req as Http2ServerRequest & { [kUpgrade]?: PendingUpgrade })[kUpgrade] = {
    accept(request, response, handler, next) {
      const res = response as Http2ServerResponse;
      if ((request as Http2ServerRequest).headers['sec-websocket-version'] !== '13') {
        res.statusCode = 400;
        res.end('Missing or invalid Sec-WebSocket-Version header');
        return;
      }
      res.writeHead(200);
      const ws = socketOverStream(res.stream, maxPayloadOf(app.settings));
      // As on HTTP/1.1: a bad client's error closes its socket, never the process.
      ws.on('error', () => {});
      // Tracked on its server for shutdown's 1001, as HTTP/1.1 sockets are.
      const server = ((request as Http2ServerRequest).socket as { server?: object } | undefined)?.server;
      if (server !== undefined) trackSocket(server, ws);
      runHandler(handler, ws, request, next, app.settings.env);
    },
  };
}
