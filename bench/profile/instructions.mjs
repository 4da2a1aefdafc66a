// `node bench/profile/instructions.mjs <framework[:variant]> <scenario> [requests] [warm-up requests]`:
// instructions the server executes per request through real sockets,
// counted by valgrind's callgrind (repeatable on a busy machine, unlike
// time). The server warms up (by default on as many requests) with counting
// off, then counts the next `requests` (10 keep-alive connections). Fixed
// costs inside the window (a major GC, an optimising compile) are spread
// over it: count 10,000 or more for figures that compare. User-space
// instructions only (syscalls.mjs shows the kernel's calls), and valgrind
// hides SHA extensions, so OpenSSL's SHA-1 counts as its AVX2 code.
// Leaves callgrind.out.<pid> in CG_DIR (default /tmp) for callgrind_annotate.
import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { nodeLabel, startServer } from './lib.mjs';

const [spec, scenarioName, countText = '10000', warmupText = countText] = process.argv.slice(2);
const dir = process.env.CG_DIR ?? '/tmp';
const wrapper = ['valgrind', '--tool=callgrind', '--instr-atstart=no', `--callgrind-out-file=${dir}/callgrind.out.%p`];
const { child, load, stop } = await startServer(spec, scenarioName, wrapper);
const control = (...args) => execFileSync('callgrind_control', [...args, String(child.pid)], { stdio: 'ignore' });
await load(Number(warmupText));
control('-i', 'on');
const result = await load(Number(countText));
control('-i', 'off');
await stop();
const file = `${dir}/callgrind.out.${child.pid}`;
const ir = Number(/^totals:\s+(\d+)/m.exec(readFileSync(file, 'utf8'))[1]);
console.log(`${spec} ${scenarioName}: ${Math.round(ir / result['2xx'])} instructions/request over ${result['2xx']}, ${nodeLabel()} (${file})`);
