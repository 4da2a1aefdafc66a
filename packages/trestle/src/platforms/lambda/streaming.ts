// Response streaming: the handler `awslambda.streamifyResponse()` wraps
// (function URLs in RESPONSE_STREAM mode). The status, headers and cookies
// go first, through `awslambda.HttpResponseStream.from()`, then the body as
// the app writes it, waiting for 'drain' when Lambda's stream is full.
import { createError } from '../../errors';
import type { LambdaResponseStream, LambdaStreamMetadata, LambdaStreamingHandler } from './types';

/** The global Lambda's Node runtime provides (`awslambda`), as far as this uses it. */
interface AwsLambdaGlobal {
  streamifyResponse(handler: LambdaStreamingHandler): LambdaStreamingHandler;
  HttpResponseStream: { from(stream: LambdaResponseStream, metadata: LambdaStreamMetadata): LambdaResponseStream };
}

export function awsLambda(): AwsLambdaGlobal {
  const aws = (globalThis as { awslambda?: AwsLambdaGlobal }).awslambda;
  if (aws === undefined || typeof aws.streamifyResponse !== 'function') {
    throw createError(Error, 'TRESTLE_ERR_LAMBDA_STREAMING_UNAVAILABLE', 'lambda(): streaming needs the awslambda global of Lambda\'s Node.js runtime');
  }
  return aws;
}

function metadataOf(response: Response): LambdaStreamMetadata {
  const headers: Record<string, string> = {};
  for (const [name, value] of response.headers) if (name !== 'set-cookie') headers[name] = value;
  return { statusCode: response.status, headers, cookies: response.headers.getSetCookie() };
}

/**
 * Lambda's stream has room again ('drain'), or is gone ('close'). Both
 * listeners go when either comes: an answer waits thousands of times.
 */
function drained(stream: LambdaResponseStream): Promise<void> {
  return new Promise((resolve) => {
    const done = (): void => {
      stream.off('drain', done);
      stream.off('close', done);
      resolve();
    };
    stream.on('drain', done);
    stream.on('close', done);
  });
}

/** Writes the answer to Lambda's stream; Lambda's stream closing early is the client going away. */
export async function streamTo(responseStream: LambdaResponseStream, response: Response, aws: AwsLambdaGlobal): Promise<void> {
  const stream = aws.HttpResponseStream.from(responseStream, metadataOf(response));
  const body = response.body;
  if (body === null) {
    stream.end();
    return;
  }
  const reader = body.getReader();
  let finished = false;
  // Lambda's stream closing before the end: the client went away, which cancelling the body tells the app.
  stream.once('close', () => {
    if (!finished) reader.cancel().catch(ignore);
  });
  try {
    for (;;) {
      const { done, value } = await reader.read();
      if (done) break;
      if (!stream.write(value)) await drained(stream);
    }
  } catch (err) {
    // The app failed after its headers went out. The stream is left open:
    // the runtime, seeing the handler reject, ends it with the error in its
    // trailers (Lambda-Runtime-Function-Error-Type/-Body). Destroying it here
    // took that away and left the runtime's own wait on the stream rejected
    // with nobody to handle it, which killed the function's process.
    finished = true;
    throw err;
  }
  finished = true;
  stream.end();
}

function ignore(): void {}
