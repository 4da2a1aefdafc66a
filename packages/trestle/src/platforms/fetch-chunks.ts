// An app that sets `Transfer-Encoding: chunked` itself gets node's chunk
// framing in what it writes, even on a `Response` socket (which otherwise
// answers without it). A `Response` carries the body as is: this strips the
// framing again, for those answers only.

const SIZE = 0;
const DATA = 1;
const DATA_END = 2;
const DONE = 3;

/** The payload of a chunked body written in pieces of any size. */
export class Unchunker {
  private state = SIZE;
  /** Payload bytes of the current chunk still to come, or CRLF bytes to skip after it. */
  private left = 0;
  /** The hex size line read so far. */
  private size = '';

  /** The payload bytes in `data` (as is when all of it is payload). */
  take(data: Buffer): Buffer {
    if (this.state === DATA && data.length <= this.left) {
      this.advance(data.length);
      return data;
    }
    const parts: Buffer[] = [];
    let i = 0;
    while (i < data.length && this.state !== DONE) {
      if (this.state === SIZE) {
        const nl = data.indexOf(10, i);
        this.size += data.toString('latin1', i, nl < 0 ? data.length : nl);
        if (nl < 0) break;
        i = nl + 1;
        // `6\r`, or `6;ext=1\r`: parseInt reads the hex digits and stops.
        const size = Number.parseInt(this.size, 16);
        this.size = '';
        if (size > 0) {
          this.state = DATA;
          this.left = size;
        } else {
          this.state = DONE; // the last chunk: trailers and the final CRLF carry no payload
        }
      } else if (this.state === DATA) {
        const n = Math.min(this.left, data.length - i);
        parts.push(data.subarray(i, i + n));
        i += n;
        this.advance(n);
      } else {
        i++;
        if (--this.left === 0) this.state = SIZE;
      }
    }
    return parts.length === 1 ? parts[0]! : Buffer.concat(parts);
  }

  /** `n` payload bytes consumed: after the chunk's last, the CRLF that closes it. */
  private advance(n: number): void {
    this.left -= n;
    if (this.left === 0) {
      this.state = DATA_END;
      this.left = 2;
    }
  }
}
