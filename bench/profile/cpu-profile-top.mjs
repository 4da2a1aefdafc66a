// `node bench/profile/cpu-profile-top.mjs <file.cpuprofile> [count]`: the
// functions with the most self time in a --cpu-prof profile (idle left out), with their
// share, file and line. Pair with bench/lib/js-cost-child.js, e.g.
//   NODE_ENV=production node --cpu-prof --cpu-prof-dir=/tmp/prof bench/lib/js-cost-child.js trestle hello
import { readFileSync } from 'node:fs';

const [file, countText = '30'] = process.argv.slice(2);
const profile = JSON.parse(readFileSync(file, 'utf8'));
const self = new Map();
const byId = new Map(profile.nodes.map((n) => [n.id, n]));
const hits = new Map();
for (const id of profile.samples) hits.set(id, (hits.get(id) ?? 0) + 1);
let total = 0;
for (const [id, count] of hits) {
  if (byId.get(id).callFrame.functionName === "(idle)") continue;
  const { functionName, url, lineNumber } = byId.get(id).callFrame;
  const key = `${functionName || '(anonymous)'} ${url.replace(/^.*\/(node_modules|packages)\//, '$1/')}:${lineNumber + 1}`;
  self.set(key, (self.get(key) ?? 0) + count);
  total += count;
}
const rows = [...self].sort((a, b) => b[1] - a[1]).slice(0, Number(countText));
for (const [key, count] of rows) console.log(`${((100 * count) / total).toFixed(1).padStart(5)}%  ${key}`);
