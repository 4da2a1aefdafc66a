// What the response members read from `this`: node's ServerResponse surface
// they use, the request and app they belong to, and each other.
import type { IncomingHttpHeaders } from 'node:http';
import type { Readable } from 'node:stream';
import type { CookieOptions, DownloadOptions, SendFileOptions } from '../types';

export type HeaderInput = string | number | readonly string[] | boolean | null | undefined;
export type Done = (err?: unknown) => void;
export type RenderDone = (err: Error | null, html?: string) => void;

/** The request as the response members see it. */
export interface RequestState extends Readable {
  method?: string | undefined;
  url?: string | undefined;
  headers: IncomingHttpHeaders;
  fresh: boolean;
  next?: Done;
  query?: unknown;
  secret?: string | undefined;
}

export interface ResponseState {
  statusCode: number;
  req: RequestState;
  app: {
    settings: Record<string, unknown>;
    _framework?: { profile: { stringBodies?: 'buffer' | 'string' } };
    render(name: string, options: object, cb: RenderDone): void;
  };
  headersSent: boolean;
  getHeader(name: string): number | string | string[] | undefined;
  setHeader(name: string, value: number | string | readonly string[]): unknown;
  removeHeader(name: string): void;
  end(chunk?: unknown, encoding?: BufferEncoding): unknown;
  set(field: string | Record<string, HeaderInput>, value?: HeaderInput): ResponseState;
  get(field: string): number | string | string[] | undefined;
  append(field: string, value?: HeaderInput): ResponseState;
  type(type: string): ResponseState;
  send(body?: unknown): ResponseState;
  json(body?: unknown): ResponseState;
  status(code: number): ResponseState;
  vary(field: string | string[]): ResponseState;
  location(url: string): ResponseState;
  format(handlers: Record<string, unknown>): ResponseState;
  cookie(name: string, value: unknown, options?: CookieOptions): ResponseState;
  sendFile(path: string, options?: SendFileOptions | Done, callback?: Done): void;
  download(path: string, filename?: unknown, options?: DownloadOptions | Done, callback?: Done): void;
  locals: Record<string, unknown>;
}
