// Express's own files, required by path (`express/lib/router/layer`...), as
// packages do with trestle installed under Express's name: trestle ships them
// as `trestle/lib/*` (Express 5's files; `lib/router/*`, which only Express 4
// has, are trestle/v4's) and `trestle/v4/lib/*` (Express 4's, for an Express
// 4 shim to forward to). Each is checked against the same file of Express
// itself, and what tools patch there (Express 4's `Layer.prototype`) must
// reach the app's layers as it does in Express 4.
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { localRequire } from './express-alias';
import { serve } from './helpers';

type Next = (err?: unknown) => void;
type Handler = (req: { url: string }, res: { end(body: string): void }, next: Next) => void;
interface AppLike {
  (req: unknown, res: unknown): void;
  use(...args: unknown[]): AppLike;
  get(path: string, ...fns: Handler[]): AppLike;
  _router?: { stack: unknown[] };
  lazyrouter?(): void;
}
interface LayerClass {
  (path: string, options: object, fn: Handler): { name: string };
  new (path: string, options: object, fn: Handler): { name: string };
  prototype: Record<string, unknown>;
}

const v5Files = ['express', 'application', 'request', 'response', 'view'];
const v4Files = [...v5Files, 'router/index', 'router/route', 'router/layer'];
/** What each file exports, as the factory holds it. */
const members: Record<string, string | undefined> = { express: undefined, application: 'application', request: 'request', response: 'response', 'router/index': 'Router', 'router/route': 'Route' };

describe("Express's files by path", () => {
  test('trestle/lib/* are Express 5\'s files, lib/router/* trestle/v4\'s; trestle/v4/lib/* Express 4\'s', () => {
    const trestle = localRequire('trestle') as Record<string, unknown>;
    const trestleV4 = localRequire('trestle/v4') as Record<string, unknown>;
    for (const file of v4Files) {
      const fromV4 = localRequire(`trestle/v4/lib/${file}`);
      assert.equal(localRequire(`trestle/v4/lib/${file}.js`), fromV4, file);
      const member = members[file];
      if (file in members) assert.equal(fromV4, member === undefined ? trestleV4 : trestleV4[member], file);
      const shipped = localRequire(`trestle/lib/${file}`);
      assert.equal(localRequire(`trestle/lib/${file}.js`), shipped, file);
      if (file.startsWith('router/')) assert.equal(shipped, fromV4, file);
      else if (file in members) assert.equal(shipped, member === undefined ? trestle : trestle[member], file);
    }
    assert.equal(localRequire('trestle/lib/router'), trestleV4.Router);
    assert.equal(localRequire('trestle/v4/lib/router'), trestleV4.Router);
    // The view class is the one apps use by default.
    assert.equal(localRequire('trestle/lib/view'), (trestle as unknown as () => { get(name: string): unknown })().get('view'));
  });

  test('each file exports what the same file of Express does (a function or an object)', () => {
    for (const [dir, files, express] of [['trestle/lib', v5Files, 'express5'], ['trestle/v4/lib', v4Files, 'express4']] as const) {
      for (const file of files) {
        assert.equal(typeof localRequire(`${dir}/${file}`), typeof localRequire(`${express}/lib/${file}`), `${dir}/${file}`);
      }
    }
  });
});

/**
 * Express 4's `Layer.prototype.handle_request` and `handle_error` wrapped
 * (as tracers and error helpers do); the names of the layers they ran, in
 * order, for a request that fails in a route and is answered by an error
 * handler. The wrappers are removed afterwards.
 */
async function patchedRun(express: () => AppLike, Layer: LayerClass): Promise<{ body: string; ran: string[] }> {
  const proto = Layer.prototype as Record<string, (this: { name: string }, ...args: unknown[]) => unknown>;
  const original = { handle_request: proto.handle_request!, handle_error: proto.handle_error! };
  const ran: string[] = [];
  proto.handle_request = function (...args: unknown[]) {
    ran.push(`request ${this.name}`);
    return original.handle_request.apply(this, args);
  };
  proto.handle_error = function (...args: unknown[]) {
    ran.push(`error ${this.name}`);
    return original.handle_error.apply(this, args);
  };
  try {
    const app = express();
    app.use(function logger(_req: unknown, _res: unknown, next: Next) {
      next();
    });
    app.get('/fail', function failing() {
      throw new Error('failed');
    });
    app.use(function answer(err: Error, _req: unknown, res: { end(body: string): void }, _next: Next) {
      res.end(`handled ${err.message}`);
    });
    const served = await serve(app as never);
    try {
      const res = await fetch(`http://127.0.0.1:${served.port}/fail`);
      return { body: await res.text(), ran };
    } finally {
      await served.close();
    }
  } finally {
    Object.assign(proto, original);
  }
}

describe("Express 4's Layer, patched and made by hand", () => {
  test('handle_request and handle_error patched on its prototype run for every layer, as in Express 4', async () => {
    const express4 = await patchedRun(localRequire('express4') as () => AppLike, localRequire('express4/lib/router/layer') as LayerClass);
    const ours = await patchedRun(localRequire('trestle/v4') as () => AppLike, localRequire('trestle/v4/lib/router/layer') as LayerClass);
    assert.equal(express4.body, 'handled failed');
    assert.ok(express4.ran.includes('request failing') && express4.ran.includes('error answer'), express4.ran.join(', '));
    assert.deepEqual(ours, express4);
  });

  test('the patch stays in trestle/v4: a trestle (v5) app runs no Express 4 method', async () => {
    const { body, ran } = await patchedRun(localRequire('trestle') as () => AppLike, localRequire('trestle/lib/router/layer') as LayerClass);
    assert.equal(body, 'handled failed');
    assert.deepEqual(ran, []);
  });

  for (const [name, express, layerFile] of [['express4', 'express4', 'express4/lib/router/layer'], ['trestle/v4', 'trestle/v4', 'trestle/v4/lib/router/layer']] as const) {
    test(`${name}: Layer(path, options, fn), with and without new, answers from a router's stack`, async () => {
      const Layer = localRequire(layerFile) as LayerClass;
      const app = (localRequire(express) as () => AppLike)();
      app.lazyrouter!();
      const made = new Layer('/made', { end: false }, (req, res) => res.end(`made ${req.url}`));
      const called = Layer('/', { end: false }, (_req, res) => res.end('fallback'));
      assert.ok(made instanceof Layer && called instanceof Layer);
      app._router!.stack.push(made, called);
      const served = await serve(app as never);
      try {
        assert.equal(await (await fetch(`http://127.0.0.1:${served.port}/made/x`)).text(), 'made /x');
        assert.equal(await (await fetch(`http://127.0.0.1:${served.port}/other`)).text(), 'fallback');
      } finally {
        await served.close();
      }
    });
  }
});
