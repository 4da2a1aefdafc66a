// multipart/form-data bodies for the legacy generation's `bodyParser()`:
// fields into `req.body`, each uploaded file written to a temporary file and
// described in `req.files` by a File object (`size`, `path`, `name`, `type`,
// `hash`, `lastModifiedDate`), as Express 3 apps read them. Parsing is
// busboy's, the field's multipart parser (multer uses it too).
import { createHash, randomUUID } from 'node:crypto';
import { createWriteStream, unlink, type WriteStream } from 'node:fs';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { tmpdir } from 'node:os';
import { extname, join } from 'node:path';
import type { Readable } from 'node:stream';
import busboy from 'busboy';
import bytes from 'bytes';
import onFinished from 'on-finished';
import qs from 'qs';
import typeis from 'type-is';
import { createHttpError } from '../../errors';

export interface MultipartOptions {
  /** Most bytes of the whole body, files included (`'100mb'` style or a number). Default 100mb. */
  limit?: string | number;
  /** Where uploads are written. Default: the OS temporary directory. */
  uploadDir?: string;
  /** Keep the uploaded file's extension on the temporary file. */
  keepExtensions?: boolean;
  /** Compute a digest of each file into `file.hash`. */
  hash?: 'md5' | 'sha1' | false;
}

/** An uploaded file. */
export class File {
  constructor(
    /** The form field it came in. */
    readonly fieldName: string,
    /** The temporary file holding it. */
    readonly path: string,
    /** The name the client gave it. */
    readonly name: string,
    /** Its media type, as the client declared it. */
    readonly type: string,
    readonly size: number,
    /** Hex digest when the `hash` option asked for one, else null. */
    readonly hash: string | null,
    readonly lastModifiedDate: Date,
  ) {}
}

type Req = IncomingMessage & { body?: unknown; files?: Record<string, File | File[]> };
type Next = (err?: unknown) => void;

/** A temporary file being written; `closed` once its descriptor is released. */
interface Upload {
  path: string;
  out: WriteStream;
  closed: boolean;
}

function ignore(): void {}

/** Removes the temporary file of an upload that failed. */
function discard(upload: Upload): void {
  unlink(upload.path, ignore);
}

/**
 * Adds to a map of name -> value, making repeats into arrays. Only own
 * entries count as earlier values: a field named `constructor` or
 * `toString` must not pick up Object.prototype's member.
 */
function add<T>(map: Record<string, T | T[]>, name: string, value: T): void {
  const prior = Object.hasOwn(map, name) ? map[name] : undefined;
  if (prior === undefined) map[name] = value;
  else if (Array.isArray(prior)) prior.push(value);
  else map[name] = [prior, value];
}

export function multipart(options: MultipartOptions = {}) {
  const limit = typeof options.limit === 'number' ? options.limit : (bytes.parse(options.limit ?? '100mb') ?? 100 * 1024 * 1024);
  const uploadDir = options.uploadDir ?? tmpdir();

  return function multipartParser(req: Req, _res: ServerResponse, next: Next): void {
    req.files ??= {};
    req.body ??= {};
    // A body another parser already read leaves the request finished.
    if (onFinished.isFinished(req) || !typeis.hasBody(req) || !typeis(req, ['multipart/form-data'])) return next();
    let parser: busboy.Busboy;
    try {
      parser = busboy({ headers: req.headers, limits: { fileSize: limit } });
    } catch (err) {
      return next(createHttpError(400, 'TRESTLE_ERR_MULTIPART_PARSE_FAILED', (err as Error).message, { type: 'multipart.parse.failed' }));
    }
    const fields: string[] = [];
    const files: Record<string, File | File[]> = {};
    const uploads: Upload[] = [];
    let pending = 0;
    let received = 0;
    let parsed = false;
    let failed = false;
    /** File streams busboy has not ended yet, written or drained. */
    const open = new Set<Readable>();

    const fail = (err: unknown): void => {
      if (failed) return;
      failed = true;
      req.unpipe(parser);
      req.resume();
      // A file still being written is removed once its descriptor is closed.
      for (const upload of uploads) {
        if (upload.closed) discard(upload);
        else upload.out.destroy();
      }
      next(err);
    };
    const finish = (): void => {
      if (failed || !parsed || pending !== 0) return;
      req.body = qs.parse(fields.join('&'), { allowPrototypes: true });
      Object.assign(req.files!, files);
      next();
    };

    req.on('data', (chunk: Buffer) => {
      received += chunk.length;
      if (received > limit) fail(createHttpError(413, 'TRESTLE_ERR_ENTITY_TOO_LARGE', 'request entity too large', { type: 'entity.too.large', limit, length: received }));
    });
    req.on('aborted', () => fail(createHttpError(400, 'ECONNABORTED', 'request aborted', { type: 'request.aborted' })));

    // busboy can stall on a malformed body: a part whose header block ends on the boundary,
    // followed by a part cut short, leaves a file stream it never ends, and it waits for that
    // stream for ever. Once the whole body is in, busboy has taken every byte and no file
    // stream has data left to move, nothing more can happen: the form is malformed.
    const checkStalled = (): void => {
      if (failed || parsed || parser.writableLength !== 0) return;
      for (const stream of open) if (stream.readableLength !== 0 || stream.isPaused()) return;
      fail(createHttpError(400, 'TRESTLE_ERR_MULTIPART_PARSE_FAILED', 'Unexpected end of form', { type: 'multipart.parse.failed' }));
      parser.destroy();
    };
    const checkSoon = (): void => {
      setImmediate(checkStalled);
    };
    req.on('end', checkSoon);

    parser.on('field', (name, value) => fields.push(`${encodeURIComponent(name)}=${encodeURIComponent(value)}`));
    parser.on('file', (name, stream, info) => {
      open.add(stream);
      stream.on('close', () => open.delete(stream));
      stream.on('end', () => open.delete(stream));
      // Drained, never written: a file in a field named `__proto__` (qs drops such a field
      // too), and any part busboy still emits after the upload failed (no one would remove it).
      if (failed || name === '__proto__') {
        stream.on('error', ignore);
        stream.resume();
        return;
      }
      const path = join(uploadDir, `trestle-${randomUUID()}${options.keepExtensions ? extname(info.filename ?? '') : ''}`);
      pending++;
      const digest = options.hash ? createHash(options.hash) : null;
      let size = 0;
      const out = createWriteStream(path);
      const upload: Upload = { path, out, closed: false };
      uploads.push(upload);
      out.on('close', () => {
        upload.closed = true;
        if (failed) discard(upload);
      });
      stream.on('data', (chunk: Buffer) => {
        size += chunk.length;
        digest?.update(chunk);
      });
      stream.on('limit', () => fail(createHttpError(413, 'TRESTLE_ERR_ENTITY_TOO_LARGE', 'request entity too large', { type: 'entity.too.large', limit })));
      // busboy errors the file stream of a form that ends mid-file; unheard, that error would crash the process.
      stream.on('error', (err: Error) => fail(createHttpError(400, 'TRESTLE_ERR_MULTIPART_PARSE_FAILED', err.message, { type: 'multipart.parse.failed' })));
      out.on('error', fail);
      // A write stream that had fallen behind caught up: the stall check may now see the whole picture.
      out.on('drain', checkSoon);
      out.on('finish', () => {
        pending--;
        add(files, name, new File(name, path, info.filename ?? '', info.mimeType, size, digest ? digest.digest('hex') : null, new Date()));
        finish();
      });
      stream.pipe(out);
    });
    parser.on('error', (err: Error) => fail(createHttpError(400, 'TRESTLE_ERR_MULTIPART_PARSE_FAILED', err.message, { type: 'multipart.parse.failed' })));
    parser.on('close', () => {
      parsed = true;
      finish();
    });
    req.pipe(parser);
  };
}
