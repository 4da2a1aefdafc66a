// Per-server lifecycle state: the apps a server serves and its open
// connections (HTTP/1 sockets, HTTP/2 sessions), kept on the server itself
// from the moment trestle first sees it (app.listen() creates it; a server
// made by `http.createServer(app)` or `http2.createServer(app)` is watched
// when the app adopts it, on its first request). Tracking costs one listener
// call per connection (two on a TLS server, whose TCP connections are kept
// too while open, so a shutdown can close one that never
// began it), never per request.
import type { EventEmitter } from 'node:events';
import type { Socket } from 'node:net';
import { addOwnProperty } from '../fast-properties';

/** What the lifecycle needs of an application (kept here so the core's types point down). */
export interface LifecycleApp {
  [kAppLifecycle]?: AppLifecycle;
}

/** Per-app lifecycle state: its servers, its shutdown hooks, whether a shutdown began. */
export interface AppLifecycle {
  servers: Set<WatchedServer>;
  hooks: Array<() => unknown>;
  shuttingDown: boolean;
  /** The run of `hooks` once a shutdown got to them: what they threw. */
  hooksRun?: Promise<unknown[]>;
}

/** An HTTP/2 session as far as shutdown needs it. */
export interface Session extends EventEmitter {
  closed: boolean;
  destroyed: boolean;
  close(): void;
  destroy(): void;
}

/** A node server of any kind (http, https, http2, http2 secure). */
export interface WatchedServer extends EventEmitter {
  close(callback?: (err?: Error) => void): unknown;
  listening: boolean;
  closeIdleConnections?: () => void;
  closeAllConnections?: () => void;
  [kServerState]?: ServerState;
}

export interface ServerState {
  apps: Set<LifecycleApp>;
  /** Sockets carrying HTTP/1 (for https: the TLS sockets, which hold the response in flight). */
  sockets: Set<Socket>;
  sessions: Set<Session>;
  /** A TLS server's TCP connections, open until closed: one that never finishes its handshake never becomes a socket above. */
  raw: Set<Socket>;
  /** The shutdown of this server once begun. */
  shutdown?: Promise<ServerTally>;
}

/** What the shutdown of one server did (the report adds them up). */
export interface ServerTally {
  cut: number;
  answered: number;
  closedIdle: number;
  closedBeforeRequest: number;
  webSockets: number;
}

export const kServerState = Symbol('trestle.lifecycle.server');
export const kAppLifecycle = Symbol('trestle.lifecycle.app');

/** The app's lifecycle state, made on first use. */
export function appLifecycle(app: LifecycleApp): AppLifecycle {
  let state = app[kAppLifecycle];
  if (state === undefined) {
    state = { servers: new Set(), hooks: [], shuttingDown: false };
    // Not a keyed store: that would make the app a dictionary (fast-properties.ts).
    addOwnProperty(app, kAppLifecycle, state);
  }
  return state;
}

/**
 * Starts tracking `server`'s connections for `app`. `socket` is the
 * connection of the request that made trestle see the server, when that
 * came after the server was already serving.
 */
export function watchServer(server: WatchedServer, app?: LifecycleApp, socket?: Socket): ServerState {
  let state = server[kServerState];
  if (state === undefined) {
    state = { apps: new Set(), sockets: new Set(), sessions: new Set(), raw: new Set() };
    server[kServerState] = state;
    track(server, state);
  }
  if (app !== undefined && !state.apps.has(app)) {
    state.apps.add(app);
    const servers = appLifecycle(app).servers;
    servers.add(server);
    // A closed server is let go (tests and tools make many short-lived servers for one app).
    server.once('close', () => servers.delete(server));
  }
  if (socket !== undefined) addSocket(state.sockets, socket);
  return state;
}

export function serverState(server: WatchedServer): ServerState | undefined {
  return server[kServerState];
}

function track(server: WatchedServer, state: ServerState): void {
  // A TLS server's HTTP/1 requests run on the TLS socket it emits after the handshake.
  const tls = typeof (server as { addContext?: unknown }).addContext === 'function';
  server.on(tls ? 'secureConnection' : 'connection', (socket: Socket) => addSocket(state.sockets, socket));
  if (tls) server.on('connection', (socket: Socket) => addSocket(state.raw, socket));
  server.on('session', (session: Session) => addSession(state, session));
}

function addSocket(sockets: Set<Socket>, socket: Socket): void {
  if (sockets.has(socket) || socket.destroyed) return;
  sockets.add(socket);
  socket.once('close', () => sockets.delete(socket));
}

export function addSession(state: ServerState, session: Session): void {
  if (state.sessions.has(session) || session.destroyed) return;
  state.sessions.add(session);
  session.once('close', () => state.sessions.delete(session));
}
