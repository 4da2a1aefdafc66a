// The shutdown takes the time the work takes (docs/production.md#graceful-shutdown):
// connections with nothing in flight, opened ahead of use as browsers and load
// balancers do, never hold it until its timeout. Over HTTP/1.1, HTTPS, h2c and
// h2, each counted as what it was in the report.
import assert from 'node:assert/strict';
import * as http from 'node:http';
import * as https from 'node:https';
import * as net from 'node:net';
import type { AddressInfo } from 'node:net';
import { describe, test } from 'node:test';
import * as tlsModule from 'node:tls';
import trestle from 'trestle';
import { connect, serveH2, tls } from '../http2-helpers';
import { connectRaw, heads, within } from '../lifecycle-helpers';

const TIMEOUT = 10_000;
/** The grace is 1 s; a shutdown that waited for its 10 s timeout takes 10 s. */
const WELL_UNDER_TIMEOUT = 5000;

function app() {
  const a = trestle();
  a.get('/fast', (_req, res) => {
    res.send('fast');
  });
  return a;
}

async function listen<S extends net.Server>(server: S): Promise<S & { port: number }> {
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return Object.assign(server, { port: (server.address() as AddressInfo).port });
}

/** A connection's close by the server, within 5 s. */
function closedBy(socket: net.Socket): Promise<void> {
  // A paused socket never sees the server's end: read (and drop) what is left.
  socket.resume();
  return within(
    new Promise<void>((resolve) => (socket.destroyed ? resolve() : socket.once('close', () => resolve()))),
    'close of the connection by the server',
  );
}

function tcp(port: number): Promise<net.Socket> {
  return within(
    new Promise<net.Socket>((resolve, reject) => {
      const socket = net.connect(port, '127.0.0.1', () => resolve(socket));
      socket.on('error', reject);
    }),
    'TCP connection',
  );
}

/** A TLS connection whose handshake is done and which sends nothing: a browser's preconnect (offering `alpn`). */
function tlsPreconnect(port: number, alpn?: string[]): Promise<tlsModule.TLSSocket> {
  return within(
    new Promise<tlsModule.TLSSocket>((resolve, reject) => {
      const socket = tlsModule.connect({ port, host: '127.0.0.1', rejectUnauthorized: false, ALPNProtocols: alpn }, () => resolve(socket));
      socket.on('error', reject);
    }),
    'TLS handshake',
  );
}

/** GET /fast over HTTPS (`agent` false: a connection of its own): its status, and the socket it came on. */
function fastOverHttps(port: number, agent: https.Agent | false): Promise<{ status: number; socket: net.Socket }> {
  return new Promise((resolve, reject) => {
    https.get({ host: '127.0.0.1', port, path: '/fast', rejectUnauthorized: false, agent }, (res) => {
      // Taken now: a kept-alive socket leaves the response for the agent's pool once the body ends.
      const socket = res.socket;
      res.resume();
      res.on('end', () => resolve({ status: res.statusCode ?? 0, socket }));
    }).on('error', reject);
  });
}

function assertFast(report: { durationMs: number }, what: string): void {
  assert.ok(report.durationMs < WELL_UNDER_TIMEOUT, `${what}: the shutdown took ${report.durationMs} ms (timeout ${TIMEOUT} ms)`);
}

describe('shutdown: connections with nothing in flight', () => {
  test('HTTP/1.1: a connection that never sent a request and an idle kept-alive one, closed after the grace, each counted', async () => {
    const server = await listen(http.createServer(app()));
    const used = await connectRaw(server.port);
    used.socket.write('GET /fast HTTP/1.1\r\nHost: localhost\r\n\r\n');
    await used.waitFor('fast');
    const fresh = await tcp(server.port);
    fresh.on('error', () => undefined);
    const report = await within(trestle.shutdown(server, { timeout: TIMEOUT }), 'shutdown report', 8000);
    await closedBy(fresh);
    await within(used.closed, 'close of the kept-alive connection');
    assertFast(report, 'an unused and an idle connection');
    assert.ok(report.durationMs >= 900, `closed before the 1 s grace: ${report.durationMs} ms`);
    assert.deepEqual([report.closedBeforeRequest, report.closedIdle, report.cut, report.inFlight], [1, 1, 0, 0]);
  });

  test('HTTP/1.1: a request sent on a just-opened connection during the grace is served, with Connection: close', async () => {
    const server = await listen(http.createServer(app()));
    const conn = await connectRaw(server.port);
    const shutdown = trestle.shutdown(server, { timeout: TIMEOUT });
    await new Promise((r) => setTimeout(r, 200));
    conn.socket.write('GET /fast HTTP/1.1\r\nHost: localhost\r\n\r\n');
    const raw = await within(conn.closed, 'close of the connection after its answer');
    assert.deepEqual([heads(raw)[0]?.status, heads(raw)[0]?.headers.connection], [200, 'close']);
    const report = await within(shutdown, 'shutdown report', 8000);
    assert.deepEqual([report.answered, report.closedBeforeRequest, report.closedIdle, report.cut], [1, 0, 0, 0]);
    // Nothing was left open once it was answered.
    assert.ok(report.durationMs < 900, `took ${report.durationMs} ms`);
  });

  test('HTTPS: a TLS preconnect (handshake done) and a bare TCP connection (no handshake) are closed after the grace', async () => {
    const a = app();
    const server = await listen(https.createServer(tls, a));
    // One request first: the app adopts (watches) the server, as it does in production.
    const { status: answered } = await within(fastOverHttps(server.port, false), 'first answer over HTTPS');
    assert.equal(answered, 200);
    const secure = await tlsPreconnect(server.port);
    const bare = await tcp(server.port);
    for (const s of [secure, bare]) s.on('error', () => undefined);
    const report = await within(trestle.shutdown(server, { timeout: TIMEOUT }), 'shutdown report', 8000);
    await closedBy(secure);
    await closedBy(bare);
    assertFast(report, 'a TLS preconnect and a bare TCP connection');
    assert.deepEqual([report.closedBeforeRequest, report.cut], [2, 0]);
  });

  test('HTTPS: an idle kept-alive connection and a TLS preconnect, each counted, closed well before the timeout', async () => {
    const server = await listen(https.createServer(tls, app()));
    const agent = new https.Agent({ keepAlive: true, maxSockets: 1 });
    const { status: answered, socket: kept } = await within(fastOverHttps(server.port, agent), 'first answer over HTTPS');
    assert.equal(answered, 200);
    const secure = await tlsPreconnect(server.port);
    secure.on('error', () => undefined);
    const report = await within(trestle.shutdown(server, { timeout: TIMEOUT }), 'shutdown report', 8000);
    await closedBy(secure);
    await closedBy(kept);
    agent.destroy();
    assertFast(report, 'an idle kept-alive HTTPS connection and a TLS preconnect');
    assert.deepEqual([report.answered, report.closedIdle, report.closedBeforeRequest, report.cut, report.inFlight], [0, 1, 1, 0, 0]);
  });

  test('h2c: a TCP connection that never sent the HTTP/2 preface is closed well before the timeout, counted as before any request', async () => {
    const served = await serveH2(app(), 'h2c');
    assert.equal((await within(served.request('/fast'), 'first HTTP/2 answer')).status, 200);
    served.session().destroy();
    const accepted = within(new Promise((r) => served.server.once('session', r)), 'the server\'s session for the new connection');
    // It reads nothing (a peer that never acts on GOAWAY): the server must not wait for its end.
    const silent = await tcp(served.port);
    silent.on('error', () => undefined);
    await accepted;
    const report = await within(trestle.shutdown(served.server, { timeout: TIMEOUT }), 'shutdown report', 8000);
    await closedBy(silent);
    assertFast(report, 'an h2c connection without the preface');
    assert.deepEqual([report.closedBeforeRequest, report.cut, report.inFlight], [1, 0, 0]);
  });

  test('h2: a connection past its TLS handshake (ALPN h2) that never sent the preface is closed well before the timeout, counted as before any request', async () => {
    const served = await serveH2(app(), 'h2');
    assert.equal((await within(served.request('/fast'), 'first HTTP/2 answer')).status, 200);
    served.session().destroy();
    const accepted = within(new Promise((r) => served.server.once('session', r)), 'the server\'s session for the new connection');
    const secure = await tlsPreconnect(served.port, ['h2']);
    secure.on('error', () => undefined);
    assert.equal(secure.alpnProtocol, 'h2');
    await accepted;
    const report = await within(trestle.shutdown(served.server, { timeout: TIMEOUT }), 'shutdown report', 8000);
    await closedBy(secure);
    assertFast(report, 'an h2 connection past its handshake without the preface');
    assert.deepEqual([report.closedBeforeRequest, report.cut, report.inFlight], [1, 0, 0]);
  });

  for (const mode of ['h2c', 'h2'] as const) {
    test(`HTTP/2 (${mode}): a session that never opened a stream and one that is idle get GOAWAY and close at once`, async () => {
      const served = await serveH2(app(), mode);
      assert.equal((await within(served.request('/fast'), 'first HTTP/2 answer')).status, 200);
      const idle = served.session();
      const unused = connect(served.origin);
      unused.on('error', () => undefined);
      await within(new Promise((r) => unused.once('remoteSettings', r)), "the server's SETTINGS on the new session");
      const goaways = [idle, unused].map((s) => within(new Promise((r) => s.once('goaway', r)), `GOAWAY on the ${s === idle ? 'idle' : 'unused'} session`));
      const report = await within(trestle.shutdown(served.server, { timeout: TIMEOUT }), 'shutdown report', 8000);
      await Promise.all(goaways);
      // No grace for HTTP/2: GOAWAY tells the client, there is no race to wait out.
      assert.ok(report.durationMs < 900, `took ${report.durationMs} ms`);
      assert.deepEqual([report.closedIdle, report.closedBeforeRequest, report.cut], [1, 1, 0]);
      unused.destroy();
      await assert.rejects(tcp(served.port), { code: 'ECONNREFUSED' });
    });
  }
});
