// morgan and logline side by side: one server mounts both with the same
// format, each writing to its own sink, so one request gives the line of
// each to compare byte for byte. Requests go out as raw bytes, so that
// control and latin1 bytes reach the headers as a client can send them.
import net from 'node:net';
import type { IncomingMessage, ServerResponse } from 'node:http';
import morgan from 'morgan';
import logger from 'logline-http';
import { LineSink, serve, type Handler, type Middleware, type TestServer } from './helpers.js';

type MorganFormat = morgan.FormatFn<IncomingMessage, ServerResponse>;

/**
 * A format both loggers take (a name, a format string, a format function), or
 * each its own, where one function cannot serve both (a compiled format
 * belongs to the library that compiled it).
 */
export type TwinFormat = string | logger.FormatFn | { morgan: MorganFormat; logline: logger.FormatFn };

export interface Twin {
  morgan: LineSink;
  logline: LineSink;
}

export interface TwinServer extends TestServer {
  twins: Twin[];
}

/** A server with, for each format, a morgan and a logline logger (after `before`). */
export async function serveTwins(formats: TwinFormat[], handler: Handler, before: Middleware[] = []): Promise<TwinServer> {
  const twins = formats.map(() => ({ morgan: new LineSink(), logline: new LineSink() }));
  const loggers = formats.flatMap((format, i): Middleware[] => {
    const twin = twins[i] as Twin;
    const [theirs, ours] = typeof format === 'object' ? [format.morgan, format.logline] : [format as MorganFormat, format];
    return [morgan(theirs, { stream: twin.morgan }), logger(ours, { stream: twin.logline })];
  });
  return { ...(await serve([...before, ...loggers], handler)), twins };
}

/**
 * Sends `head` (the request line and headers, CRLF-separated, without the
 * final blank line) as latin1 bytes with `Connection: close`, and resolves
 * with the status line of the answer once the server closed the connection.
 */
export function rawRequest(url: string, head: string): Promise<string> {
  const { port } = new URL(url);
  return new Promise((resolve, reject) => {
    const socket = net.connect(Number(port), '127.0.0.1', () => {
      socket.end(Buffer.from(`${head}\r\nConnection: close\r\n\r\n`, 'latin1'));
    });
    let answer = '';
    socket.setEncoding('latin1');
    socket.on('data', (chunk: string) => (answer += chunk));
    socket.on('error', reject);
    socket.on('close', () => resolve(answer.slice(0, answer.indexOf('\r\n'))));
  });
}

/** A GET of `path` with `headers` (values as latin1 text), as raw bytes. */
export function rawGet(url: string, path: string, headers: Record<string, string> = {}): Promise<string> {
  const lines = [`GET ${path} HTTP/1.1`, 'Host: 127.0.0.1'];
  for (const [name, value] of Object.entries(headers)) lines.push(`${name}: ${value}`);
  return rawRequest(url, lines.join('\r\n'));
}

/** A Basic Authorization header for `user:password`, encoded from UTF-8 as clients do. */
export function basicAuth(user: string, password = 'pw'): string {
  return 'Basic ' + Buffer.from(`${user}:${password}`).toString('base64');
}

/** Durations differ between two loggers of one request: `12.345 ms` becomes `T ms` in both lines alike. */
export function withoutDurations(text: string): string {
  return text.replace(/\d+\.\d{3} ms/g, 'T ms');
}

/**
 * For fields both loggers write on the same request (the timing fields), one
 * server each, so that neither sees what the other set: the same requests to
 * a morgan server and a logline server, and the lines of each.
 */
export async function linesApart(
  format: string | logger.FormatFn,
  handler: Handler,
  requests: Array<(url: string) => PromiseLike<unknown>>,
  options: { immediate?: boolean } = {},
): Promise<{ morgan: string[]; logline: string[] }> {
  const run = async (mw: Middleware, sink: LineSink): Promise<string[]> => {
    const app = await serve([mw], handler);
    try {
      for (const send of requests) await send(app.url);
      await app.settled(requests.length);
      return await sink.lines(requests.length);
    } finally {
      await app.close();
    }
  };
  const morganSink = new LineSink();
  const loglineSink = new LineSink();
  return {
    morgan: await run(morgan(format as MorganFormat, { ...options, stream: morganSink }), morganSink),
    logline: await run(logger(format, { ...options, stream: loglineSink }), loglineSink),
  };
}
