// The targets issues 3 and 23 set for trestle, checked against a run's figures.
// Each check says pass, FAIL, or "—" when the run lacks the figures.

const row = (results, scenario, framework) =>
  results[scenario]?.rows.find((r) => r.framework === framework && r.status === 'ok') ?? null;

// [goal text, function returning { value, pass } or null]
const GOALS = [
  ['hello: trestle ≥ 0.95 × node:http', (r) => atLeast(row(r, 'hello', 'trestle')?.rps, row(r, 'hello', 'node')?.rps, 0.95)],
  ...['json', 'params', 'middleware', 'body', 'static', 'api'].map((name) =>
    [`${name}: trestle ≥ fastify`, (r) => atLeast(row(r, name, 'trestle')?.rps, row(r, name, 'fastify')?.rps, 1)]),
  ['logger: trestle+logline ≥ fastify+pino', (r) => atLeast(row(r, 'logger', 'trestle')?.rps, row(r, 'logger', 'fastify')?.rps, 1)],
  ['logger: logline costs < 20% of trestle hello', (r) => {
    const kept = row(r, 'logger', 'trestle')?.vsOwn;
    return kept == null ? null : { value: `costs ${Math.round((1 - kept) * 100)}%`, pass: 1 - kept < 0.2 };
  }],
  ['RSS: trestle ≤ 1.10 × fastify (worst scenario)', (r) => {
    const ratios = Object.keys(r).map((name) => {
      const mine = row(r, name, 'trestle')?.rssMB;
      const theirs = row(r, name, 'fastify')?.rssMB;
      return mine && theirs ? { name, x: mine / theirs } : null;
    }).filter(Boolean).sort((a, b) => b.x - a.x);
    return ratios.length ? { value: `${ratios[0].x.toFixed(2)}× (${ratios[0].name})`, pass: ratios[0].x <= 1.1 } : null;
  }],
  // HTTP/2 (lib/http2.mjs).
  ...['h2c-hello', 'h2c-json', 'h2-hello', 'h2-json'].flatMap((name) => [
    [`${name}: trestle ≥ fastify`, (r) => atLeast(row(r, name, 'trestle')?.rps, row(r, name, 'fastify')?.rps, 1)],
    [`${name}: trestle ≥ 0.95 × node`, (r) => atLeast(row(r, name, 'trestle')?.rps, row(r, name, 'node')?.rps, 0.95)],
  ]),
  ['routes-500: trestle > 0.9 × its own params', (r) => {
    const kept = row(r, 'routes-500', 'trestle')?.vsOwn;
    return kept == null ? null : { value: `${kept.toFixed(2)}×`, pass: kept > 0.9 };
  }],
  ['cold: trestle ≤ hono (spawn to exit)', (r) => {
    const x = row(r, 'cold', 'trestle')?.vsHono;
    return x == null ? null : { value: `${x.toFixed(2)}×`, pass: x <= 1 };
  }],
  ['modules at require: trestle < express 5', (r) => {
    const count = (label) => r.cold?.entries.find((e) => e.label === label)?.atRequire;
    const mine = count('trestle');
    const theirs = count('express 5');
    return mine && theirs ? { value: `${mine} vs ${theirs}`, pass: mine < theirs } : null;
  }],
];

function atLeast(mine, theirs, factor) {
  if (!mine || !theirs) return null;
  return { value: `${(mine / theirs).toFixed(2)}×`, pass: mine >= factor * theirs };
}

export function goalsTable(results) {
  const lines = ['### trestle against its targets', '', '| target | measured | met |', '| --- | ---: | --- |'];
  const checks = GOALS.map(([text, check]) => ({ text, ...(check(results) ?? { value: '—', pass: null }) }));
  for (const c of checks) lines.push(`| ${c.text} | ${c.value} | ${c.pass == null ? '—' : c.pass ? 'yes' : 'NO'} |`);
  return { text: lines.join('\n'), checks };
}
