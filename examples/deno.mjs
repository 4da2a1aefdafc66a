// The example app (app.js) on Deno's own server, answering through app.fetch:
//   deno run --allow-net --allow-env --allow-read --allow-sys examples/deno.mjs    (PORT=0 for a free port)
// Deno reads node_modules next to package.json; `app.listen()` works on Deno too (its node:http).
import createApp from './app.js';

const app = createApp();
Deno.serve(
  {
    port: Number(Deno.env.get('PORT') ?? 3000),
    hostname: Deno.env.get('HOST') ?? '127.0.0.1',
    onListen: ({ hostname, port }) => console.log(`trestle on Deno listening on http://${hostname}:${port}/`),
  },
  app.fetch,
);
