// A router's stack is public and mutable: apps and tools splice, replace,
// sort and re-assign it at run time. Whatever changed it, the next request
// must be routed as walking the stack in order would route it, also when
// the router uses its layer index (8 or more layers with a literal prefix).
import assert from 'node:assert/strict';
import type * as http from 'node:http';
import { after, before, describe, test } from 'node:test';
import fc from 'fast-check';
import trestle from 'trestle';
import legacy from 'trestle/legacy';
import trestleV4 from 'trestle/v4';
import { rawRequest, type Served, serve } from './helpers';

type Next = (err?: unknown) => void;
type Handler = (req: TracedRequest, res: http.ServerResponse & { send(body: string): unknown }, next: Next) => void;
interface TracedRequest extends http.IncomingMessage {
  trace?: number[];
}
interface LayerLike {
  route?: { stack: unknown[]; post(fn: Handler): unknown } | undefined;
}
/** What these tests use of a router; the app's router and `Router()` alike. */
interface RouterLike {
  stack: LayerLike[];
  get(path: string, fn: Handler): unknown;
  use(path: string, fn: Handler): unknown;
}
type Listener = (req: http.IncomingMessage, res: http.ServerResponse, next: Next) => void;

/** Where the mutated router lives: the app's own, or one mounted at `/n`. */
interface Setup {
  name: string;
  make(): { app: Listener; router: RouterLike; prefix: string };
}

type Framework = typeof trestle | typeof trestleV4 | typeof legacy;
function mounted(name: string, framework: Framework): Setup {
  return {
    name: `${name}: a router mounted at /n`,
    make() {
      const app = framework();
      const router = framework.Router() as unknown as RouterLike;
      app.use('/n', router as never);
      return { app: app as unknown as Listener, router, prefix: '/n' };
    },
  };
}
function appRouter(name: string, framework: typeof trestle | typeof trestleV4, read: (app: never) => RouterLike): Setup {
  return {
    name: `${name}: the app's router`,
    make() {
      const app = framework();
      app.get('/warm-up', (_req, res) => res.end());
      return { app: app as unknown as Listener, router: read(app as never), prefix: '' };
    },
  };
}

const setups: Setup[] = [
  appRouter('v5', trestle, (app: trestle.Application) => app.router as unknown as RouterLike),
  appRouter('v4', trestleV4, (app: { _router: RouterLike }) => app._router),
  mounted('v5', trestle),
  mounted('v4', trestleV4),
  mounted('legacy', legacy),
];

const PATHS = ['/', '/a', '/b', '/a/b', '/b/a', '/c', '/a/c', '/c/b'];

/** The model of one layer: what walking the stack in order does with it. */
interface Entry {
  id: number;
  kind: 'route' | 'use';
  path: string;
  methods: string[];
  cleared: boolean;
}

/** The answer of walking `entries` in order: `<route id>|<middleware ids>`, or 404. */
function expected(entries: Entry[], method: string, path: string): { status: number; body: string } {
  const trace: number[] = [];
  for (const e of entries) {
    if (e.kind === 'use') {
      if (e.path === '/' || path === e.path || path.startsWith(`${e.path}/`)) trace.push(e.id);
    } else if (path === e.path && e.methods.includes(method) && !e.cleared) {
      return { status: 200, body: `${e.id}|${trace.join(',')}` };
    }
  }
  return { status: 404, body: `none|${trace.join(',')}` };
}

function handlerFor(entry: Entry): Handler {
  if (entry.kind === 'use') {
    return (req, _res, next) => {
      (req.trace ??= []).push(entry.id);
      next();
    };
  }
  return (req, res) => res.send(`${entry.id}|${(req.trace ?? []).join(',')}`);
}

/** One mutation, as generated: positions are taken modulo the stack's length. */
type Op =
  | { op: 'add'; kind: 'route' | 'use'; path: string }
  | { op: 'insert' | 'replace'; at: number; kind: 'route' | 'use'; path: string }
  | { op: 'remove' | 'post' | 'clear'; at: number }
  | { op: 'move'; from: number; to: number }
  | { op: 'pop' | 'shift' | 'reverse' | 'sort' | 'assign-copy' }
  | { op: 'assign-filter'; keep: number };

const kind = fc.constantFrom<'route' | 'use'>('route', 'route', 'use');
const path = fc.constantFrom(...PATHS);
const at = fc.nat(40);
const opArb: fc.Arbitrary<Op> = fc.oneof(
  fc.record({ op: fc.constant('add' as const), kind, path }),
  fc.record({ op: fc.constantFrom('insert' as const, 'replace' as const), at, kind, path }),
  fc.record({ op: fc.constantFrom('remove' as const, 'post' as const, 'clear' as const), at }),
  fc.record({ op: fc.constant('move' as const), from: at, to: at }),
  fc.record({ op: fc.constantFrom('pop' as const, 'shift' as const, 'reverse' as const, 'sort' as const, 'assign-copy' as const) }),
  fc.record({ op: fc.constant('assign-filter' as const), keep: fc.integer({ min: 2, max: 4 }) }),
);

/** A router, its model, and the map between their layers. */
class Harness {
  readonly entries: Entry[] = [];
  private readonly byLayer = new Map<LayerLike, Entry>();
  private nextId = 0;

  constructor(readonly router: RouterLike) {}

  /** A new layer made by the router itself (pushed, then taken off the end). */
  private layer(kind: 'route' | 'use', path: string): { layer: LayerLike; entry: Entry } {
    const entry: Entry = { id: this.nextId++, kind, path, methods: kind === 'route' ? ['GET'] : [], cleared: false };
    if (kind === 'route') this.router.get(path, handlerFor(entry));
    else this.router.use(path, handlerFor(entry));
    const layer = this.router.stack.pop()!;
    this.byLayer.set(layer, entry);
    return { layer, entry };
  }

  add(kind: 'route' | 'use', path: string): void {
    const { layer, entry } = this.layer(kind, path);
    this.router.stack.push(layer);
    this.entries.push(entry);
  }

  apply(op: Op): void {
    const stack = this.router.stack;
    const n = stack.length;
    switch (op.op) {
      case 'add':
        // Through the API, as an app adds a route late.
        if (op.kind === 'route') this.router.get(op.path, handlerFor(this.track(op.kind, op.path)));
        else this.router.use(op.path, handlerFor(this.track(op.kind, op.path)));
        this.byLayer.set(stack[stack.length - 1]!, this.entries[this.entries.length - 1]!);
        return;
      case 'insert': {
        const { layer, entry } = this.layer(op.kind, op.path);
        stack.splice(op.at % (n + 1), 0, layer);
        this.entries.splice(op.at % (n + 1), 0, entry);
        return;
      }
      case 'replace': {
        if (n === 0) return;
        const { layer, entry } = this.layer(op.kind, op.path);
        stack[op.at % n] = layer;
        this.entries[op.at % n] = entry;
        return;
      }
      case 'remove':
        if (n === 0) return;
        stack.splice(op.at % n, 1);
        this.entries.splice(op.at % n, 1);
        return;
      case 'post':
      case 'clear': {
        // Changes to a layer's route, not to the stack itself.
        const layer = stack[op.at % Math.max(n, 1)];
        if (layer?.route === undefined) return;
        const entry = this.byLayer.get(layer)!;
        if (op.op === 'clear') {
          layer.route.stack.length = 0;
          entry.cleared = true;
        } else if (!entry.cleared) {
          layer.route.post(handlerFor(entry));
          entry.methods.push('POST');
        }
        return;
      }
      case 'move': {
        if (n === 0) return;
        const [layer] = stack.splice(op.from % n, 1);
        const [entry] = this.entries.splice(op.from % n, 1);
        stack.splice(op.to % n, 0, layer!);
        this.entries.splice(op.to % n, 0, entry!);
        return;
      }
      case 'pop':
        stack.pop();
        this.entries.pop();
        return;
      case 'shift':
        stack.shift();
        this.entries.shift();
        return;
      case 'reverse':
        stack.reverse();
        this.entries.reverse();
        return;
      case 'sort': {
        // By path, then newest first: a reordering unlike any other op's.
        const order = (a: Entry, b: Entry) => (a.path < b.path ? -1 : a.path > b.path ? 1 : b.id - a.id);
        stack.sort((a, b) => order(this.byLayer.get(a)!, this.byLayer.get(b)!));
        this.entries.sort(order);
        return;
      }
      case 'assign-copy':
        this.router.stack = stack.slice();
        return;
      case 'assign-filter': {
        const keep = (_: unknown, i: number) => i % op.keep !== 0;
        this.router.stack = stack.filter(keep);
        this.entries.splice(0, this.entries.length, ...this.entries.filter(keep));
        return;
      }
    }
  }

  private track(kind: 'route' | 'use', path: string): Entry {
    const entry: Entry = { id: this.nextId++, kind, path, methods: kind === 'route' ? ['GET'] : [], cleared: false };
    this.entries.push(entry);
    return entry;
  }
}

describe('mutating a router stack at run time', () => {
  let server: Served;
  let current: Listener = (_req, res) => res.end();
  before(async () => {
    server = await serve((req, res) =>
      current(req, res, () => {
        res.statusCode = 404;
        res.end(`none|${((req as TracedRequest).trace ?? []).join(',')}`);
      }),
    );
  });
  after(() => server.close());

  async function check(prefix: string, entries: Entry[], method: string, p: string): Promise<void> {
    const url = prefix + p;
    const res = await rawRequest(server.port, method, url);
    const want = expected(entries, method, p);
    assert.deepEqual({ status: res.status, body: res.body }, want, `${method} ${url}`);
  }

  for (const setup of setups) {
    test(`${setup.name}: 12 routes, one request, then splice and add: every route still answers`, async () => {
      const { app, router, prefix } = setup.make();
      current = app;
      const h = new Harness(router);
      const start = router.stack.length;
      for (let i = 0; i < 12; i++) h.add('route', `/r${i}`);
      router.stack.splice(0, start);
      await check(prefix, h.entries, 'GET', '/r3');
      router.stack.splice(5, 1);
      h.entries.splice(5, 1);
      h.add('route', '/new');
      for (const p of ['/r0', '/r5', '/r6', '/r11', '/new']) {
        const res = await rawRequest(server.port, 'GET', prefix + p);
        assert.deepEqual({ status: res.status, body: res.body }, expected(h.entries, 'GET', p), p);
      }
    });

    test(`${setup.name}: any sequence of mutations routes as walking the stack in order`, async () => {
      await fc.assert(
        fc.asyncProperty(fc.array(opArb, { minLength: 1, maxLength: 8 }), fc.array(fc.tuple(fc.constantFrom('GET', 'POST'), path), { minLength: 2, maxLength: 2 }), async (ops, probes) => {
          const { app, router, prefix } = setup.make();
          current = app;
          router.stack.length = 0;
          const h = new Harness(router);
          // Enough prefixed layers for the router to index them.
          for (let i = 0; i < 10; i++) h.add(i % 4 === 3 ? 'use' : 'route', PATHS[(i * 3) % PATHS.length]!);
          await check(prefix, h.entries, 'GET', '/a');
          for (const op of ops) {
            h.apply(op);
            for (const [method, p] of probes) await check(prefix, h.entries, method, p);
          }
        }),
        { numRuns: 25, seed: 18, endOnFailure: true },
      );
    });
  }
});
