// `node bench/profile/ab.mjs <dirA> <dirB> [scenarios] [rounds] [extra frameworks]`:
// bench:js's JavaScript cost per request (ns, best of the rounds) of trestle
// built two ways, interleaved round by round: before each measurement the
// given copy of packages/trestle/dist is put in place (so the build is left
// as dirB's at the end). Extra frameworks (e.g. fastify,trestle:plain with
// dirB) run in the same rounds. NODE (env) picks the node binary.
// A copy is made with `cp -r packages/trestle/dist /tmp/dist-before`.
import { cpSync, rmSync } from 'node:fs';
import { spawnSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';

const [dirA, dirB, scenariosText = 'hello,json,params,middleware,body', roundsText = '3', extraText = 'fastify'] = process.argv.slice(2);
const dist = fileURLToPath(new URL('../../packages/trestle/dist', import.meta.url));
const child = fileURLToPath(new URL('../lib/js-cost-child.js', import.meta.url));
const node = process.env.NODE ?? process.execPath;
const use = (dir) => {
  rmSync(dist, { recursive: true, force: true });
  cpSync(dir, dist, { recursive: true });
};
function measure(spec, scenario) {
  const [framework, variant] = spec.split(':');
  const result = spawnSync('taskset', ['-c', '0', node, child, framework, scenario, ...(variant ? [variant] : [])], {
    encoding: 'utf8',
    timeout: 300_000,
    env: { ...process.env, NODE_ENV: 'production' },
  });
  const line = result.stdout.trim().split('\n').pop();
  if (result.status !== 0 || !line) throw new Error(`${spec} ${scenario}: ${result.stderr.slice(-400)}`);
  return JSON.parse(line).p10;
}
const rows = [['A', dirA, 'trestle'], ['B', dirB, 'trestle'], ...extraText.split(',').filter(Boolean).map((spec) => [spec, dirB, spec])];
const best = {};
for (let round = 0; round < Number(roundsText); round++) {
  for (const scenario of scenariosText.split(',')) {
    for (const [label, dir, spec] of rows) {
      use(dir);
      const ns = measure(spec, scenario);
      const key = `${scenario} ${label}`;
      best[key] = Math.min(best[key] ?? Infinity, ns);
    }
  }
}
use(dirB);
console.log(`ns/request, best of ${roundsText} (node ${spawnSync(node, ['--version'], { encoding: 'utf8' }).stdout.trim()}); A = ${dirA}, B = ${dirB}`);
for (const scenario of scenariosText.split(',')) {
  const a = best[`${scenario} A`];
  const b = best[`${scenario} B`];
  const extra = rows.slice(2).map(([label]) => `${label} ${best[`${scenario} ${label}`]}`).join('  ');
  console.log(`${scenario.padEnd(12)} A ${a}  B ${b}  (${(((b - a) / a) * 100).toFixed(1)}%)  ${extra}`);
}
