// The `ws` package, loaded by the first upgrade a route accepts: an app
// that never accepts a WebSocket never loads it. Typed here to the few
// members trestle uses, so trestle's types do not depend on @types/ws.
import type { IncomingMessage } from 'node:http';
import type { Duplex } from 'node:stream';
import { lazy } from '../lazy';
import type { OpenSocket } from './connections';

/** The server side of `ws`, used without a server of its own (`noServer`). */
export interface HandshakeServer {
  options: { maxPayload: number };
  handleUpgrade(req: IncomingMessage, socket: Duplex, head: Buffer, callback: (ws: NodeWebSocket) => void): void;
}

/** A `ws` WebSocket, as trestle's own code uses it. */
export interface NodeWebSocket extends OpenSocket {
  on(event: string, listener: (...args: never[]) => void): unknown;
}

interface ServerSideSocket extends NodeWebSocket {
  setSocket(stream: Duplex, head: Buffer, options: { maxPayload: number; skipUTF8Validation: boolean; allowSynchronousEvents: boolean }): void;
}

interface WsModule {
  WebSocketServer: new (options: { noServer: true; maxPayload: number; clientTracking: boolean }) => HandshakeServer;
  WebSocket: new (address: null, protocols: undefined, options: { autoPong: boolean }) => ServerSideSocket;
}

const wsModule = lazy(() => require('ws') as WsModule);

const servers = new WeakMap<object, HandshakeServer>();

/** The handshake server for `app`, made again when its `websocket max payload` setting changed. */
export function handshakeServer(app: object, maxPayload: number): HandshakeServer {
  let server = servers.get(app);
  if (server === undefined || server.options.maxPayload !== maxPayload) {
    server = new (wsModule().WebSocketServer)({ noServer: true, maxPayload, clientTracking: false });
    servers.set(app, server);
  }
  return server;
}

/**
 * A server-side `ws` WebSocket framing over a stream that is already past
 * its handshake (an HTTP/2 extended CONNECT stream). `new WebSocket(null)`
 * and `setSocket` are what `ws`'s own server does after its handshake.
 */
export function socketOverStream(stream: Duplex, maxPayload: number): NodeWebSocket {
  // As ws's own server makes them: answering pings by itself.
  const ws = new (wsModule().WebSocket)(null, undefined, { autoPong: true });
  ws.setSocket(stream, Buffer.alloc(0), { maxPayload, skipUTF8Validation: false, allowSynchronousEvents: true });
  return ws;
}
