// The shapes AWS hands a Lambda function for an HTTP request, and the result
// it takes back: only the fields trestle reads or writes (AWS sends more, and
// they stay on the event the app can reach). Written from AWS's documented
// payload formats, so that no types package is needed to use them.

/** Values keyed by name, as AWS gives headers and query parameters (absent ones may be `null`). */
export type StringMap = Record<string, string | undefined> | null | undefined;
export type StringsMap = Record<string, string[] | undefined> | null | undefined;

/** API Gateway REST APIs (and HTTP APIs asked for payload 1.0): `httpMethod`, `path`, multi-value maps. */
export interface LambdaRestEvent {
  version?: '1.0' | undefined;
  httpMethod: string;
  path: string;
  resource?: string | undefined;
  headers?: StringMap;
  multiValueHeaders?: StringsMap;
  queryStringParameters?: StringMap;
  multiValueQueryStringParameters?: StringsMap;
  body?: string | null | undefined;
  isBase64Encoded?: boolean | undefined;
  requestContext: {
    stage?: string | undefined;
    path?: string | undefined;
    domainName?: string | undefined;
    identity?: { sourceIp?: string | undefined; [key: string]: unknown } | undefined;
    [key: string]: unknown;
  };
  [key: string]: unknown;
}

/** API Gateway HTTP APIs (payload 2.0) and Lambda function URLs: `rawPath`, `rawQueryString`, `cookies`. */
export interface LambdaHttpEvent {
  version: '2.0';
  rawPath: string;
  rawQueryString?: string | undefined;
  cookies?: string[] | undefined;
  headers?: StringMap;
  body?: string | undefined;
  isBase64Encoded?: boolean | undefined;
  requestContext: {
    domainName?: string | undefined;
    stage?: string | undefined;
    http: { method: string; path?: string | undefined; sourceIp?: string | undefined; [key: string]: unknown };
    [key: string]: unknown;
  };
  [key: string]: unknown;
}

/** An Application Load Balancer target group: headers single-valued, or all multi-valued when the group says so. */
export interface LambdaAlbEvent {
  httpMethod: string;
  path: string;
  headers?: StringMap;
  multiValueHeaders?: StringsMap;
  queryStringParameters?: StringMap;
  multiValueQueryStringParameters?: StringsMap;
  body?: string | undefined;
  isBase64Encoded?: boolean | undefined;
  requestContext: { elb: { targetGroupArn?: string | undefined } };
  [key: string]: unknown;
}

/** Every HTTP event `lambda()` answers. */
export type LambdaEvent = LambdaRestEvent | LambdaHttpEvent | LambdaAlbEvent;

/** The invocation's context object, as Lambda's Node runtime passes it (the members trestle documents). */
export interface LambdaContext {
  awsRequestId?: string;
  functionName?: string;
  getRemainingTimeInMillis?(): number;
  [key: string]: unknown;
}

/** What the handler resolves to for API Gateway payload 1.0 and ALB events. */
export interface LambdaV1Result {
  statusCode: number;
  /** ALB only: the status line's text, such as `200 OK`. */
  statusDescription?: string;
  headers?: Record<string, string>;
  multiValueHeaders?: Record<string, string[]>;
  body: string;
  isBase64Encoded: boolean;
}

/** What the handler resolves to for payload 2.0 (HTTP APIs, function URLs): Set-Cookie answers in `cookies`. */
export interface LambdaV2Result {
  statusCode: number;
  headers: Record<string, string>;
  cookies?: string[];
  body: string;
  isBase64Encoded: boolean;
}

export type LambdaResult = LambdaV1Result | LambdaV2Result;

/** Where the app finds the invocation: `req.platform` on every request `lambda()` makes. */
export interface LambdaPlatform {
  name: 'lambda';
  event: LambdaEvent;
  context: LambdaContext;
}

/** Which answers are sent base64-encoded: media types or globs (`image/*`), or a function deciding each. */
export type BinarySetting = string[] | ((contentType: string, headers: Headers) => boolean);

export interface LambdaOptions {
  /**
   * Answers to send as binary (base64, `isBase64Encoded: true`). A list of
   * media types or globs adds to the default (anything with a
   * Content-Encoding, and every type that is not text, JSON, XML,
   * JavaScript or a form); a function decides every answer itself.
   */
  binary?: BinarySetting | undefined;
  /**
   * A path prefix the app does not see, such as a custom domain's base path
   * mapping (`'/api'`). The stage of an HTTP API's named stage is always
   * removed; a REST API's `path` never has it.
   */
  basePath?: string | undefined;
  /** Stream the answer (function URLs in `RESPONSE_STREAM` mode): the handler is `awslambda.streamifyResponse()`'s. */
  streaming?: boolean | undefined;
}

/** The handler `lambda(app)` returns: an event and its context in, the result out. */
export type LambdaHandler = (event: LambdaEvent, context: LambdaContext) => Promise<LambdaResult>;

/** The writable stream Lambda's runtime gives a streaming handler (a node `Writable`). */
export interface LambdaResponseStream {
  write(chunk: Uint8Array | string): boolean;
  end(): void;
  once(event: 'drain' | 'close' | 'error', listener: () => void): unknown;
  on(event: 'drain' | 'close' | 'error', listener: () => void): unknown;
  off(event: 'drain' | 'close' | 'error', listener: () => void): unknown;
  destroy?(err?: Error): unknown;
  [key: string]: unknown;
}

/** The metadata written before a streamed body: status, headers and Set-Cookie answers. */
export interface LambdaStreamMetadata {
  statusCode: number;
  headers: Record<string, string>;
  cookies: string[];
}

/** The handler `lambda(app, { streaming: true })` returns, as `awslambda.streamifyResponse()` returns it. */
export type LambdaStreamingHandler = (event: LambdaEvent, responseStream: LambdaResponseStream, context: LambdaContext) => Promise<void>;

/** What `lambda()` needs of an app: its `fetch`. */
export interface FetchingApp {
  fetch(request: Request, options?: { remoteAddress?: string | undefined; platform?: unknown }): Promise<Response>;
}
