// `node bench/profile/h2-cpu.mjs <scenario> <mode> [requests] [rounds] [servers]`, e.g.
// `hello h2c 50000 3`: the CPU time (user + system, /proc) per request of
// each HTTP/2 server (default: trestle-h2, node-h2 with +etag, fastify-h2),
// under h2load (4 connections, 16 streams each), servers taking turns round
// by round; best round shown. NODE (env) picks the servers' node binary.
import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { nodeLabel, startServer } from './lib.mjs';

const [scenario, mode, countText = '50000', roundsText = '3', serversText = `trestle-h2:${'MODE'},node-h2:MODE+etag,fastify-h2:MODE`] = process.argv.slice(2);
const specs = serversText.replaceAll('MODE', mode).split(',');
const path = scenario === 'json' ? '/json' : '/';
const scheme = mode === 'h2c' ? 'http' : 'https';
const cpuMs = (pid) => {
  const fields = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1].split(' ');
  return (Number(fields[11]) + Number(fields[12])) * 10;
};
const best = {};
for (let round = 0; round < Number(roundsText); round++) {
  for (const spec of specs) {
    const { child, port, stop } = await startServer(spec, scenario);
    const load = () => Number(/(\d+) 2xx/.exec(execFileSync('h2load', ['-n', countText, '-c', '4', '-m', '16', `${scheme}://127.0.0.1:${port}${path}`], { encoding: 'utf8' }))[1]);
    load(); // warm-up
    const before = cpuMs(child.pid);
    const answered = load();
    const us = ((cpuMs(child.pid) - before) * 1000) / answered;
    const rss = Number(/VmRSS:\s+(\d+)/.exec(readFileSync(`/proc/${child.pid}/status`, 'utf8'))[1]) / 1024;
    await stop();
    best[spec] = Math.min(best[spec]?.us ?? Infinity, us) === us ? { us, rss } : best[spec];
  }
}
console.log(`${scenario} ${mode}, ${nodeLabel()}, µs CPU/request (best of ${roundsText}), RSS MB:`);
for (const spec of specs) console.log(`  ${spec.padEnd(24)} ${best[spec].us.toFixed(1).padStart(6)}  ${best[spec].rss.toFixed(0)}`);
