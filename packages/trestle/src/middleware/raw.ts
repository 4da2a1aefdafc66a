// `trestle.raw()`: the body as a Buffer in `req.body`.
import type { RawOptions } from '../types';
import { type CommonOptions, commonConfig, createParser } from './body';
import { optionsObject } from './options';

function keepBuffer(body: Buffer): Buffer {
  return body;
}

function noCharset(): null {
  return null;
}

export function raw(options?: RawOptions | null): ReturnType<typeof createParser> {
  const common = commonConfig(optionsObject(options) as CommonOptions, 'application/octet-stream');
  return createParser('rawParser', { ...common, charsetOf: noCharset, parse: keepBuffer });
}
