// Backpressure through app.fetch, measured inside one runtime (Node, Bun,
// Deno, or a Worker under workerd): a handler writes `total` bytes in
// `chunk`-sized writes, waiting for 'drain' whenever res.write() says false;
// the Response's body is read one chunk every `everyMs` ms. Reports how far
// the writer ever got ahead of the reader, how often write() said false and
// 'drain' came, and whether the handler finished. Bounded by `deadlineMs`: a
// drain that never comes is reported (stalled), not waited for. CommonJS with
// no TypeScript, so every runtime and a Worker bundler take it as it is.
'use strict';
const { Buffer } = require('buffer');

function sleep(ms) {
  return new Promise((resolve) => setTimeout(resolve, ms));
}

async function probe(framework, opts) {
  const { total, chunk, everyMs, deadlineMs } = opts;
  const app = framework();
  const state = { written: 0, falses: 0, drains: 0, finished: false };
  app.get('/big', async (req, res) => {
    res.type('application/octet-stream');
    const bytes = Buffer.alloc(chunk, 97);
    while (state.written < total) {
      state.written += bytes.length;
      if (!res.write(bytes)) {
        state.falses++;
        await new Promise((resolve) => res.once('drain', resolve));
        state.drains++;
      }
    }
    res.end();
    state.finished = true;
  });
  const started = Date.now();
  const deadline = started + deadlineMs;
  const response = await app.fetch(new Request('http://127.0.0.1/big'));
  const reader = response.body.getReader();
  let read = 0;
  let maxAhead = 0;
  let stalled = false;
  for (;;) {
    let timer;
    const late = new Promise((resolve) => (timer = setTimeout(resolve, Math.max(0, deadline - Date.now()), 'late')));
    const next = await Promise.race([reader.read(), late]);
    clearTimeout(timer);
    if (next === 'late') {
      stalled = true;
      reader.cancel().catch(() => undefined);
      break;
    }
    if (next.done) break;
    // Ahead: what the writer had handed over that the reader had not taken before this chunk.
    maxAhead = Math.max(maxAhead, state.written - read);
    read += next.value.byteLength;
    await sleep(everyMs);
  }
  // The handler ends after its last write: a turn or two after the reader saw the end.
  for (let i = 0; i < 50 && !state.finished && !stalled; i++) await sleep(10);
  return { read, written: state.written, maxAhead, falses: state.falses, drains: state.drains, finished: state.finished, stalled, ms: Date.now() - started };
}

module.exports = probe;
