// Graceful shutdown of one app's servers or several: stop accepting, let the
// requests in flight finish, close each connection as soon as it has nothing
// in flight (HTTP/1: `Connection: close` on what is answered meanwhile;
// HTTP/2: GOAWAY), end what is left when the timeout passes, then run the
// apps' shutdown hooks and report. Nothing here runs before a shutdown.
import type { ServerResponse } from 'node:http';
import * as net from 'node:net';
import type { Socket } from 'node:net';
import type { ShutdownOptions, ShutdownReport } from '../types/lifecycle';
import { toMilliseconds } from './duration';
import { closeWebSockets } from '../websocket/connections';
import { connectionCount, openStreamCount, openStreamsOf, responseOnSocket, trackedSockets } from '../node-internals';
import { appLifecycle, type LifecycleApp, type ServerState, type ServerTally, type Session, serverState, watchServer, type WatchedServer } from './servers';

/** A server, an app (its servers: app.listen()'s and those it adopted), or a list of them. */
export type { ShutdownOptions, ShutdownReport };

export type ShutdownTarget = WatchedServer | LifecycleApp | ReadonlyArray<WatchedServer | LifecycleApp>;

const DEFAULT_TIMEOUT = 10_000;

const DEFAULT_IDLE_GRACE = 1_000;

export async function shutdown(target: ShutdownTarget, options: ShutdownOptions = {}): Promise<ShutdownReport> {
  const started = Date.now();
  const timeout = toMilliseconds(options.timeout ?? DEFAULT_TIMEOUT, 'timeout');
  const readinessDelay = toMilliseconds(options.readinessDelay ?? 0, 'readinessDelay');
  const idleGrace = Math.min(timeout, toMilliseconds(options.idleGrace ?? DEFAULT_IDLE_GRACE, 'idleGrace'));
  const { servers, apps } = resolveTarget(target);
  for (const app of apps) appLifecycle(app).shuttingDown = true;
  let inFlight = 0;
  const closing: Array<Promise<ServerTally>> = [];
  for (const server of servers) {
    const state = serverState(server) ?? watchServer(server);
    if (state.shutdown === undefined) {
      const tally: ServerTally = { cut: 0, answered: 0, closedIdle: 0, closedBeforeRequest: 0, webSockets: 0 };
      inFlight += countAnswered(server, state, tally);
      gateRequests(server, options, tally);
      state.shutdown = delay(readinessDelay).then(() => closeServer(server, state, tally, timeout, idleGrace));
    }
    closing.push(state.shutdown);
  }
  const tallies = await Promise.all(closing);
  const sum = (key: keyof ServerTally) => tallies.reduce((total, tally) => total + tally[key], 0);
  const hookErrors = [...(await appHooks(apps)), ...(await runHooks(options.hooks ?? []))];
  return {
    servers: servers.size,
    inFlight,
    cut: sum('cut'),
    answered: sum('answered'),
    closedIdle: sum('closedIdle'),
    closedBeforeRequest: sum('closedBeforeRequest'),
    webSockets: sum('webSockets'),
    hookErrors,
    durationMs: Date.now() - started,
  };
}

function isServer(value: unknown): value is WatchedServer {
  return typeof (value as WatchedServer).close === 'function' && typeof (value as { listen?: unknown }).listen === 'function' && typeof value === 'object';
}

/** The servers to close and the apps whose hooks run: an app's own, and every app a server serves. */
function resolveTarget(target: ShutdownTarget): { servers: Set<WatchedServer>; apps: Set<LifecycleApp> } {
  const servers = new Set<WatchedServer>();
  const apps = new Set<LifecycleApp>();
  for (const item of Array.isArray(target) ? (target as Array<WatchedServer | LifecycleApp>) : [target as WatchedServer | LifecycleApp]) {
    if (isServer(item)) {
      servers.add(item);
      for (const app of serverState(item)?.apps ?? []) apps.add(app);
    } else {
      apps.add(item);
      for (const server of appLifecycle(item).servers) servers.add(server);
    }
  }
  return { servers, apps };
}

/**
 * Closes one server: it stops listening now; its connections with nothing in
 * flight are closed after `idleGrace`; each answer in flight closes its
 * connection once out; what is left when `timeout` passes is ended. Resolves
 * with the tally once the last connection has closed.
 */
function closeServer(server: WatchedServer, state: ServerState, tally: ServerTally, timeout: number, idleGrace: number): Promise<ServerTally> {
  return new Promise((resolve) => {
    let graceOver = false;
    let closed = false;
    let httpCloseDeferred = false;
    const grace = setTimeout(() => {
      graceOver = true;
      closeIdle(server, state, tally);
      endQuietSessions(state, tally);
      // http's own close() now: what it adds to stopping listening (closing the idle, its timers) is due.
      if (!closed && httpCloseDeferred) server.close();
    }, idleGrace);
    const timer = setTimeout(() => {
      tally.cut = countInFlight(server, state);
      endAll(server, state, tally);
    }, timeout);
    const done = () => {
      closed = true;
      clearTimeout(grace);
      clearTimeout(timer);
      resolve(tally);
    };
    if (idleGrace === 0) {
      // No grace: the idle ones are closed (and counted) before the server's own close() would.
      clearTimeout(grace);
      graceOver = true;
      closeIdle(server, state, tally);
    }
    if (server.listening) httpCloseDeferred = stopListening(server, idleGrace, done);
    else if (connectionCount(server) === 0) done();
    else server.once('close', done);
    // HTTP/2 says it is closing (GOAWAY): a session with no stream open closes now, the others once their streams end.
    for (const session of state.sessions) closeSession(session, tally);
    for (const socket of http1Sockets(server, state)) closeAfterAnswer(server, socket, () => graceOver);
    // Open WebSockets are sent 1001 (Going Away); the timeout ends those that do not close.
    tally.webSockets = closeWebSockets(server);
  });
}

/**
 * Stops accepting connections. An HTTP/1 server's own `close()` also closes
 * its idle kept-alive connections at once (node 19 and later): a proxy may be
 * writing a request onto one at that instant (a 502). So during the grace
 * only the listening socket is closed (net.Server's close, which http's
 * calls), and http's close() runs when the grace ends (true returned).
 */
function stopListening(server: WatchedServer, idleGrace: number, done: () => void): boolean {
  if (idleGrace > 0 && typeof server.closeIdleConnections === 'function' && server instanceof net.Server) {
    net.Server.prototype.close.call(server, done);
    return true;
  }
  server.close(done);
  return false;
}

/**
 * The grace is over: HTTP/1 connections with nothing in flight are closed.
 * One that has received no byte never sent a request (a TCP or TLS
 * preconnect); node's `closeIdleConnections()` leaves it open (it counts as
 * waiting for its first head), so it is destroyed here. One that has
 * received part of a head is waiting for the rest: left to finish or to the
 * timeout.
 */
function closeIdle(server: WatchedServer, state: ServerState, tally: ServerTally): void {
  // An HTTP/2 server's sockets carry sessions, closed and counted by closeSession().
  const http1 = typeof server.closeIdleConnections === 'function';
  for (const socket of http1 ? http1Sockets(server, state) : []) {
    // A TLS socket carrying HTTP/2 (allowHTTP1) is its session's, counted by closeSession().
    if ((socket as { alpnProtocol?: unknown }).alpnProtocol === 'h2') continue;
    if (!socket.destroyed && socket.bytesRead === 0 && inFlightResponse(socket) === undefined) {
      socket.destroy();
      tally.closedBeforeRequest += 1;
    }
  }
  // A TLS server's TCP connection that has received nothing has not begun its handshake.
  for (const socket of state.raw) {
    if (!socket.destroyed && socket.bytesRead === 0) {
      socket.destroy();
      tally.closedBeforeRequest += 1;
    }
  }
  const open = [...http1Sockets(server, state)].filter((socket) => !socket.destroyed);
  server.closeIdleConnections?.();
  // node destroys each idle connection synchronously: the ones now destroyed are those it closed.
  tally.closedIdle += open.filter((socket) => socket.destroyed).length;
}

/** GOAWAY to an HTTP/2 session; counted by what it had done when it closes. */
function closeSession(session: Session, tally: ServerTally): void {
  const open = openStreams(session);
  session.close();
  if (open > 0) return;
  // A session that never received a stream's frames (its last processed stream id is 0) never sent a request.
  const { lastProcStreamID } = (session as Session & { state?: { lastProcStreamID?: number } }).state ?? {};
  if (lastProcStreamID === 0) tally.closedBeforeRequest += 1;
  else tally.closedIdle += 1;
}

/**
 * The grace is over: an HTTP/2 session with no stream open that is still
 * there did not act on its GOAWAY (a peer that never sent the preface, or
 * reads nothing), or came after it (accepted as the server stopped
 * listening): ended, so that it does not hold the shutdown to its timeout.
 */
function endQuietSessions(state: ServerState, tally: ServerTally): void {
  if (state.sessions.size === 0) return;
  for (const session of state.sessions) {
    if (session.destroyed || openStreams(session) > 0) continue;
    if (!session.closed) closeSession(session, tally);
    session.destroy();
  }
  // A closed session ends its socket and waits for the peer's end, which a
  // peer that reads nothing never sends: once all is written, it is destroyed.
  setImmediate(() => {
    for (const socket of state.sockets) if (socket.writableFinished && !socket.destroyed) socket.destroy();
  });
}

/** The readiness delay: the server keeps accepting while `app.shuttingDown` tells load balancers to stop sending. */
function delay(ms: number): Promise<void> {
  return ms > 0 ? new Promise((resolve) => setTimeout(resolve, ms)) : Promise.resolve();
}

/**
 * Requests that arrive from now on (on open connections, or new ones during the readiness delay): answered with
 * `Connection: close` (HTTP/1), or refused with 503 when asked. The app's
 * request listeners are put behind one that decides, so nothing is added to
 * requests before a shutdown.
 */
function gateRequests(server: WatchedServer, options: ShutdownOptions, tally: ServerTally): void {
  const listeners = server.listeners('request') as Array<(this: unknown, req: unknown, res: unknown) => void>;
  const retryAfter = String(options.retryAfter ?? 5);
  server.removeAllListeners('request');
  server.on('request', function closingRequest(this: unknown, req: { resume(): void }, res: ServerResponse) {
    if ('shouldKeepAlive' in res && !res.headersSent) res.shouldKeepAlive = false;
    countWhenFinished(res, tally);
    if (options.refuse === true) {
      refuse(res, retryAfter);
      req.resume();
      return;
    }
    for (const listener of listeners) listener.call(this, req, res);
  });
}

function refuse(res: ServerResponse, retryAfter: string): void {
  res.statusCode = 503;
  res.setHeader('Retry-After', retryAfter);
  res.setHeader('Content-Type', 'text/plain; charset=utf-8');
  res.end('Service Unavailable');
}

/** The HTTP/1 sockets: those tracked, and any node's own list has that trestle did not see open. */
function http1Sockets(server: WatchedServer, state: ServerState): Set<Socket> {
  const sockets = new Set(state.sockets);
  for (const socket of trackedSockets(server) ?? []) sockets.add(socket);
  return sockets;
}

/** node's response in flight on an HTTP/1 socket (what http-terminator and stoppable read too). */
function inFlightResponse(socket: Socket): ServerResponse | undefined {
  const res = responseOnSocket(socket);
  return res != null && !res.writableFinished ? res : undefined;
}

/**
 * A response in flight: `Connection: close` if its head is still to go, and
 * its connection closed by node once it is out. One already streaming with
 * keep-alive leaves its connection idle when done: closed then if the grace
 * is over, else with the other idle ones at its end (a proxy may already be
 * writing its next request on it: that one is served with `Connection: close`).
 */
function closeAfterAnswer(server: WatchedServer, socket: Socket, graceOver: () => boolean): void {
  const res = inFlightResponse(socket);
  if (res === undefined) return;
  if (!res.headersSent) res.shouldKeepAlive = false;
  res.once('close', () => {
    if (graceOver()) server.closeIdleConnections?.();
  });
}

/** A response the shutdown lets finish: counted as answered when it does. */
function countWhenFinished(res: ServerResponse, tally: ServerTally): void {
  res.once('finish', () => (tally.answered += 1));
}

/** The requests in flight now (HTTP/1 answers, HTTP/2 streams), each counted as answered if it finishes. */
function countAnswered(server: WatchedServer, state: ServerState, tally: ServerTally): number {
  for (const socket of http1Sockets(server, state)) {
    const res = inFlightResponse(socket);
    if (res !== undefined) countWhenFinished(res, tally);
  }
  for (const session of state.sessions) {
    for (const stream of openStreamsOf(session)) {
      // A stream that ends without a reset was answered.
      stream.once('close', () => {
        if (stream.rstCode === 0) tally.answered += 1;
      });
    }
  }
  return countInFlight(server, state);
}

function countInFlight(server: WatchedServer, state: ServerState): number {
  let count = 0;
  for (const socket of http1Sockets(server, state)) if (inFlightResponse(socket) !== undefined) count += 1;
  for (const session of state.sessions) count += openStreams(session);
  return count;
}

/** The streams open on an HTTP/2 session. */
function openStreams(session: Session): number {
  return openStreamCount(session) ?? 0;
}

/** The timeout passed: every connection still open is ended (a TLS handshake still going counts as before any request). */
function endAll(server: WatchedServer, state: ServerState, tally: ServerTally): void {
  server.closeAllConnections?.();
  for (const socket of state.sockets) socket.destroy();
  for (const session of state.sessions) session.destroy();
  for (const socket of state.raw) {
    if (socket.destroyed) continue;
    socket.destroy();
    tally.closedBeforeRequest += 1;
  }
}

/** Each app's own hooks run once, however many shutdowns wait for them (a signal, and the app's own call). */
async function appHooks(apps: Set<LifecycleApp>): Promise<unknown[]> {
  const errors: unknown[] = [];
  for (const app of apps) {
    const state = appLifecycle(app);
    state.hooksRun ??= runHooks(state.hooks);
    errors.push(...(await state.hooksRun));
  }
  return errors;
}

async function runHooks(hooks: Array<() => unknown>): Promise<unknown[]> {
  const errors: unknown[] = [];
  for (const hook of hooks) {
    try {
      await hook();
    } catch (err) {
      errors.push(err);
    }
  }
  return errors;
}
