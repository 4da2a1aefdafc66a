// `node bench/profile/varied-rss.mjs <framework> [requests] [connections]`: the
// resident memory of a server whose every JSON answer differs (a counter in
// the body), after a fixed number of keep-alive requests (autocannon).
// Prints RSS (peak and at the end, from /proc) and the answers per second of
// that run (noisy on a shared machine: read RSS, not speed).
// NODE (env) picks the server's node binary.
import { spawn } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { fileURLToPath } from 'node:url';

const require = createRequire(import.meta.url);
const autocannon = require('../node_modules/autocannon');
const [framework, countText = '200000', connectionsText = '100'] = process.argv.slice(2);
const port = 40000 + Math.floor(Math.random() * 10000);
const node = process.env.NODE ?? process.execPath;
const server = fileURLToPath(new URL('./varied-server.js', import.meta.url));
const child = spawn(node, [server, framework, String(port)], { stdio: ['pipe', 'pipe', 'inherit'], env: { ...process.env, NODE_ENV: 'production' } });
await new Promise((resolve, reject) => {
  child.stdout.on('data', (d) => String(d).includes('ready') && resolve());
  child.on('exit', () => reject(new Error('server exited')));
});
const status = () => readFileSync(`/proc/${child.pid}/status`, 'utf8');
const mb = (field) => (Number(new RegExp(`${field}:\\s+(\\d+)`).exec(status())[1]) / 1024).toFixed(0);
const result = await autocannon({ url: `http://127.0.0.1:${port}/json`, connections: Number(connectionsText), amount: Number(countText) });
console.log(`${framework}: RSS ${mb('VmRSS')} MB, peak ${mb('VmHWM')} MB after ${result['2xx']} answers, ${Math.round(result.requests.average)} req/s (${node.includes('/n2') ? node.match(/n\d+/)[0] : process.version})`);
child.stdin.end();
