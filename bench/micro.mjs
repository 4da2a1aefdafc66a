// `node bench/micro.mjs [case...]`: the microbenchmarks behind figures the
// docs quote for single operations, each against the alternative it was
// chosen over. Every case times its loops in this process, best of ROUNDS
// (noise only adds time), after a warm-up; ns per operation.
//
//   etag         a weak ETag by one-shot crypto.hash, by a hash object, and a
//                memo hit (a Map keyed by a fresh, equal string), by body size
//   h2-header    node's HTTP/2 res.setHeader against a store into the
//                response's own header object (docs/ARCHITECTURE.md)
//   path-end     the end of a URL's path (`?` or `#`) by a charCodeAt loop and
//                by two native indexOf calls, by URL length
//   proxy-read   reading a router's stack through a Proxy with write traps
//                against reading the plain array (docs/ARCHITECTURE.md)
//
// Without a case, all of them. Run on the Node to be judged (PATH, or
// node_modules/.cache/trestle-bench-node/n24/... after a bench --node run).
import crypto from 'node:crypto';
import http2 from 'node:http2';

const ROUNDS = 5;
let sink = 0;

/** ns per call of fn(i), best of ROUNDS loops of `n` calls after one warm-up loop. */
function time(fn, n = 1_000_000) {
  for (let i = 0; i < n; i++) sink ^= fn(i) ? 1 : 0;
  let best = Infinity;
  for (let r = 0; r < ROUNDS; r++) {
    const start = process.hrtime.bigint();
    for (let i = 0; i < n; i++) sink ^= fn(i) ? 1 : 0;
    best = Math.min(best, Number(process.hrtime.bigint() - start) / n);
  }
  return best;
}

function table(title, head, rows) {
  console.log(`#### ${title} (Node ${process.versions.node})\n\n| ${head.join(' | ')} |\n| ${head.map((h, i) => (i ? '---:' : '---')).join(' | ')} |`);
  for (const row of rows) console.log(`| ${row.map((cell) => (typeof cell === 'number' ? cell.toFixed(0) : cell)).join(' | ')} |`);
  console.log('');
}

function etag() {
  const weak = (hash, body) => `W/"${Buffer.byteLength(body).toString(16)}-${hash.substring(0, 27)}"`;
  const oneShot = crypto.hash ? (body) => crypto.hash('sha1', body, 'base64') : null;
  const object = (body) => crypto.createHash('sha1').update(body).digest('base64');
  const rows = [13, 64, 256, 1024].map((size) => {
    const text = 'x'.repeat(size);
    const buffer = Buffer.from(text);
    const memo = new Map([[text, weak(object(text), text)]]);
    // A fresh string equal to the remembered one, as each request's body is.
    const fresh = (i) => (i & 1 ? text.slice(1) + 'x' : 'x' + text.slice(1));
    return [`${size} bytes`,
      oneShot ? time((i) => weak(oneShot(fresh(i)), text), 300_000) : 'n/a (Node < 20.12)',
      time((i) => weak(object(fresh(i)), text), 300_000),
      oneShot ? time(() => weak(oneShot(buffer), text), 300_000) : 'n/a',
      time((i) => memo.get(fresh(i))),
      time((i) => fresh(i).length)];
  });
  table('etag: one weak ETag, ns (the string columns include making the fresh string: last column)',
    ['body', 'crypto.hash, string', 'createHash, string', 'crypto.hash, Buffer', 'memo hit, fresh equal string', 'making the fresh string alone'], rows);
}

// A response of node's HTTP/2 compatibility API, from one real request.
function withH2Response(use) {
  return new Promise((resolve, reject) => {
    const server = http2.createServer((req, res) => {
      try {
        use(res);
        res.end();
      } catch (err) {
        reject(err);
      }
    });
    server.listen(0, '127.0.0.1', () => {
      const client = http2.connect(`http://127.0.0.1:${server.address().port}`);
      const stream = client.request({ ':path': '/' });
      stream.resume();
      stream.on('close', () => {
        client.close();
        server.close(resolve);
      });
      stream.on('error', reject);
    });
  });
}

async function h2Header() {
  let rows;
  await withH2Response((res) => {
    const headers = Object.getOwnPropertySymbols(res).find((s) => s.description === 'headers');
    if (!headers || typeof res[headers] !== 'object') throw new Error('this Node keeps no header object under a `headers` symbol');
    rows = [
      ['res.setHeader(name, value)', time(() => res.setHeader('content-type', 'text/plain; charset=utf-8'))],
      ['store into the header object', time(() => (res[headers]['content-type'] = 'text/plain; charset=utf-8'))],
    ];
  });
  table('h2-header: one header on an HTTP/2 response, ns', ['how', 'ns'], rows);
}

function pathEnd() {
  const byLoop = (url) => {
    for (let i = 0; i < url.length; i++) {
      const c = url.charCodeAt(i);
      if (c === 63 || c === 35) return i;
    }
    return url.length;
  };
  const byIndexOf = (url) => {
    const q = url.indexOf('?');
    const h = url.indexOf('#');
    return q === -1 ? (h === -1 ? url.length : h) : h === -1 || q < h ? q : h;
  };
  const rows = ['/', '/users/42', '/api/v1/resource48/42/items/7', '/api/v1/resource48/42/items/7?fields=name,email&limit=10'].map((url) => {
    // Fresh strings, as each request's URL is (a flat copy of a constant would be cached).
    const urls = [url + '', `${url}`.split('').join('')];
    return [`\`${url}\` (${url.length})`, time((i) => byLoop(urls[i & 1])), time((i) => byIndexOf(urls[i & 1]))];
  });
  table('path-end: where the path ends, ns', ['URL (characters)', 'charCodeAt loop', 'two indexOf'], rows);
}

function proxyRead() {
  const stack = Array.from({ length: 50 }, (_, i) => ({ i }));
  let stale = false;
  const proxy = new Proxy(stack, {
    set(target, key, value) {
      stale = true;
      return Reflect.set(target, key, value);
    },
    deleteProperty(target, key) {
      stale = true;
      return Reflect.deleteProperty(target, key);
    },
  });
  const rows = [
    ['plain array', time((i) => stack[i % 50].i, 10_000_000)],
    ['Proxy with write traps', time((i) => proxy[i % 50].i, 10_000_000)],
  ];
  table('proxy-read: one element of a 50-layer stack, ns', ['read through', 'ns'], rows);
  sink ^= stale ? 1 : 0;
}

const CASES = { etag, 'h2-header': h2Header, 'path-end': pathEnd, 'proxy-read': proxyRead };

const asked = process.argv.slice(2);
const unknown = asked.filter((name) => !CASES[name]);
if (unknown.length) {
  console.error(`micro: unknown case ${unknown.join(', ')} (known: ${Object.keys(CASES).join(', ')})`);
  process.exit(2);
}
for (const name of asked.length ? asked : Object.keys(CASES)) await CASES[name]();
if (sink === 0.5) console.log(sink); // keeps the loops' results observable
