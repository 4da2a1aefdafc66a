// The lifecycle's types: graceful shutdown, signals, deadlines, server limits
// (docs/production.md).
import type { EventEmitter } from 'node:events';
import type * as http from 'node:http';

/** A server trestle can shut down: `http`, `https`, `http2` (cleartext or TLS). */
export interface ShutdownServer extends EventEmitter {
  /** Stops accepting connections; the callback runs once the last one has closed. */
  close(callback?: (err?: Error) => void): unknown;
  /** Starts listening (what tells a server from an app). */
  listen(...args: never[]): unknown;
  /** Whether it is accepting connections. */
  readonly listening: boolean;
}

/** The options of `trestle.shutdown()` and `app.shutdown()`. */
export interface ShutdownOptions {
  /** How long the requests in flight may take before they are cut: milliseconds, or a duration such as `'10s'`. Default 10 s. */
  timeout?: number | string;
  /**
   * Keep accepting for this long (milliseconds or `'5s'`) after `app.shuttingDown`
   * turns true, before the servers stop listening: a load balancer polling a
   * readiness route that answers 503 then sees it and stops sending first.
   * Answers in that time carry `Connection: close`. Default 0.
   */
  readinessDelay?: number | string;
  /** Run after the servers have closed and after the apps' own `onShutdown` hooks, in order; each is awaited. */
  hooks?: Array<() => unknown>;
  /**
   * How long (milliseconds or `'1s'`) a connection with nothing in flight is
   * left open once the servers stop listening: a kept-alive connection that
   * is idle, or one that has not sent a request yet. A request that arrives on
   * it meanwhile is served with `Connection: close`; what is still idle then is
   * closed. A load balancer is then never sent a close at the instant it
   * writes onto a connection it keeps (docs/production.md#behind-nginx). 0:
   * close them at once. Default 1 s; never longer than `timeout`.
   */
  idleGrace?: number | string;
  /** Answer requests that arrive during the shutdown with 503 and `Retry-After` instead of serving them. */
  refuse?: boolean;
  /** `Retry-After` of refused requests, in seconds. Default 5. */
  retryAfter?: number;
}

/** Limits of node's HTTP server (`app.set('server limits', ...)`, `trestle.applyServerLimits()`). */
export interface ServerLimits {
  /** How long an idle kept-alive connection stays open, ms. Default 65 s: longer than the load balancer's idle timeout. */
  keepAliveTimeout?: number;
  /** How long the client may take to send a request's head, ms. Default 66 s. */
  headersTimeout?: number;
  /** How long the client may take to send a whole request, ms. Default 300 s. */
  requestTimeout?: number;
  /** The largest request head, bytes (only when the server is created: app.listen()). Default 16 KiB. */
  maxHeaderSize?: number;
  /** Headers read per request; those past it are dropped. Default 200. */
  maxHeadersCount?: number;
}

/** The options of `trestle.deadline()`. */
export interface DeadlineOptions {
  /** Also cut an answer that has started streaming when the deadline passes (its connection or stream is destroyed). Default false. */
  cutStreaming?: boolean;
}

/** The options of `trestle.shutdownOnSignals()`: the shutdown's, and what the signals do. */
export interface ShutdownSignalsOptions extends ShutdownOptions {
  /** The signals that start the shutdown. Default `['SIGTERM', 'SIGINT']`. */
  signals?: NodeJS.Signals[];
  /** Called (and awaited) with the report before the process exits. */
  onReport?: (report: ShutdownReport) => unknown;
  /** Exit once the shutdown is done: code 0, or 1 when requests were cut or a hook failed. Default true. */
  exit?: boolean;
}

/** What a shutdown did. */
export interface ShutdownReport {
  /** Servers closed. */
  servers: number;
  /** Requests in flight when the shutdown began. */
  inFlight: number;
  /** Requests still unfinished when the timeout passed (answers in flight, requests partly received), whose connections were then ended. */
  cut: number;
  /** Requests answered during the shutdown: those in flight when it began and those that arrived meanwhile, not cut. */
  answered: number;
  /** Connections closed idle: kept-alive connections (HTTP/1) or sessions (HTTP/2) that had carried requests and had none in flight. */
  closedIdle: number;
  /** Connections closed before they sent any request (opened ahead of use by browsers and load balancers; an HTTP/2 session that never opened a stream, or never sent the preface; a TLS handshake never begun). */
  closedBeforeRequest: number;
  /** WebSockets that were open and were sent a close frame with 1001 (Going Away). */
  webSockets: number;
  /** What the hooks threw or rejected with (each hook runs even when one before it failed). */
  hookErrors: unknown[];
  /** Milliseconds from the call to the report. */
  durationMs: number;
}

/** The members of every application for its lifecycle. */
export interface ApplicationLifecycle {
  /** True from the moment a shutdown of this app (or of an app it is mounted on) begins: a readiness route answers 503 then. */
  readonly shuttingDown: boolean;
  /** Registers a hook run after the app's servers have closed (close the database, flush logs); awaited, in order. */
  onShutdown(fn: () => unknown): this;
  /** Shuts down every server of the app (app.listen()'s and those it serves) gracefully; see `trestle.shutdown()`. */
  shutdown(options?: ShutdownOptions): Promise<ShutdownReport>;
}

/** The factory's lifecycle members. */
export interface FactoryLifecycle {
  /**
   * Shuts servers down gracefully: stops accepting, lets the requests in flight
   * finish (`Connection: close` / GOAWAY), closes idle connections, cuts what is
   * left after `timeout`, runs the shutdown hooks, and resolves with a report.
   * `target`: a server, an app (all its servers), or a list of them.
   */
  shutdown(target: ShutdownTarget, options?: ShutdownOptions): Promise<ShutdownReport>;
  /**
   * Opt-in signal handling: the first `SIGTERM` or `SIGINT` starts
   * `trestle.shutdown(target, options)` and exits when it is done; a second
   * signal ends the process at once (exit code 128 + the signal's number).
   * Returns a function that removes the handlers.
   */
  shutdownOnSignals(target: ShutdownTarget, options?: ShutdownSignalsOptions): () => void;
  /** The limits `app.listen()` applies to its server, for a server the app did not create; returns the server. */
  applyServerLimits<S extends ShutdownServer>(server: S, limits?: ServerLimits): S;
  /**
   * A middleware giving the requests through it a deadline (milliseconds or
   * `'5s'`; it replaces the app's `request deadline` setting and any earlier one).
   * When it passes before the answer starts, `req.signal` aborts with a
   * `TimeoutError` and the request goes to the error handlers with a 503
   * (`TRESTLE_ERR_DEADLINE_EXCEEDED`); what the handler writes after that
   * answer has started is dropped.
   */
  deadline(time: number | string, options?: DeadlineOptions): (req: http.IncomingMessage, res: http.ServerResponse, next: (err?: unknown) => void) => void;
}

/** What `trestle.shutdown()` takes: a server, an app (all its servers), or a list of them. */
export type ShutdownTarget = ShutdownServer | ApplicationLifecycle | ReadonlyArray<ShutdownServer | ApplicationLifecycle>;
