// Graceful shutdown of one app's servers or several: stop accepting, let the
// requests in flight finish, close each connection as soon as it has nothing
// in flight (HTTP/1: `Connection: close` on what is answered meanwhile;
// HTTP/2: GOAWAY), end what is left when the timeout passes, then run the
// apps' shutdown hooks and report. Nothing here runs before a shutdown.
import type { ServerResponse } from 'node:http';
import type { Socket } from 'node:net';
import type { ShutdownOptions, ShutdownReport } from '../types/lifecycle';
import { toMilliseconds } from './duration';
import { closeWebSockets } from '../websocket/connections';
import { appLifecycle, type LifecycleApp, type ServerState, type Session, serverState, watchServer, type WatchedServer } from './servers';

/** A server, an app (its servers: app.listen()'s and those it adopted), or a list of them. */
export type { ShutdownOptions, ShutdownReport };

export type ShutdownTarget = WatchedServer | LifecycleApp | ReadonlyArray<WatchedServer | LifecycleApp>;

const DEFAULT_TIMEOUT = 10_000;

export async function shutdown(target: ShutdownTarget, options: ShutdownOptions = {}): Promise<ShutdownReport> {
  const started = Date.now();
  const timeout = toMilliseconds(options.timeout ?? DEFAULT_TIMEOUT, 'timeout');
  const readinessDelay = toMilliseconds(options.readinessDelay ?? 0, 'readinessDelay');
  const { servers, apps } = resolveTarget(target);
  for (const app of apps) appLifecycle(app).shuttingDown = true;
  let inFlight = 0;
  const closing: Array<Promise<number>> = [];
  for (const server of servers) {
    const state = serverState(server) ?? watchServer(server);
    if (state.shutdown === undefined) {
      inFlight += countInFlight(server, state);
      gateRequests(server, options);
      state.shutdown = delay(readinessDelay).then(() => closeServer(server, state, timeout));
    }
    closing.push(state.shutdown);
  }
  const cut = (await Promise.all(closing)).reduce((a, b) => a + b, 0);
  const hookErrors = [...(await appHooks(apps)), ...(await runHooks(options.hooks ?? []))];
  return { servers: servers.size, inFlight, cut, hookErrors, durationMs: Date.now() - started };
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

/** Resolves with the number of requests cut when the timeout passed (0 when all finished). */
function closeServer(server: WatchedServer, state: ServerState, timeout: number): Promise<number> {
  return new Promise((resolve) => {
    let cut = 0;
    const timer = setTimeout(() => {
      cut = countInFlight(server, state);
      endAll(server, state);
    }, timeout);
    const done = () => {
      clearTimeout(timer);
      resolve(cut);
    };
    if (server.listening) server.close(done);
    else if ((server as { _connections?: number })._connections === 0) done();
    else server.once('close', done);
    for (const socket of http1Sockets(server, state)) closeAfterAnswer(server, socket);
    for (const session of state.sessions) session.close();
    // Open WebSockets are sent 1001 (Going Away); the timeout ends those that do not close.
    closeWebSockets(server);
    server.closeIdleConnections?.();
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
function gateRequests(server: WatchedServer, options: ShutdownOptions): void {
  const listeners = server.listeners('request') as Array<(this: unknown, req: unknown, res: unknown) => void>;
  const retryAfter = String(options.retryAfter ?? 5);
  server.removeAllListeners('request');
  server.on('request', function closingRequest(this: unknown, req: { resume(): void }, res: ServerResponse) {
    if ('shouldKeepAlive' in res && !res.headersSent) res.shouldKeepAlive = false;
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
  const list = nodeSlot(server, 'http.server.connections') as { all?(): Array<{ socket?: Socket | null }> } | undefined;
  if (typeof list?.all === 'function') {
    for (const parser of list.all()) if (parser.socket) sockets.add(parser.socket);
  }
  return sockets;
}

/** node's response in flight on an HTTP/1 socket (what http-terminator and stoppable read too). */
function inFlightResponse(socket: Socket): ServerResponse | undefined {
  const res = (socket as Socket & { _httpMessage?: ServerResponse | null })._httpMessage;
  return res != null && !res.writableFinished ? res : undefined;
}

/** A response in flight: `Connection: close` if its head is still to go, and its connection closed once it is done. */
function closeAfterAnswer(server: WatchedServer, socket: Socket): void {
  const res = inFlightResponse(socket);
  if (res === undefined) return;
  if (!res.headersSent) res.shouldKeepAlive = false;
  res.once('close', () => server.closeIdleConnections?.());
}

function countInFlight(server: WatchedServer, state: ServerState): number {
  let count = 0;
  for (const socket of http1Sockets(server, state)) if (inFlightResponse(socket) !== undefined) count += 1;
  for (const session of state.sessions) count += openStreams(session);
  return count;
}

/** The streams open on an HTTP/2 session (node keeps them in its session state; no public count). */
function openStreams(session: Session): number {
  // node's own Map subclass, made from its primordials: not `instanceof Map` here.
  const size = (nodeSlot(session, 'state') as { streams?: { size?: unknown } } | undefined)?.streams?.size;
  return typeof size === 'number' ? size : 0;
}

/** The timeout passed: every connection still open is ended. */
function endAll(server: WatchedServer, state: ServerState): void {
  server.closeAllConnections?.();
  for (const socket of state.sockets) socket.destroy();
  for (const session of state.sessions) session.destroy();
}

/** An internal slot node keeps under a symbol, found by the symbol's description. */
function nodeSlot(object: object, description: string): unknown {
  const symbol = Object.getOwnPropertySymbols(object).find((s) => s.description === description);
  return symbol === undefined ? undefined : (object as Record<symbol, unknown>)[symbol];
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
