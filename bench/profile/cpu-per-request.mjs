// `node bench/profile/cpu-per-request.mjs <framework[:variant]> <scenario> [requests] [rounds]`:
// the server's CPU time (user + system, from /proc) per request over a fixed
// number of keep-alive requests through real sockets, after a warm-up of as
// many. CPU time moves less than requests per second on a shared machine,
// and it includes what bench:js leaves out (the kernel's share, event-loop
// turns, GC of a real run). Also prints the server's RSS at the end.
import { readFileSync } from 'node:fs';
import { nodeLabel, startServer } from './lib.mjs';

const [spec, scenarioName, countText = '20000', roundsText = '3'] = process.argv.slice(2);
const TICK_MS = 1000 / 100; // USER_HZ
const { child, load, stop } = await startServer(spec, scenarioName);
const cpuMs = () => {
  const fields = readFileSync(`/proc/${child.pid}/stat`, 'utf8').split(') ')[1].split(' ');
  return (Number(fields[11]) + Number(fields[12])) * TICK_MS;
};
const rssMb = () => Number(/VmRSS:\s+(\d+)/.exec(readFileSync(`/proc/${child.pid}/status`, 'utf8'))[1]) / 1024;

await load(Number(countText));
const perRequest = [];
for (let r = 0; r < Number(roundsText); r++) {
  const before = cpuMs();
  const result = await load(Number(countText));
  perRequest.push(((cpuMs() - before) * 1000) / result['2xx']);
}
perRequest.sort((a, b) => a - b);
const rss = rssMb();
await stop();
console.log(`${spec} ${scenarioName}: ${perRequest.map((v) => v.toFixed(1)).join(' ')} µs CPU/request (best ${perRequest[0].toFixed(1)}), RSS ${rss.toFixed(0)} MB, ${nodeLabel()}`);
