// Streaming on Bun and Deno, through app.listen() and through the runtime's
// own server with app.fetch, for the three entries (and on Node over a socket
// as the reference): a response written in parts reaches the client part by
// part (server-sent events work), and a client that leaves mid-stream, or
// before the app answered at all, is seen by the app as a closed request and
// response. The app is app.cjs's
// streamRoutes: its second part waits for /stream/release, so no timing is
// assumed. CI runs this file once, on its first Node (.ci/run).
import assert from 'node:assert/strict';
import http from 'node:http';
import { join } from 'node:path';
import { describe, test } from 'node:test';
import { bun, deno, missing, node, request, start, type Runtime, type Started } from './spawn';

const SERVE = join(__dirname, 'serve.cjs');
const ENTRIES = ['trestle', 'v4', 'legacy'] as const;

interface Opened {
  res: http.IncomingMessage;
  client: http.ClientRequest;
  /** The body's next chunk as text. */
  next(): Promise<string>;
  /** The rest of the body once it ends. */
  rest(): Promise<string>;
}

/** `promise`, or a failure naming `what` after 10 s (an answer held back whole would otherwise hang the file). */
function within<T>(promise: Promise<T>, what: string): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const late = new Promise<never>((_, reject) => (timer = setTimeout(() => reject(new Error(`${what} did not come within 10 s`)), 10_000)));
  return Promise.race([promise, late]).finally(() => clearTimeout(timer));
}

/** GET /stream, resolved once its head has come. */
function open(port: number): Promise<Opened> {
  const opened = new Promise<Opened>((resolve, reject) => {
    const client = http.get({ host: '127.0.0.1', port, path: '/stream', agent: false }, (res) => {
      res.setEncoding('utf8');
      const next = (): Promise<string> => within(new Promise((ok) => res.once('data', ok)), 'the first part of a stream still open');
      const rest = (): Promise<string> =>
        within(
          new Promise((ok, fail) => {
            let text = '';
            res.on('data', (d: string) => (text += d));
            res.once('end', () => ok(text));
            res.once('error', fail);
          }),
          'the end of a released stream',
        );
      resolve({ res, client, next, rest });
    });
    client.once('error', reject);
  });
  return within(opened, 'the head of a stream still open');
}

/** /stream/state until `done` holds of it: at most 50 tries, 100 ms apart. */
async function stateUntil(port: number, done: (state: { closed: boolean; aborted: boolean } | null) => boolean): Promise<unknown> {
  let state: { closed: boolean; aborted: boolean } | null = null;
  for (let i = 0; i < 50; i++) {
    state = JSON.parse((await request(port, 'GET', '/stream/state')).body) as typeof state;
    if (done(state)) return state;
    await new Promise((r) => setTimeout(r, 100));
  }
  return state;
}

async function streams(server: Started): Promise<void> {
  const stream = await open(server.port);
  assert.equal(stream.res.statusCode, 200);
  assert.match(String(stream.res.headers['content-type']), /^text\/event-stream/);
  // The first part is here while the app has not ended the answer.
  assert.equal(await stream.next(), 'data: one\n\n');
  const rest = stream.rest();
  assert.equal((await within(request(server.port, 'GET', '/stream/release'), 'the answer to /stream/release')).body, 'released');
  assert.equal(await rest, 'data: two\n\n');
}

async function clientLeaves(server: Started): Promise<void> {
  const stream = await open(server.port);
  assert.equal(await stream.next(), 'data: one\n\n');
  stream.res.on('error', () => {}).destroy();
  stream.client.destroy();
  const state = await stateUntil(server.port, (s) => s !== null && s.closed && s.aborted);
  assert.deepEqual(state, { closed: true, aborted: true }, 'req and res closed before the answer finished');
}

async function clientLeavesFirst(server: Started): Promise<void> {
  const client = http.get({ host: '127.0.0.1', port: server.port, path: '/held', agent: false });
  client.on('error', () => {});
  await stateUntil(server.port, (s) => s !== null);
  client.destroy();
  const state = await stateUntil(server.port, (s) => s !== null && s.closed && s.aborted);
  assert.deepEqual(state, { closed: true, aborted: true }, 'req and res closed with no answer begun');
}

async function on(runtime: Runtime, entry: string, how: string, check: (server: Started) => Promise<void>): Promise<void> {
  const server = await start(runtime, SERVE, [entry, how]);
  try {
    await check(server);
  } finally {
    await server.stop();
  }
}

const hows: [Runtime, string, string][] = [
  [node, 'listen', 'Node, app.listen()'],
  [bun, 'listen', 'Bun, app.listen()'],
  [bun, 'native', 'Bun.serve({ fetch: app.fetch })'],
  [deno, 'listen', 'Deno, app.listen()'],
  [deno, 'native', 'Deno.serve(app.fetch)'],
];

for (const [runtime, how, label] of hows) {
  describe(`streaming: ${label}`, { skip: missing(runtime) }, () => {
    for (const entry of ENTRIES) {
      const name = entry === 'trestle' ? 'trestle' : `trestle/${entry}`;
      test(`${name}: res.write parts arrive as written`, () => on(runtime, entry, how, streams));
      test(`${name}: a client leaving mid-stream closes req and res`, () => on(runtime, entry, how, clientLeaves));
      test(`${name}: a client leaving before any answer closes req and res`, () => on(runtime, entry, how, clientLeavesFirst));
    }
  });
}
