// Shared by the middleware tests: an app that echoes what a body parser left
// in `req.body`, an error handler that reports every field the parsers set,
// and a raw socket client that writes a request in pieces, each one only
// after the server has received the one before (so the body really arrives
// in several chunks, without relying on timing).
import { EventEmitter, once } from 'node:events';
import * as net from 'node:net';
import trestle, { type Application, type ErrorRequestHandler, type RequestHandler } from 'trestle';

/** `req.body` as JSON can carry it: Buffers as hex, `undefined` spelled out. */
export interface Echo {
  body: unknown;
  kind: string;
  has: boolean;
}

export const echoBody: RequestHandler = (req, res) => {
  const body: unknown = req.body;
  const kind = Buffer.isBuffer(body) ? 'buffer' : body === undefined ? 'undefined' : typeof body;
  res.json({ body: Buffer.isBuffer(body) ? body.toString('hex') : body ?? null, kind, has: 'body' in req });
};

/** For supertest's `.serialize()`: send a Buffer as its bytes, whatever the Content-Type. */
export const asIs = (body: unknown): string => body as string;

/** The fields the body parsers put on their errors. */
export interface Reported {
  name: string;
  message: string;
  status?: number;
  statusCode?: number;
  expose?: boolean;
  type?: string;
  body?: unknown;
  limit?: number;
  length?: number | null;
  expected?: number | null;
  received?: number;
  charset?: string;
  encoding?: string;
  code?: string;
  isSyntaxError: boolean;
}

export function describeError(err: unknown): Reported {
  const e = err as Error & Omit<Reported, 'isSyntaxError'>;
  return {
    name: e.name,
    message: e.message,
    status: e.status,
    statusCode: e.statusCode,
    expose: e.expose,
    type: e.type,
    body: Buffer.isBuffer(e.body) ? `hex:${e.body.toString('hex')}` : e.body,
    limit: e.limit,
    length: e.length,
    expected: e.expected,
    received: e.received,
    charset: e.charset,
    encoding: e.encoding,
    code: e.code,
    isSyntaxError: err instanceof SyntaxError,
  };
}

/** Answers an error with its own status and its description as JSON. */
export const reportError: ErrorRequestHandler = (err, _req, res, _next) => {
  const status = (err as { status?: number }).status;
  res.status(typeof status === 'number' ? status : 500).json(describeError(err));
};

/** `app.use(...handlers, echoBody)` then the error reporter. */
export function echoApp(...handlers: RequestHandler[]): Application {
  const app = trestle();
  app.set('env', 'test');
  app.use(...handlers, echoBody);
  app.use(reportError);
  return app;
}

/**
 * Tells `chunks` of every piece of body the server receives; put it before
 * the parser. It only listens, so the parser still reads every byte.
 */
export function tapBody(chunks: EventEmitter): RequestHandler {
  return (req, _res, next) => {
    req.on('data', (chunk: Buffer) => chunks.emit('chunk', chunk));
    next();
  };
}

export interface SocketAnswer {
  status: number;
  headers: Record<string, string>;
  body: string;
}

/** Reads an HTTP/1.1 answer from a socket until the server closes it. */
function readAnswer(socket: net.Socket): Promise<SocketAnswer> {
  return new Promise((resolve, reject) => {
    const parts: Buffer[] = [];
    socket.on('data', (d: Buffer) => parts.push(d));
    socket.on('error', reject);
    socket.on('close', () => {
      const text = Buffer.concat(parts).toString('utf8');
      const split = text.indexOf('\r\n\r\n');
      const lines = text.slice(0, split).split('\r\n');
      const headers: Record<string, string> = {};
      for (const line of lines.slice(1)) {
        const colon = line.indexOf(':');
        headers[line.slice(0, colon).toLowerCase()] = line.slice(colon + 1).trim();
      }
      resolve({ status: Number(lines[0]?.split(' ')[1]), headers, body: text.slice(split + 4) });
    });
  });
}

/**
 * Sends `head` (request line and headers, without the blank line) and then
 * each piece of `pieces`, waiting before each next piece until `chunks` (fed
 * by `tapBody`) reports that the server received data. Each piece but the
 * last must carry body bytes.
 */
export async function sendInPieces(port: number, head: string, pieces: Array<string | Buffer>, chunks: EventEmitter): Promise<SocketAnswer> {
  const socket = net.connect(port, '127.0.0.1');
  socket.setNoDelay(true);
  const answer = readAnswer(socket);
  await once(socket, 'connect');
  socket.write(`${head}\r\nConnection: close\r\n\r\n`);
  for (const [i, piece] of pieces.entries()) {
    // The last piece may carry no body bytes (a chunked terminator): nothing to wait for.
    if (i === pieces.length - 1) {
      socket.write(piece);
      break;
    }
    const received = once(chunks, 'chunk');
    socket.write(piece);
    await received;
  }
  return answer;
}

/** Sends `head` and the start of a body, then hangs up once the server received it. */
export async function abortAfter(port: number, head: string, start: string | Buffer, chunks: EventEmitter): Promise<void> {
  const socket = net.connect(port, '127.0.0.1');
  socket.on('error', () => {});
  await once(socket, 'connect');
  const received = once(chunks, 'chunk');
  socket.write(`${head}\r\n\r\n`);
  socket.write(start);
  await received;
  socket.destroy();
}

export { EventEmitter };
