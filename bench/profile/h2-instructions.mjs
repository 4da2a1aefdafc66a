// `node bench/profile/h2-instructions.mjs <framework-h2> <scenario> <variant> [requests] [warm-up]`,
// e.g. `trestle-h2 hello h2c`, `node-h2 json h2c+etag`: instructions per
// request of an HTTP/2 server (servers/*-h2.js), counted by callgrind as
// instructions.mjs does, the load from h2load (4 connections, 16 streams
// each). With CG_DIR, the callgrind file is left there for callgrind_annotate.
// Also printed: the share of V8's compiler and garbage collector, and the
// rest ("JS and node"), which is what to compare between builds.
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
const per = (n) => Math.round(n / answered);
const { compiler, gc } = backgroundShares(file);
console.log(`${framework} ${scenarioName} ${variant}: ${per(ir)} instructions/request over ${answered}, ${nodeLabel()} (${file})`);
console.log(`  of which V8's compiler ${per(compiler)}, garbage collector ${per(gc)}; JS and node ${per(ir - compiler - gc)}`);

// V8 compiles and collects on threads of its own, whose counts move by
// thousands a request between runs (a major collection falls in the window
// or not): summed apart from callgrind_annotate's per-function table, so
// runs compare on the rest.
function backgroundShares(file) {
  const table = execFileSync('callgrind_annotate', ['--inclusive=no', '--threshold=100', file], { encoding: 'utf8', maxBuffer: 1 << 28 });
  let compiler = 0;
  let gc = 0;
  for (const line of table.split('\n')) {
    const m = /^\s*([\d,]+)\s+\([\s\d.]+%\)\s+(.*)$/.exec(line);
    if (!m || m[2].includes('PROGRAM TOTALS')) continue;
    const count = Number(m[1].replaceAll(',', ''));
    if (/compiler::|turboshaft|[Mm]aglev/.test(m[2])) compiler += count;
    else if (/Scaveng|heap::|Heap::|MarkCompact|Sweeper|Marking/.test(m[2])) gc += count;
  }
  return { compiler, gc };
}
