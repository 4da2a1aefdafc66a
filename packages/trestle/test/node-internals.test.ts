// The self-check of src/node-internals.ts, run on every supported Node (CI
// runs every test file on 20, 22, 24 and 26): each private field or symbol
// trestle reads or replaces is looked for on live objects of this Node, and
// a failure names the field, so a Node release that moves one breaks this
// test instead of silently turning a feature off or into a hang.
import assert from 'node:assert/strict';
import { once } from 'node:events';
import http, { IncomingMessage, OutgoingMessage, ServerResponse } from 'node:http';
import http2 from 'node:http2';
import net, { type AddressInfo } from 'node:net';
import { join } from 'node:path';
import { test } from 'node:test';
import {
  clearNeedDrain, connectionCount, headerBlockOf, http2HeadersOf, http2ServerOptions, isConsuming, kHttp2Headers,
  kNeedDrain, kOutHeaders, needsDrain, openStreamCount, openStreamsOf, outgoingFields, outHeadersOf, replaceServerClasses,
  redirectRequires, responseOnSocket, trackedSockets,
} from '../src/node-internals';

const WAIT_MS = 5_000;

/** `promise`, or a failure naming what did not happen within WAIT_MS. */
async function within<T>(promise: Promise<T>, what: string): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const late = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`${what}: nothing within ${WAIT_MS} ms`)), WAIT_MS);
  });
  try {
    return await Promise.race([promise, late]);
  } finally {
    clearTimeout(timer);
  }
}

/** A promise and its resolve (Promise.withResolvers is not on Node 20). */
function deferred<T>(): { promise: Promise<T>; resolve(value: T): void } {
  let resolve!: (value: T) => void;
  const promise = new Promise<T>((r) => { resolve = r; });
  return { promise, resolve };
}

/** An HTTP/1.1 server on 127.0.0.1 whose handler is `handler`; closed with everything it holds. */
async function serve(handler: http.RequestListener, server = http.createServer()): Promise<{ server: http.Server; port: number; close(): Promise<void> }> {
  server.on('request', handler);
  server.listen(0, '127.0.0.1');
  await within(once(server, 'listening'), 'the server did not listen');
  return {
    server,
    port: (server.address() as AddressInfo).port,
    async close() {
      server.closeAllConnections();
      server.close();
      await within(once(server, 'close'), 'the server did not close');
    },
  };
}

test('kOutHeaders: the HTTP/1.1 header store, { lowercased-name: [name, value] }', () => {
  assert.ok(kOutHeaders, "node's OutgoingMessage has no symbol described 'kOutHeaders' (header-store.ts falls back to setHeader)");
  const res = new ServerResponse({ method: 'GET', httpVersionMajor: 1, httpVersionMinor: 1, headers: {} } as IncomingMessage);
  assert.equal(outHeadersOf(res), null, 'kOutHeaders: the store of a new response is not null');
  res.setHeader('X-Checked', 'yes');
  assert.deepEqual(outHeadersOf(res)?.['x-checked'], ['X-Checked', 'yes'], 'kOutHeaders: an entry is not [name, value] under the lower-cased name');
});

test('kNeedDrain: set by a write that returned false, cleared by clearNeedDrain', () => {
  assert.ok(kNeedDrain, "node's OutgoingMessage has no symbol described 'kNeedDrain' (app.fetch cannot release a waiting writer)");
  const message = new OutgoingMessage();
  assert.equal(needsDrain(message), false, 'kNeedDrain: a new message already needs a drain');
  Reflect.set(message, kNeedDrain, true);
  assert.equal(message.writableNeedDrain, true, 'kNeedDrain is not the flag behind writableNeedDrain');
  clearNeedDrain(message);
  assert.equal(message.writableNeedDrain, false, 'kNeedDrain: clearing it does not clear writableNeedDrain');
});

test('an HTTP/1.1 exchange: _httpMessage, _header, _headerSent, _storeHeader, _contentLength, _hasBody, _removedContLen, _consuming, _closed', async () => {
  const seen: Record<string, unknown> = {};
  const closed = deferred<ServerResponse>();
  const { port, close } = await serve((req, res) => {
    seen.onSocket = responseOnSocket(req.socket) === res;
    seen.blockBefore = headerBlockOf(res);
    seen.storeHeader = typeof outgoingFields(res)._storeHeader;
    seen.headerSentBefore = outgoingFields(res)._headerSent;
    seen.consumingBefore = isConsuming(req);
    req.read(0); // a read of the body starts node's _read, which marks it consumed
    seen.consumingAfter = isConsuming(req);
    res.end('abc');
    seen.block = headerBlockOf(res);
    seen.contentLength = outgoingFields(res)._contentLength;
    seen.hasBody = outgoingFields(res)._hasBody;
    seen.removedContLen = outgoingFields(res)._removedContLen;
    seen.headerSentAfter = outgoingFields(res)._headerSent;
    res.on('close', () => closed.resolve(res));
  });
  try {
    const answer = await within(fetch(`http://127.0.0.1:${port}/`), 'no answer to the probe request');
    assert.equal(await answer.text(), 'abc');
    assert.equal(seen.onSocket, true, "_httpMessage: the socket does not link to the response in flight");
    assert.equal(seen.blockBefore, null, '_header: not null before the head');
    assert.match(String(seen.block), /^HTTP\/1\.1 200 OK\r\n/, '_header: not the header block once the head is stored');
    assert.equal(seen.storeHeader, 'function', '_storeHeader: not a method of OutgoingMessage');
    assert.equal(seen.headerSentBefore, false, '_headerSent: not false before the first write');
    assert.equal(seen.headerSentAfter, true, '_headerSent: not true once the head went out');
    assert.equal(seen.consumingBefore, false, '_consuming: true before anyone read the body');
    assert.equal(seen.consumingAfter, true, '_consuming: not true once the body is read');
    assert.equal(seen.contentLength, 3, "_contentLength: not the length res.end(data) framed");
    assert.equal(seen.hasBody, true, '_hasBody: not true for a GET answer');
    assert.equal(seen.removedContLen, false, '_removedContLen: not false when nobody removed Content-Length');
    const res = await within(closed.promise, "the response's 'close'");
    assert.equal(outgoingFields(res)._closed, true, '_closed: not set once the response closed');
  } finally {
    await close();
  }
});

test("_connections and the 'http.server.connections' list: a connection that has sent nothing is counted and listed", async () => {
  const { server, port, close } = await serve(() => {});
  const socket = net.connect(port, '127.0.0.1');
  try {
    await within(once(server, 'connection'), 'the probe connection did not arrive');
    assert.equal(connectionCount(server), 1, "_connections: not the server's count of open connections");
    const sockets = trackedSockets(server);
    assert.ok(sockets, "node's http.Server has no slot described 'http.server.connections' with all()");
    assert.equal(sockets.length, 1, "'http.server.connections': the open connection is not listed");
  } finally {
    socket.destroy();
    await close();
  }
});

test("the server's IncomingMessage and ServerResponse slots: replaced classes are the ones a request is made of", async () => {
  class Req extends IncomingMessage {}
  class Res extends ServerResponse {}
  const server = http.createServer();
  replaceServerClasses(server, http, { IncomingMessage: Req, ServerResponse: Res });
  const seen = deferred<[unknown, unknown]>();
  const { port, close } = await serve((req, res) => {
    seen.resolve([req, res]);
    res.end();
  }, server);
  try {
    await within(fetch(`http://127.0.0.1:${port}/`), 'no answer to the probe request');
    const [req, res] = await within(seen.promise, 'the request did not reach the handler');
    assert.ok(req instanceof Req, "the server's slot described 'IncomingMessage' is not the class node constructs");
    assert.ok(res instanceof Res, "the server's slot described 'ServerResponse' is not the class node constructs");
  } finally {
    await close();
  }
});

test("HTTP/2: a response's 'headers' slot, the session's 'state' streams, the server's 'options'", async () => {
  assert.ok(kHttp2Headers(), "node's Http2ServerResponse has no symbol described 'headers'");
  const server = http2.createServer({ maxSessionMemory: 7 });
  assert.equal(http2ServerOptions(server)?.maxSessionMemory, 7, "the HTTP/2 server's slot described 'options' does not hold its options");
  const seen: Record<string, unknown> = {};
  server.on('request', (req: http2.Http2ServerRequest, res: http2.Http2ServerResponse) => {
    res.setHeader('X-Checked', 'yes');
    seen.header = http2HeadersOf(res)?.['x-checked'];
    seen.streams = openStreamCount(req.stream.session!);
    seen.listed = openStreamsOf(req.stream.session!).includes(req.stream);
    res.end('ok');
  });
  server.listen(0, '127.0.0.1');
  await within(once(server, 'listening'), 'the HTTP/2 server did not listen');
  const client = http2.connect(`http://127.0.0.1:${(server.address() as AddressInfo).port}`);
  try {
    const stream = client.request({ ':path': '/' });
    stream.resume();
    await within(once(stream, 'end'), 'no HTTP/2 answer to the probe request');
    assert.equal(seen.header, 'yes', "the HTTP/2 response's 'headers' slot does not hold its headers");
    assert.equal(seen.streams, 1, "the session's 'state' slot has no streams map counting the open stream");
    assert.equal(seen.listed, true, "the session's 'state' streams map does not list the open stream");
  } finally {
    client.close();
    server.close();
    await within(once(server, 'close'), 'the HTTP/2 server did not close');
  }
});

test('Module._resolveFilename: a redirected require loads the target file (nodes without module.registerHooks)', async () => {
  // In a child process: the redirection lasts for the process.
  const { execFile } = await import('node:child_process');
  const { promisify } = await import('node:util');
  const script = `
    const Module = require('node:module');
    const { redirectRequires } = require(${JSON.stringify(require.resolve('../src/node-internals'))});
    redirectRequires(Module, (request) => (request === 'no-such-package-here' ? ${JSON.stringify(join(__dirname, 'fixtures', 'redirect-target.cjs'))} : undefined));
    process.stdout.write(String(require('no-such-package-here')));
  `;
  const { stdout } = await within(promisify(execFile)(process.execPath, ['--import', 'tsx', '-e', script], { timeout: WAIT_MS }), 'the child with a redirected require did not finish');
  assert.equal(stdout, 'redirected', "Module._resolveFilename did not redirect require('no-such-package-here')");
});
