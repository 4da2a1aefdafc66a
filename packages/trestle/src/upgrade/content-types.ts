// Content-Type values Express 5 writes differently, from calls that are not
// deprecated: a word without `/` given to res.set / res.type (mime-types
// reads it as a file extension: `'foobar'` becomes `false`), and the type
// of a file that send types from its extension (send 1 with mime-types:
// `charset=utf-8`, not `UTF-8`; `.js` as text/javascript).
import type { ServerResponse } from 'node:http';
import { basename, extname } from 'node:path';
import { contentType as mimeContentType } from 'mime-types';
import { loadSendV0 } from '../generations/v4/files';
import { named } from '../middleware/body';
import { contentTypeFor } from '../response/headers';
import { callSite, type Site } from './site';
import { record } from './store';
import { checkCalls, safely, show } from './wrap';

type Args = unknown[];
type Res = ServerResponse & { [kFile]?: FileSender };
type Next = (err?: unknown) => void;
type Middleware = (req: unknown, res: Res, next: Next) => void;

function sentType(res: unknown): string | undefined {
  const value = (res as Res).getHeader('Content-Type');
  return value === undefined ? undefined : String(value);
}

/** The Content-Type value among `res.set`'s arguments (a name and value, or an object). */
function contentTypeArg([field, value]: Args): unknown {
  if (typeof field === 'string') return field.toLowerCase() === 'content-type' ? value : undefined;
  if (typeof field !== 'object' || field === null) return undefined;
  const key = Object.keys(field).find((k) => k.toLowerCase() === 'content-type');
  return key === undefined ? undefined : (field as Record<string, unknown>)[key];
}

/** `res.set('Content-Type', word)` (or `res.header`), checked once it set the header. */
function checkSet(name: string) {
  return (res: unknown, args: Args): void => {
    const given = contentTypeArg(args);
    if (typeof given !== 'string' || given.includes('/')) return;
    const v4 = sentType(res);
    const v5 = mimeContentType(given);
    if (v5 === v4) return;
    const there = v5 === false ? 'false on Express 5 (no file extension of that name: res.send then sends its own type)' : `${JSON.stringify(v5)} on Express 5`;
    record('content-type-word', `res.${name}("Content-Type", ${show(given)}): ${JSON.stringify(v4)} here, ${there}`, {
      express5: `res.setHeader('Content-Type', ${JSON.stringify(v4)})`,
    });
  };
}

/** `res.type(word)` / `res.contentType(word)`, checked once it set the header. */
function checkType(name: string) {
  return (res: unknown, [type]: Args): void => {
    if (typeof type !== 'string' || type.includes('/')) return;
    const v4 = sentType(res);
    const v5 = contentTypeFor(type);
    if (v5 !== v4) {
      record('content-type-word', `res.${name}(${show(type)}): ${JSON.stringify(v4)} here, ${JSON.stringify(v5)} on Express 5`, {
        express5: `res.set('Content-Type', ${JSON.stringify(v4)})`,
      });
    }
  };
}

/** `res.set`, `res.type` and their aliases. */
export function checkContentTypes(response: object): void {
  for (const name of ['set', 'header']) checkCalls(response, name, checkSet(name), 'after');
  for (const name of ['type', 'contentType']) checkCalls(response, name, checkType(name), 'after');
}

/** What is sending a file on a response, and the app's place that asked for it. */
interface FileSender {
  what: string;
  site: Site;
}

// Set on the response while static() or res.sendFile / res.download sends a
// file, read where send 0.19 types it.
const kFile = Symbol('trestle.upgrade.file');

/** The type send 0.19 gave the file at `path`, against send 1's. */
function checkFileType(sender: FileSender, res: Res, path: string): void {
  const v4 = sentType(res);
  const v5 = contentTypeFor(extname(path));
  if (v4 === undefined || v4 === v5) return;
  record('file-content-type', `${sender.what} sent ${basename(path)}: ${JSON.stringify(v4)} here, ${JSON.stringify(v5)} on Express 5`, {}, sender.site);
}

interface SendStream {
  res?: Res;
  type(path: string): void;
}

/** send 0.19's `type()` (static, sendFile and download all send with it), checked where the file's sender is known. */
function checkSendTypes(): void {
  const send = loadSendV0() as unknown as (req: object, path: string) => SendStream;
  // send exports no SendStream: its prototype is reached through a stream made and never piped (no I/O).
  const proto = Object.getPrototypeOf(send({ headers: {} }, '/')) as SendStream;
  const type = proto.type;
  proto.type = function (this: SendStream, path: string): void {
    const res = this.res;
    const sender = res?.[kFile];
    const typed = sender !== undefined && res!.getHeader('Content-Type') !== undefined;
    type.call(this, path);
    if (sender !== undefined && !typed) safely(() => checkFileType(sender, res!, path), undefined, []);
  };
}

/** `express.static(root)`: its middleware marks the response while it serves, the place being the static() call. */
function checkStatic(factory: { static: unknown }): void {
  const original = factory.static as (root: unknown, options?: unknown) => Middleware;
  const serveStatic = function (root: unknown, options?: unknown): Middleware {
    const middleware = original(root, options);
    const site = callSite('caller');
    if (site === undefined) return middleware;
    const sender: FileSender = { what: 'express.static()', site };
    return named(middleware.name, function (req: unknown, res: Res, next: Next) {
      res[kFile] = sender;
      middleware(req, res, (err?: unknown) => {
        res[kFile] = undefined;
        next(err);
      });
    });
  };
  // What static() carries (static.mime) stays on it.
  for (const key of Reflect.ownKeys(original)) {
    if (!Object.prototype.hasOwnProperty.call(serveStatic, key)) Object.defineProperty(serveStatic, key, Object.getOwnPropertyDescriptor(original, key)!);
  }
  Object.defineProperty(serveStatic, 'name', { value: original.name });
  factory.static = serveStatic;
}

function marking(what: string) {
  return (res: unknown): void => {
    const site = callSite('caller');
    (res as Res)[kFile] = site === undefined ? undefined : { what, site };
  };
}

/** Files typed from their extension: express.static, res.sendFile, res.download. */
export function checkFileTypes(factory: { static: unknown }, response: object): void {
  checkSendTypes();
  checkStatic(factory);
  checkCalls(response, 'sendFile', marking('res.sendFile()'));
  checkCalls(response, 'download', marking('res.download()'));
}
