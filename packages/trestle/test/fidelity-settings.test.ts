// What an app's settings hand over and where its objects come from, per
// generation: the argument a `query parser` function gets, and the
// prototypes of app.settings, app.locals, res.locals, app.engines and
// app.cache (a mounted app's settings inheriting its parent's). Checked
// against express@5, @4 and @3 black-box, and each test runs on the real
// packages too (twin.ts); where trestle differs, `differs` says why.
import assert from 'node:assert/strict';
import type * as http from 'node:http';
import { describe } from 'node:test';
import { rawRequest, serve } from './helpers';
import { type Family, twinTest } from './twin';

type Generation = 'v5' | 'v4' | 'legacy';
const GENERATIONS: Generation[] = ['v5', 'v4', 'legacy'];

type Handler = (req: { query: unknown }, res: { send(body: string): void; locals: unknown }) => void;
interface LooseApp extends http.RequestListener {
  get(path: string, fn: Handler): unknown;
  set(name: string, value: unknown): unknown;
  use(path: string, app: LooseApp): unknown;
  settings: object;
  locals: object;
  engines: object;
  cache: object;
}

function appOf(x: Family, gen: Generation): LooseApp {
  return (x[gen] as unknown as () => LooseApp)();
}

async function get(app: LooseApp, path: string): Promise<string> {
  const server = await serve(app);
  try {
    return (await rawRequest(server.port, 'GET', path)).body;
  } finally {
    await server.close();
  }
}

describe('a query parser function', () => {
  for (const gen of GENERATIONS) {
    twinTest(`${gen}: gets the query string, '' for a bare '?', null when the URL has none`, async (x) => {
      const app = appOf(x, gen);
      app.set('query parser', (str: unknown) => ({ str }));
      app.get('/', (req, res) => res.send(JSON.stringify(req.query)));
      const answers = [];
      for (const path of ['/?a=1', '/?', '/']) answers.push(await get(app, path));
      assert.deepEqual(answers, ['{"str":"a=1"}', '{"str":""}', '{"str":null}']);
    }, gen === 'legacy' ? 'docs/migrating-legacy.md: the query parser setting is read as in v4 (Express 3 had none and always parsed with qs)' : undefined);
  }
});
