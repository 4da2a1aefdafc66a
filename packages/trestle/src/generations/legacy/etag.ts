// Express 3's ETags: the `etag` package of its day (1.7) hashed with MD5,
// `"<length in hex>-<base64 MD5 without padding>"`. Same freshness rules as
// later generations, other tag text; a client's cached tag from an Express 3
// server stays valid when the app moves to trestle/legacy.
import { Buffer } from 'node:buffer';
import { createHash } from 'node:crypto';
import type { EtagFn } from '../../app/settings';
import { compileETag } from '../../app/settings';

function md5Tag(body: string | Buffer, encoding: BufferEncoding | undefined, weak: boolean): string {
  const buf = typeof body === 'string' ? Buffer.from(body, encoding) : body;
  const hash = buf.length === 0 ? '1B2M2Y8AsgTpgAmY7PhCfg' : createHash('md5').update(buf).digest('base64').replace(/=+$/, '');
  return `${weak ? 'W/' : ''}"${buf.length.toString(16)}-${hash}"`;
}

const weakMd5: EtagFn = (body, encoding) => md5Tag(body, encoding, true);
const strongMd5: EtagFn = (body, encoding) => md5Tag(body, encoding, false);

/** `etag` setting values as Express 3 compiled them. */
export function compileETagMd5(value: unknown): EtagFn | undefined {
  if (value === true || value === 'weak') return weakMd5;
  if (value === 'strong') return strongMd5;
  return compileETag(value);
}
