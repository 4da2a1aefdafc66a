// Requests from node's HTTP/2 server (`http2.createServer(app)`,
// `http2.createSecureServer({ allowHTTP1: true, ... }, app)`): they are
// instances of Http2ServerRequest/Http2ServerResponse, not of node:http's
// classes, so the app's HTTP/1.1 prototypes cannot be theirs (node:http's
// `_read` and `socket` would break the stream). Each app gets a second pair,
// made on its first HTTP/2 request: subclasses of node's HTTP/2 classes
// carrying the same members.
//
// The HTTP/1.1 prototypes stay the source of truth: `app.request`,
// `trestle.request` and a parent app's `request` are what users extend. The
// HTTP/2 chain mirrors that chain level by level (each level's members
// defined the same way, the same functions and getters), above a layer with
// HTTP/2's own fixes (response/http2.ts) and node's HTTP/2 prototype:
//
//   HTTP/1.1: app.request -> [parent app's] -> trestle.request -> IncomingMessage.prototype
//   HTTP/2:   mirror      -> [mirror]       -> mirror          -> fixes -> Http2ServerRequest.prototype
//
// A plain object cannot tell when a member is added to it, and listing an
// object's keys costs about a microsecond, too much for every request. So a
// mirror is brought up to date when an app first sees a new HTTP/2 session
// (a connection): members added before a client connects are there, as they
// are for every request in Express when added at setup.
//
// Loaded only when an HTTP/2 request arrives, so an HTTP/1.1 app never loads
// node:http2 (6 ms).
import { IncomingMessage, ServerResponse } from 'node:http';
import { type Http2Server, Http2ServerRequest, Http2ServerResponse, type ServerHttp2Session, type ServerHttp2Stream, type ServerOptions, createServer } from 'node:http2';
import { installHttp2Response, useFastHeaders } from '../response/http2';
import { addSession, watchServer, type LifecycleApp } from '../lifecycle/servers';
import { http2ServerOptions } from '../node-internals';

/** What this module needs of an application. */
export interface Http2App {
  request: object;
  response: object;
  /** The app's HTTP/1.1 classes (for the HTTP/1.1 connections of an `allowHTTP1` server). */
  _classes: { IncomingMessage: unknown; ServerResponse: unknown };
  _http2?: Http2Prototypes | undefined;
}

export interface Http2Prototypes {
  request: object;
  response: object;
  /** The classes whose prototypes those are, for node's server options. */
  Request: unknown;
  Response: unknown;
  /** Sessions this app has brought its prototypes up to date for. */
  sessions: WeakSet<object>;
}

/** The HTTP/2 counterpart of each HTTP/1.1 prototype level mirrored so far. */
const mirrors = new WeakMap<object, object>();

// The layers right above node's HTTP/2 prototypes, shared by every app.
// Other names for node's classes, so that the app's subclasses can take theirs (see create()).
const NodeHttp2ServerRequest = Http2ServerRequest;
const NodeHttp2ServerResponse = Http2ServerResponse;
const requestBase: object = Object.create(Http2ServerRequest.prototype) as object;
const responseBase: object = Object.create(Http2ServerResponse.prototype) as object;
installHttp2Response(responseBase);

interface Side {
  /** node:http's prototype, where the HTTP/1.1 chain ends. */
  http1: object;
  /** The shared HTTP/2 layer the mirrors end on. */
  base: object;
}
const requestSide: Side = { http1: IncomingMessage.prototype, base: requestBase };
const responseSide: Side = { http1: ServerResponse.prototype, base: responseBase };

function sameDescriptor(a: PropertyDescriptor, b: PropertyDescriptor | undefined): boolean {
  return (
    b !== undefined &&
    a.value === b.value &&
    a.get === b.get &&
    a.set === b.set &&
    a.writable === b.writable &&
    a.enumerable === b.enumerable &&
    a.configurable === b.configurable
  );
}

/** Makes `mirror`'s own members those of `level` (its own `constructor` aside). */
function copyMembers(level: object, mirror: object): void {
  for (const key of Reflect.ownKeys(level)) {
    if (key === 'constructor') continue;
    const descriptor = Object.getOwnPropertyDescriptor(level, key)!;
    if (!sameDescriptor(descriptor, Object.getOwnPropertyDescriptor(mirror, key))) Object.defineProperty(mirror, key, descriptor);
  }
  for (const key of Reflect.ownKeys(mirror)) {
    if (key !== 'constructor' && !Object.prototype.hasOwnProperty.call(level, key)) Reflect.deleteProperty(mirror, key);
  }
}

/** Does the HTTP/1.1 chain end here (node's prototype, or no prototype trestle made)? */
function isEnd(level: object | null, side: Side): boolean {
  return level === null || level === side.http1 || level === Object.prototype;
}

/** Brings the HTTP/2 chain of `top` (an app's `request` or `response`) up to date with the HTTP/1.1 one. */
function sync(top: object, side: Side): void {
  for (let level = top; ; ) {
    let mirror = mirrors.get(level);
    if (mirror === undefined) {
      mirror = Object.create(side.base) as object;
      mirrors.set(level, mirror);
    }
    copyMembers(level, mirror);
    const parent = Object.getPrototypeOf(level) as object | null;
    const end = isEnd(parent, side);
    const mirrorParent = end ? side.base : (mirrors.get(parent!) ?? Object.create(side.base));
    if (!end && !mirrors.has(parent!)) mirrors.set(parent!, mirrorParent);
    if (Object.getPrototypeOf(mirror) !== mirrorParent) Object.setPrototypeOf(mirror, mirrorParent);
    if (end) return;
    level = parent!;
  }
}

/**
 * The app's HTTP/2 prototypes: prototypes of subclasses of node's classes,
 * named as node's (`req.constructor.name` is `Http2ServerRequest`, as for
 * HTTP/1.1 it is `IncomingMessage`).
 */
function create(app: Http2App): Http2Prototypes {
  const AppHttp2Request = class Http2ServerRequest extends NodeHttp2ServerRequest {};
  // A response made by an adopted server gets a fast-mode header object (response/http2.ts).
  const AppHttp2Response = class Http2ServerResponse extends NodeHttp2ServerResponse {
    // node makes it with the stream alone (its onServerStream).
    constructor(stream: ServerHttp2Stream) {
      super(stream);
      useFastHeaders(this);
    }
  };
  mirrors.set(app.request, AppHttp2Request.prototype);
  mirrors.set(app.response, AppHttp2Response.prototype);
  const protos: Http2Prototypes = {
    request: AppHttp2Request.prototype,
    response: AppHttp2Response.prototype,
    Request: AppHttp2Request,
    Response: AppHttp2Response,
    sessions: new WeakSet(),
  };
  app._http2 = protos;
  return protos;
}

/** On a session: the prototypes of the app that last brought them up to date for it. */
const kSyncedFor = Symbol('trestle.http2.syncedFor');

/** Is this a request from node's HTTP/2 compatibility API? */
export function isHttp2Request(req: object): boolean {
  return req instanceof Http2ServerRequest;
}

/**
 * The app's HTTP/2 prototypes, up to date for the request's session. Also
 * gives the request a `Host` header from `:authority` when it has none, as
 * HTTP/1.1 requests always have one (`req.get('host')`, `req.hostname`).
 */
export function http2Prototypes(app: Http2App, req: Http2ServerRequest): Http2Prototypes {
  let protos = app._http2;
  const session = req.stream.session as (ServerHttp2Session & { [kSyncedFor]?: Http2Prototypes }) | undefined;
  if (protos === undefined || (session !== undefined && session[kSyncedFor] !== protos && !protos.sessions.has(session))) {
    protos ??= create(app);
    if (session !== undefined) {
      protos.sessions.add(session);
      // Read before the WeakSet on the session's next request (the last app to sync it, usually its only one).
      session[kSyncedFor] = protos;
      adoptServer(app, protos, session.server as Http2Server | undefined, session);
    }
    sync(app.request, requestSide);
    sync(app.response, responseSide);
  }
  const headers = req.headers;
  if (headers.host === undefined && headers[':authority'] !== undefined) headers.host = headers[':authority'];
  return protos;
}

const kAdopted = Symbol('trestle.http2.adopted');
const noop = () => undefined;

/**
 * `http2.createServer(app)`: give the server the app's classes, so its
 * requests are made with them and need no prototype switch. In V8 the
 * switch itself is cheap, but every property then stored on the object (the
 * router stores several) takes a slow path: measured, 40 µs a request, more
 * than node's whole HTTP/2 answer.
 *
 * node reads its `Http2ServerRequest`/`Http2ServerResponse` options once,
 * when the first 'request' listener is added, binding them into the 'stream'
 * listener that makes each request. So the server's own stream listener is
 * replaced by node's same function bound to the app's classes: taken from a
 * server of ours (never listening) made with those options, whose `emit` and
 * `listenerCount` are the real server's, the only members node's function
 * uses. Done only when the app is the server's one request listener and the
 * server has node's one stream listener, as node made it; else requests keep
 * switching prototypes, as in Express. The HTTP/1.1 connections of an
 * `allowHTTP1` server read their classes from the options on each
 * connection: those get the app's HTTP/1.1 classes.
 */
function adoptServer(app: Http2App, protos: Http2Prototypes, server: (Http2Server & { [kAdopted]?: boolean }) | undefined, session: ServerHttp2Session): void {
  if (server === undefined || server[kAdopted]) return;
  server[kAdopted] = true;
  addSession(watchServer(server, app as LifecycleApp), session);
  const requests = server.listeners('request');
  const streams = server.listeners('stream');
  if (requests.length !== 1 || requests[0] !== (app as unknown) || streams.length !== 1 || streams[0]!.name !== 'bound onServerStream') return;
  const donor = createServer({ Http2ServerRequest: protos.Request, Http2ServerResponse: protos.Response } as ServerOptions, noop);
  const made = donor.listeners('stream');
  if (made.length !== 1 || made[0]!.name !== 'bound onServerStream') return;
  donor.emit = server.emit.bind(server);
  donor.listenerCount = server.listenerCount.bind(server);
  server.removeListener('stream', streams[0] as never);
  server.on('stream', made[0] as never);
  adoptHttp1(app, server);
}

/** An `allowHTTP1` server's HTTP/1.1 classes, in the options node reads on each connection. */
function adoptHttp1(app: Http2App, server: Http2Server): void {
  const options = http2ServerOptions(server);
  if (options === undefined || options.allowHTTP1 !== true) return;
  if (options.Http1IncomingMessage === IncomingMessage) options.Http1IncomingMessage = app._classes.IncomingMessage;
  if (options.Http1ServerResponse === ServerResponse) options.Http1ServerResponse = app._classes.ServerResponse;
}
