// WebSocket routes: `app.ws(path, ...middleware, (ws, req) => ...)` and the
// same on routers, with `req.params` typed from the path as other routes are.
import type { Generation, LocalsRecord, RequestOf } from './generation';
import type { HandlerArg, NextFunction, RequestHandler } from './handlers';
import type { ParamsDictionary, ParamsOfSyntax, ParsedQs } from './params';
import type { PathParams } from './router';

/** The data of a message: text arrives as a Buffer unless `ws.binaryType` is changed (the `ws` package's default). */
export type WebSocketData = Buffer | ArrayBuffer | Buffer[];

/** The open socket a `ws` route's last handler receives: the `ws` package's WebSocket on Node. */
export interface WebSocket {
  /** 0 connecting, 1 open, 2 closing, 3 closed. */
  readonly readyState: 0 | 1 | 2 | 3;
  /** Bytes queued by `send()` and not yet handed to the network: the measure of backpressure. */
  readonly bufferedAmount: number;
  /** The subprotocol the server chose, or `''`. */
  readonly protocol: string;
  /** How binary messages are given: `nodebuffer` (default), `arraybuffer` or `fragments`. */
  binaryType: 'nodebuffer' | 'arraybuffer' | 'fragments';
  /** Sends a text (string) or binary message; `callback` is called once it is written, or with the error. */
  send(data: string | Buffer | ArrayBuffer | ArrayBufferView, callback?: (err?: Error) => void): void;
  /** Sends a message; see the first signature. */
  send(data: string | Buffer | ArrayBuffer | ArrayBufferView, options: { binary?: boolean; compress?: boolean; fin?: boolean }, callback?: (err?: Error) => void): void;
  /** Starts the closing handshake with a code (1000 by default) and reason. */
  close(code?: number, reason?: string | Buffer): void;
  /** Ends the connection at once, without the closing handshake. */
  terminate(): void;
  /** Sends a ping; the client answers with a pong. */
  ping(data?: string | Buffer, mask?: boolean, callback?: (err?: Error) => void): void;
  /** Sends an unsolicited pong. */
  pong(data?: string | Buffer, mask?: boolean, callback?: (err?: Error) => void): void;
  /** Stops (and resumes) reading from the client. */
  pause(): void;
  /** Resumes reading after `pause()`. */
  resume(): void;
  /** Listens to an event of the socket. */
  on(event: 'message', listener: (data: WebSocketData, isBinary: boolean) => void): this;
  /** Listens to an event of the socket. */
  on(event: 'close', listener: (code: number, reason: Buffer) => void): this;
  /** Listens to an event of the socket. */
  on(event: 'error', listener: (err: Error) => void): this;
  /** Listens to an event of the socket. */
  on(event: 'ping' | 'pong', listener: (data: Buffer) => void): this;
  /** Listens to an event of the socket. */
  on(event: string | symbol, listener: (...args: never[]) => void): this;
  /** Listens to the next event of a kind. */
  once(event: 'message', listener: (data: WebSocketData, isBinary: boolean) => void): this;
  /** Listens to the next event of a kind. */
  once(event: 'close', listener: (code: number, reason: Buffer) => void): this;
  /** Listens to the next event of a kind. */
  once(event: string | symbol, listener: (...args: never[]) => void): this;
  /** Removes a listener. */
  off(event: string | symbol, listener: (...args: never[]) => void): this;
}

/** The last handler of a `ws` route: the open socket and the upgrade request (after every middleware ran). */
export type WebSocketHandler<P = ParamsDictionary, G extends Generation = 'v5'> = (
  ws: WebSocket,
  req: RequestOf<G, P, unknown, unknown, ParsedQs, LocalsRecord>,
  next: NextFunction,
) => unknown;

/** `app.ws(path, ...middleware, (ws, req) => ...)`: middleware typed as routes' are, the last handler gets the socket. */
export interface WebSocketMatcher<This, G extends Generation = 'v5'> {
  <Path extends string>(path: Path, handler: WebSocketHandler<ParamsOfSyntax<Path, G>, G>): This;
  <Path extends string>(path: Path, middleware: RequestHandler<ParamsOfSyntax<Path, G>, unknown, unknown, ParsedQs, LocalsRecord, G>, handler: WebSocketHandler<ParamsOfSyntax<Path, G>, G>): This;
  <Path extends string>(
    path: Path,
    first: RequestHandler<ParamsOfSyntax<Path, G>, unknown, unknown, ParsedQs, LocalsRecord, G>,
    second: RequestHandler<ParamsOfSyntax<Path, G>, unknown, unknown, ParsedQs, LocalsRecord, G>,
    handler: WebSocketHandler<ParamsOfSyntax<Path, G>, G>,
  ): This;
  <Path extends string>(
    path: Path,
    ...handlers: [...Array<RequestHandler<ParamsOfSyntax<Path, G>, unknown, unknown, ParsedQs, LocalsRecord, G> | HandlerArg<ParamsOfSyntax<Path, G>, unknown, unknown, ParsedQs, G>>, WebSocketHandler<ParamsOfSyntax<Path, G>, G>]
  ): This;
  (path: PathParams, ...handlers: [...Array<HandlerArg<ParamsDictionary, unknown, unknown, ParsedQs, G>>, WebSocketHandler<ParamsDictionary, G>]): This;
}

/** Which origins `trestle.checkOrigin()` lets open a socket: one, a list, or a test. */
export type AllowedOrigins = string | readonly string[] | ((origin: string | undefined, req: unknown) => boolean);

declare module './router' {
  interface RouterMethods<G extends Generation = 'v5'> {
    /** A WebSocket route: middleware `(req, res, next)` runs for the upgrade request, then the last handler gets `(ws, req)`. */
    ws: WebSocketMatcher<this, G>;
  }
}

declare module './factory' {
  interface FactoryMembers<G extends Generation = 'v5'> {
    /**
     * Serves the app's `ws` routes on a server made with `http.createServer(app)`
     * or `https.createServer(options, app)` (upgrades never reach a request
     * listener); `app.listen()` does it by itself. Returns the server.
     */
    attachWebSockets<S extends import('node:http').Server>(server: S, app: (req: import('node:http').IncomingMessage, res: import('node:http').ServerResponse) => void): S;
    /** A middleware for a `ws` route that refuses (403) handshakes from other origins. */
    checkOrigin(allowed: AllowedOrigins): Middleware;
    /**
     * The `websocket` handlers Bun.serve needs beside `fetch: app.fetch` to
     * serve the app's `ws` routes: `Bun.serve({ fetch: app.fetch, websocket: trestle.bunWebSocket })`.
     */
    readonly bunWebSocket: import('../platforms/bun-websocket').BunWebSocketHandlers;
  }
}
