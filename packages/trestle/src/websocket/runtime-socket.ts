// The `ws`-shaped socket a `ws` route's handler gets where the runtime has a
// WebSocket of its own (Bun's ServerWebSocket, Deno's WebSocket): the same
// members and events as the `ws` package's (send, close, ping,
// on('message', (data, isBinary)), readyState, bufferedAmount), so a handler
// written on Node runs unchanged. The runtime glue (platforms/) feeds it
// through `received`, `closed` and `failed`; what it needs of the runtime's
// socket is a `SocketBackend`.
import { Buffer } from 'node:buffer';
import { EventEmitter } from 'node:events';

/** What the wrapper needs of a runtime's WebSocket. */
export interface SocketBackend {
  readonly readyState: number;
  readonly bufferedAmount: number;
  readonly protocol: string;
  sendText(text: string): void;
  sendBinary(bytes: Uint8Array): void;
  close(code?: number, reason?: string): void;
  terminate(): void;
  /** Absent where the runtime cannot send control frames (Deno's WebSocket answers pings by itself). */
  ping?(data: Uint8Array): void;
  pong?(data: Uint8Array): void;
  pause?(): void;
  resume?(): void;
}

type Callback = (err?: Error) => void;
type Sendable = string | Buffer | ArrayBuffer | ArrayBufferView;
type BinaryType = 'nodebuffer' | 'arraybuffer' | 'fragments';

const STATES = ['CONNECTING', 'OPEN', 'CLOSING', 'CLOSED'];
const OPEN = 1;
const CLOSED = 3;

function toBytes(data: Sendable | undefined): Uint8Array {
  if (data === undefined) return new Uint8Array(0);
  if (typeof data === 'string') return Buffer.from(data);
  if (data instanceof ArrayBuffer) return new Uint8Array(data);
  return new Uint8Array(data.buffer, data.byteOffset, data.byteLength);
}

function later(callback: Callback | undefined, err?: Error): void {
  if (callback !== undefined) process.nextTick(callback, err);
}

export class RuntimeWebSocket extends EventEmitter {
  static readonly CONNECTING = 0;
  static readonly OPEN = 1;
  static readonly CLOSING = 2;
  static readonly CLOSED = 3;
  readonly CONNECTING = 0;
  readonly OPEN = 1;
  readonly CLOSING = 2;
  readonly CLOSED = 3;
  /** How binary messages are given, as in `ws`. */
  binaryType: BinaryType = 'nodebuffer';
  private readonly backend: SocketBackend;
  private readonly maxPayload: number;
  private ended = false;

  constructor(backend: SocketBackend, maxPayload: number) {
    super();
    this.backend = backend;
    this.maxPayload = maxPayload;
    // As on Node: a bad client's error closes its socket, never the process.
    this.on('error', () => {});
  }

  get readyState(): number {
    return this.ended ? CLOSED : this.backend.readyState;
  }

  get bufferedAmount(): number {
    return this.backend.bufferedAmount;
  }

  get protocol(): string {
    return this.backend.protocol;
  }

  /** As `ws`: text for a string, binary otherwise, unless `options.binary` says; `callback` once handed to the runtime. */
  send(data: Sendable, options?: { binary?: boolean } | Callback, callback?: Callback): void {
    if (typeof options === 'function') {
      callback = options;
      options = undefined;
    }
    if (this.readyState !== OPEN) {
      // `ws` throws before the socket opens and reports to the callback after it closed.
      const err = new Error(`WebSocket is not open: readyState ${this.readyState} (${STATES[this.readyState]})`);
      if (this.readyState === 0) throw err;
      later(callback, err);
      return;
    }
    const binary = options?.binary ?? typeof data !== 'string';
    if (binary) this.backend.sendBinary(toBytes(data));
    else this.backend.sendText(typeof data === 'string' ? data : Buffer.from(toBytes(data)).toString('utf8'));
    later(callback);
  }

  close(code?: number, reason?: string | Buffer): void {
    if (this.readyState >= 2) return;
    this.backend.close(code, reason === undefined ? undefined : String(reason));
  }

  terminate(): void {
    if (this.readyState === CLOSED) return;
    this.backend.terminate();
  }

  ping(data?: Sendable, _mask?: boolean, callback?: Callback): void {
    this.backend.ping?.(toBytes(data));
    later(callback);
  }

  pong(data?: Sendable, _mask?: boolean, callback?: Callback): void {
    this.backend.pong?.(toBytes(data));
    later(callback);
  }

  pause(): void {
    this.backend.pause?.();
  }

  resume(): void {
    this.backend.resume?.();
  }

  /** A message from the client (text as a string): emitted as `ws` emits it, or the socket closed with 1009 when over the limit. */
  received(data: string | ArrayBuffer | Uint8Array): void {
    const isBinary = typeof data !== 'string';
    const bytes = typeof data === 'string' ? Buffer.from(data) : Buffer.from(data instanceof ArrayBuffer ? data : data.buffer, data instanceof ArrayBuffer ? 0 : data.byteOffset, data.byteLength);
    if (bytes.length > this.maxPayload) {
      this.close(1009, 'Max payload size exceeded');
      return;
    }
    const given = this.binaryType === 'arraybuffer' ? bytes.buffer.slice(bytes.byteOffset, bytes.byteOffset + bytes.length) : this.binaryType === 'fragments' ? [bytes] : bytes;
    this.emit('message', given, isBinary);
  }

  /** The runtime's socket closed: 'close' with the code and the reason as a Buffer, once. */
  closed(code: number, reason: string): void {
    if (this.ended) return;
    this.ended = true;
    this.emit('close', code, Buffer.from(reason));
  }

  failed(err: Error): void {
    this.emit('error', err);
  }

  pinged(data: Uint8Array | undefined, event: 'ping' | 'pong'): void {
    this.emit(event, Buffer.from(data ?? new Uint8Array(0)));
  }
}
