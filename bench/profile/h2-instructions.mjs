// `node bench/profile/h2-instructions.mjs <framework-h2> <scenario> <variant> [requests] [warm-up]`,
// e.g. `trestle-h2 hello h2c`, `node-h2 json h2c+etag`: instructions per
// request of an HTTP/2 server (servers/*-h2.js), counted by callgrind as
// instructions.mjs does, the load from h2load (4 connections, 16 streams
// each). With CG_DIR, the callgrind file is left there for callgrind_annotate.
import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { nodeLabel, startServer } from './lib.mjs';

const [framework, scenarioName, variant, countText = '10000', warmupText = countText] = process.argv.slice(2);
const dir = process.env.CG_DIR ?? '/tmp';
const wrapper = ['valgrind', '--tool=callgrind', '--instr-atstart=no', `--callgrind-out-file=${dir}/callgrind.out.%p`];
const { child, port, stop } = await startServer(`${framework}:${variant}`, scenarioName, wrapper);
const path = scenarioName === 'json' ? '/json' : '/';
const scheme = variant.startsWith('h2c') ? 'http' : 'https';
const load = (n) => {
  const out = execFileSync('h2load', ['-n', String(n), '-c', '4', '-m', '16', `${scheme}://127.0.0.1:${port}${path}`], { encoding: 'utf8' });
  return Number(/(\d+) 2xx/.exec(out)[1]);
};
const control = (...args) => execFileSync('callgrind_control', [...args, String(child.pid)], { stdio: 'ignore' });
load(Number(warmupText));
control('-i', 'on');
const answered = load(Number(countText));
control('-i', 'off');
await stop();
const file = `${dir}/callgrind.out.${child.pid}`;
const ir = Number(/^totals:\s+(\d+)/m.exec(readFileSync(file, 'utf8'))[1]);
console.log(`${framework} ${scenarioName} ${variant}: ${Math.round(ir / answered)} instructions/request over ${answered}, ${nodeLabel()} (${file})`);
