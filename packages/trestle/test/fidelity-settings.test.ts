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

/** An object's prototype, named. */
function protoName(value: object): string {
  const proto = Object.getPrototypeOf(value) as object | null;
  if (proto === null) return 'null';
  if (proto === Object.prototype) return 'Object.prototype';
  if (proto === Function.prototype) return 'Function.prototype';
  return 'another object';
}

describe('the prototypes of the objects an app keeps', () => {
  /** Express 5 gives them none; Express 4 and 3 made them ordinary objects. */
  const expected: Record<Generation, string> = { v5: 'null', v4: 'Object.prototype', legacy: 'Object.prototype' };
  for (const gen of GENERATIONS) {
    twinTest(`${gen}: app.settings, app.engines and app.cache: ${expected[gen]}`, (x) => {
      const app = appOf(x, gen);
      assert.deepEqual([app.settings, app.engines, app.cache].map(protoName), Array(3).fill(expected[gen]));
    });
  }

  /** Express 5 and 4 give res.locals no prototype; Express 3 made it a function (res.locals(obj) merges). */
  const resLocals: Record<Generation, string> = { v5: 'object null', v4: 'object null', legacy: 'function Function.prototype' };
  for (const gen of GENERATIONS) {
    twinTest(`${gen}: res.locals is ${resLocals[gen]}`, async (x) => {
      const app = appOf(x, gen);
      app.get('/', (_req, res) => res.send(`${typeof res.locals} ${protoName(res.locals as object)}`));
      assert.equal(await get(app, '/'), resLocals[gen]);
    });
  }

  for (const gen of GENERATIONS) {
    twinTest(`${gen}: app.locals is a function`, (x) => {
      const app = appOf(x, gen);
      assert.deepEqual([typeof app.locals, protoName(app.locals)], ['function', 'Function.prototype']);
    }, gen === 'legacy' ? undefined : `spec: app.locals is a function object in every generation (Express ${gen === 'v5' ? 5 : 4} made it an object with no prototype)`);
  }
});

describe("a mounted app's settings", () => {
  for (const gen of GENERATIONS) {
    twinTest(`${gen}: inherit its parent's, keeping its own defaults; so do its engines`, (x) => {
      const app = appOf(x, gen);
      const sub = appOf(x, gen);
      app.set('custom', 'parent');
      app.set('etag', false);
      const render = () => undefined;
      (app as unknown as { engine(ext: string, fn: unknown): void }).engine('tpl', render);
      app.use('/sub', sub);
      const read = sub as unknown as { get(name: string): unknown };
      assert.equal(Object.getPrototypeOf(sub.settings), app.settings);
      assert.equal(Object.getPrototypeOf(sub.engines), app.engines);
      assert.deepEqual([read.get('custom'), read.get('etag')], ['parent', 'weak']);
      assert.equal((sub.engines as Record<string, unknown>)['.tpl'], render);
    });
  }

  for (const gen of GENERATIONS) {
    twinTest(`${gen}: a name only Object.prototype has is no setting`, (x) => {
      const app = appOf(x, gen) as unknown as { get(name: string): unknown; enabled(name: string): boolean };
      assert.deepEqual([app.get('toString'), app.get('constructor'), app.enabled('hasOwnProperty')], [undefined, undefined, false]);
    }, gen === 'legacy' ? 'Express 3 read app.get(name) straight off its settings: app.get("toString") was Object.prototype.toString; trestle/legacy reads them as v4' : undefined);
  }
});
