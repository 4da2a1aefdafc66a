'use strict';
// One Bun.serve or Deno.serve handler answering a fixed Response, reading
// the Request's `signal` first or not (signal-cost.mjs):
//   <bun|deno run -A> signal-server.js <plain|signal> <port>
const [variant, port] = process.argv.slice(2);
const make = () => new Response('Hello, World!', { headers: { 'Content-Type': 'text/plain; charset=utf-8' } });
const fetch = variant === 'signal' ? (request) => (request.signal.aborted ? null : make()) : () => make();
if (typeof Bun !== 'undefined') Bun.serve({ port: Number(port), hostname: '127.0.0.1', fetch });
else Deno.serve({ port: Number(port), hostname: '127.0.0.1', onListen: () => console.log('ready') }, fetch);
if (typeof Bun !== 'undefined') console.log('ready');
