// A node:test reporter for run-tests.mjs: one JSON line per event it needs from
// a file's process. test:dequeue and test:complete say which test is running
// (to name it if the file overruns its time); test:pass and test:fail are counted.
const wanted = new Set(['test:dequeue', 'test:complete', 'test:pass', 'test:fail']);

export default async function* fileEvents(source) {
  for await (const { type, data } of source) {
    if (!wanted.has(type)) continue;
    const { name, nesting, file, skip, todo, details } = data;
    yield `${JSON.stringify({ type, data: { name, nesting, file, skip, todo, details: { type: details?.type } } })}\n`;
  }
}
