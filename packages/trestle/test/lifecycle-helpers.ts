// Shared by the lifecycle tests: the three entries, a raw HTTP/1.1 connection
// whose bytes the test writes itself (partial heads, keep-alive), and a latch
// a handler waits on.
import type * as http from 'node:http';
import * as net from 'node:net';
import { afterEach } from 'node:test';
import trestle from 'trestle';
import trestleLegacy from 'trestle/legacy';
import trestleV4 from 'trestle/v4';
import { type RawResponse, rawRequest } from './helpers';

export const entries = [
  ['trestle', trestle],
  ['trestle/v4', trestleV4 as unknown as typeof trestle],
  ['trestle/legacy', trestleLegacy as unknown as typeof trestle],
] as const;

/**
 * `promise`, or a failure naming what did not happen once `ms` have passed:
 * every wait of the lifecycle tests goes through it, so none hangs until the
 * runner's file deadline ("no abort of req.signal within 2000 ms").
 */
export function within<T>(promise: Promise<T>, what: string, ms = 5000): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const expired = new Promise<never>((_resolve, reject) => {
    timer = setTimeout(() => reject(new Error(`no ${what} within ${ms} ms`)), ms);
  });
  return Promise.race([promise, expired]).finally(() => clearTimeout(timer));
}

/** A promise with its resolver, for a handler to wait on or to say it was reached. */
export function latch<T = void>(): { promise: Promise<T>; resolve: (value: T) => void } {
  let resolve!: (value: T) => void;
  const promise = new Promise<T>((r) => (resolve = r));
  return { promise, resolve };
}

export interface RawConnection {
  socket: net.Socket;
  /** Everything received so far. */
  received(): string;
  /** Resolves once the received bytes contain `text`; fails naming it after `ms` (5 s). */
  waitFor(text: string, ms?: number): Promise<string>;
  /** Resolves with everything received once the server has closed the connection. */
  closed: Promise<string>;
}

export function connectRaw(port: number): Promise<RawConnection> {
  return new Promise((resolve, reject) => {
    const socket = net.connect(port, '127.0.0.1');
    let data = '';
    const waiters: Array<{ text: string; done: (s: string) => void }> = [];
    const closed = new Promise<string>((r) => socket.on('close', () => r(data)));
    socket.setEncoding('utf8');
    socket.on('data', (d: string) => {
      data += d;
      for (const w of [...waiters]) {
        if (data.includes(w.text)) {
          waiters.splice(waiters.indexOf(w), 1);
          w.done(data);
        }
      }
    });
    socket.on('error', () => undefined);
    socket.once('connect', () =>
      resolve({
        socket,
        received: () => data,
        waitFor: (text, ms) => within(data.includes(text) ? Promise.resolve(data) : new Promise((done) => waiters.push({ text, done })), `${JSON.stringify(text)} from the server`, ms),
        closed,
      }),
    );
    socket.once('error', reject);
  });
}

/** The status line and headers of each answer in `raw`, lower-cased names. */
export function heads(raw: string): Array<{ status: number; headers: Record<string, string> }> {
  return raw
    .split('HTTP/1.1 ')
    .slice(1)
    .map((part) => {
      const [head] = part.split('\r\n\r\n');
      const [statusLine, ...lines] = head!.split('\r\n');
      const headers: Record<string, string> = {};
      for (const line of lines) {
        const i = line.indexOf(':');
        headers[line.slice(0, i).toLowerCase()] = line.slice(i + 1).trim();
      }
      return { status: Number(statusLine!.split(' ')[0]), headers };
    });
}

/** helpers.ts's rawRequest, failing after `ms` (5 s) with the request named: "no answer to GET /never within 5000 ms". */
export function answerTo(port: number, method: string, path: string, headers: http.OutgoingHttpHeaders = {}, body?: string, ms = 5000): Promise<RawResponse> {
  return within(rawRequest(port, method, path, headers, body), `answer to ${method} ${path}`, ms);
}

/**
 * Call in a describe(): returns `kept`, which registers a served app to be
 * closed after each test, passed or failed, so a failing test names its
 * failure and the file still ends (no server left open for the runner's
 * deadline to find).
 */
export function closedAfterEach(): <S extends { close(): Promise<void> }>(served: S) => S {
  const open: Array<{ close(): Promise<void> }> = [];
  afterEach(async () => {
    await Promise.all(open.splice(0).map((served) => within(served.close(), 'close of a server after its test').catch(() => undefined)));
  });
  return (served) => {
    open.push(served);
    return served;
  };
}
