// Cloudflare Workers (workerd, with `nodejs_compat`). Its node:http is built
// for its own bridge from a fetch `Request` to a node-style server: its
// ServerResponse takes no socket, so the FetchSocket of fetch.ts cannot sit
// under it. `app.fetch` there hands the `Request` to that bridge instead
// (`handleAsNodeRequest` of `cloudflare:node`, which Cloudflare documents for
// Express apps), through a server of the app's classes made by the first call
// (a Worker may not open one at its global scope, where the app is built).
import { createServer, type RequestListener, type ServerOptions } from 'node:http';

/** What this needs of `cloudflare:node`. */
interface CloudflareNode {
  handleAsNodeRequest(port: number, request: Request, env?: unknown, ctx?: unknown): Promise<Response>;
}

/** What this needs of an app. */
interface ServableApp {
  _classes: { IncomingMessage: unknown; ServerResponse: unknown };
}

let bridge: CloudflareNode | undefined;
/** The port of each app's server inside the Worker (an in-process table, no socket). */
const ports = new WeakMap<object, number>();

/** `app.fetch(request, env, ctx)` on Workers: `req.cloudflare` holds `env`, `ctx` and `request.cf`, as Cloudflare's bridge sets them. */
export function fetchOnWorkers(app: ServableApp, request: Request, env: unknown, ctx: unknown): Promise<Response> {
  bridge ??= (process as unknown as { getBuiltinModule(id: string): CloudflareNode }).getBuiltinModule('cloudflare:node');
  let port = ports.get(app);
  if (port === undefined) {
    const server = createServer(app._classes as ServerOptions, app as unknown as RequestListener);
    server.listen();
    port = (server.address() as { port: number }).port;
    ports.set(app, port);
  }
  return bridge.handleAsNodeRequest(port, request, env, ctx);
}
