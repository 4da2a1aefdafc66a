// The example app (app.js) as a Cloudflare Worker: app.fetch is the Worker's
// fetch handler (request, env, ctx; the app finds env and ctx in req.cloudflare).
//   npx wrangler dev          (from examples/, with wrangler.jsonc; `wrangler deploy` to publish)
// The Worker needs the nodejs_compat flag; wrangler bundles trestle from node_modules.
import createApp from './app.js';

const app = createApp();

export default { fetch: app.fetch };
