// What each generation adds to the types, and what the others refuse.
// Compiled, never run; test/generations-*.test.ts and legacy-*.test.ts run them.
import trestle from 'trestle';
import trestleLegacy from 'trestle/legacy';
import trestleV4 from 'trestle/v4';
import { expectType } from './expect';

// v4: the deprecated forms Express 4 still accepts.
const v4 = trestleV4();
v4.del('/notes/:id', (req, res) => {
  expectType<string>()(req.params.id);
  expectType<string>()(req.param('id'));
  res.send(204, '');
});
v4.get('/old', (req, res) => {
  expectType<string | false>()(req.acceptsCharset('utf-8'));
  res.json({ ok: true }, 201);
  res.redirect('/new', 301);
  res.sendfile('README.md');
});
expectType<trestleV4.Router | undefined>()(v4._router);
// @ts-expect-error -- Express 4 removed app.router: reading it throws, so it is `never`
v4.router.use(() => undefined);

// legacy: Express 3's API.
const old = trestleLegacy();
old.configure('production', function () {
  this.set('trust proxy', true);
});
old.configure(() => undefined);
old.use(trestleLegacy.bodyParser({ uploadDir: '/tmp' }), trestleLegacy.logger('dev'));
old.use(old.router);
old.get('/users/:id', (req, res) => {
  expectType<string | undefined>()(req.accepts('json'));
  expectType<boolean>()(req.is('json'));
  expectType<trestleLegacy.AcceptedType[]>()(req.accepted);
  expectType<string[]>()(req.acceptedLanguages);
  res.send(404, 'none');
});
expectType<string>()(old.routes.get![0]!.method);
// @ts-expect-error -- configure needs a function
old.configure('production');

// v5 has none of them.
const app = trestle();
app.get('/x', (req, res) => {
  // @ts-expect-error -- req.param() is gone in Express 5
  req.param('id');
  // @ts-expect-error -- the status and body in one call are gone in Express 5
  res.send(404, 'none');
  // @ts-expect-error -- res.sendfile is gone in Express 5
  res.sendfile('x');
  res.end();
});
// @ts-expect-error -- app.del is gone in Express 5
app.del('/x', () => undefined);
// @ts-expect-error -- bodyParser is not bundled
trestle.bodyParser();
// @ts-expect-error -- Express 4 does not bundle it either: reading it throws
trestleV4.bodyParser();

// app.fetch on every entry: a Request in, a Promise<Response> out, usable unbound: as a Worker's fetch
// (request, env, ctx), Bun.serve's (request, server) and Deno.serve's handler (request, info).
interface BunServer {
  port: number;
  requestIP(request: Request): { address: string; family: string; port: number } | null;
}
for (const app of [trestle(), trestleV4(), trestleLegacy()]) {
  const { fetch } = app;
  void fetch(new Request('http://localhost/'));
  const worker: { fetch(request: Request): Promise<Response> } = { fetch: app.fetch };
  void worker;
  // The runtimes' own handler types, as their type packages declare them (their shapes, copied here).
  const cloudflare: { fetch?: (request: Request, env: { GREETING: string }, ctx: { waitUntil(p: Promise<unknown>): void; passThroughOnException(): void }) => Response | Promise<Response> } = { fetch: app.fetch };
  const bunServe: { fetch(this: BunServer, request: Request, server: BunServer): Response | Promise<Response> } = { fetch: app.fetch };
  const denoServe: (request: Request, info: { remoteAddr: { transport: 'tcp'; hostname: string; port: number }; completed: Promise<void> }) => Response | Promise<Response> = app.fetch;
  void [cloudflare, bunServe, denoServe];
  void app.fetch(new Request('http://localhost/'), { remoteAddress: '127.0.0.1', remotePort: 5000 });
  // @ts-expect-error -- options are who the client is, nothing else
  void app.fetch(new Request('http://localhost/'), { remote: '127.0.0.1' });
}
