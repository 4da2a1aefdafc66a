// The targets issues 3, 23, 31 and 34 set for trestle, checked against a run's figures.
//
// The judging rule (issue 23): a throughput target holds when the median of
// the per-round ratios (trestle's req/s in round i over the peer's in the same
// round) over at least MIN_ROUNDS interleaved rounds meets it. Pairing rounds
// cancels the drift both felt together, which the ratio of two medians keeps.
// A ratio within CLOSE of its target is a close call, settled by
// `npm run bench:js` (JavaScript cost per request), not by this table.
// Each check says yes, NO, "close: check bench:js", "reported" (no target),
// or "—" when the run lacks the figures.
import { median } from './report.mjs';

export const MIN_ROUNDS = 12;
const CLOSE = 0.03;

// A framework's first measured row in a scenario, or its row of one variant.
function row(results, scenario, framework, variant) {
  return results[scenario]?.rows.find((r) => r.framework === framework && r.status === 'ok' &&
    (variant === undefined || r.variant === variant)) ?? null;
}

// A round measured again (it was disturbed) counts by its last measurement.
function lastOfEachRound(measured) {
  const byRound = new Map();
  for (const figures of measured.rounds ?? []) {
    if (Number.isInteger(figures.round) && figures.rps > 0) byRound.set(figures.round, figures);
  }
  return byRound;
}

/** The median over the rounds both rows ran of mine_i / theirs_i, and how many rounds that is. */
export function roundRatio(mine, theirs) {
  const peer = lastOfEachRound(theirs);
  const ratios = [...lastOfEachRound(mine)]
    .filter(([round]) => peer.has(round))
    .map(([round, figures]) => figures.rps / peer.get(round).rps);
  return ratios.length ? { ratio: median(ratios), rounds: ratios.length } : null;
}

// trestle (of a variant) against a peer [framework, variant] in one scenario.
function beats(scenario, target, peer, mineVariant, describe = (ratio) => `${ratio.toFixed(2)}×`) {
  return (r) => {
    const mine = row(r, scenario, 'trestle', mineVariant);
    const theirs = row(r, scenario, ...peer);
    const paired = mine && theirs ? roundRatio(mine, theirs) : null;
    return paired && { value: describe(paired.ratio), ratio: paired.ratio, target, rounds: paired.rounds };
  };
}

// trestle against itself in the same rounds: its `last-50` row serves only the
// last 50 of the scenario's routes (the size of `params`) and takes the same
// request, its `none` logger row is hello without a logger. Comparing with
// the other scenario's figure instead put minutes of the machine's drift
// into the ratio (a run gave routes-500 1.57× its own params).
const OWN_PARAMS = ['trestle', 'last-50'];
const NO_LOGGER = ['trestle', 'none'];

const rss = (r, scenario, framework) => row(r, scenario, framework)?.rssMB;

// RSS after a scenario, trestle against Fastify: a target, or (at null) reported only.
function rssAgainstFastify(scenario, target) {
  return (r) => {
    const mine = rss(r, scenario, 'trestle');
    const theirs = rss(r, scenario, 'fastify');
    if (!mine || !theirs) return null;
    const value = `${mine.toFixed(0)} vs ${theirs.toFixed(0)} MB (${(mine / theirs).toFixed(2)}×)`;
    return target == null ? { value, met: 'reported' } : { value, pass: mine <= target * theirs };
  };
}

function worstRss(r) {
  const ratios = Object.keys(r).map((name) => {
    const mine = rss(r, name, 'trestle');
    const theirs = rss(r, name, 'fastify');
    return mine && theirs ? { name, x: mine / theirs } : null;
  }).filter(Boolean).sort((a, b) => b.x - a.x);
  return ratios.length ? { value: `${ratios[0].x.toFixed(2)}× (${ratios[0].name})`, pass: ratios[0].x <= 1 } : null;
}

const FASTIFY = ['fastify'];
const NODE = ['node', null];
// Bare node and Fastify sending the weak ETag Express sends by default (issue 23).
const NODE_ETAG = ['node', 'etag'];
const FASTIFY_ETAG = ['fastify', 'etag'];

const VARIED = ['json-varied', 'params-varied'];

// [goal text, function returning { value, ratio?, target?, rounds?, pass?, met? } or null]
// Issue 34: trestle with Express's defaults (ETag, X-Powered-By) against each
// peer with its own; the equal-work rows (node (etag), fastify (etag)) beside.
const GOALS = [
  ...['hello', 'json', 'params', 'middleware', 'static'].map((name) => [`${name}: trestle ≥ fastify`, beats(name, 1, FASTIFY)]),
  ['body: trestle ≥ fastify', beats('body', 1, FASTIFY)],
  ['body: trestle ≥ 1.0 × node:http sending the same weak ETag', beats('body', 1, NODE_ETAG)],
  ['body: trestle ≥ fastify with @fastify/etag', beats('body', 1, FASTIFY_ETAG)],
  ...VARIED.flatMap((name) => [
    [`${name}: trestle ≥ fastify`, beats(name, 1, FASTIFY)],
    [`${name}: trestle ≥ 1.0 × node:http sending the same weak ETag (equal work)`, beats(name, 1, NODE_ETAG)],
    [`${name}: trestle ≥ fastify with @fastify/etag (equal work)`, beats(name, 1, FASTIFY_ETAG)],
    [`RSS after ${name}: trestle ≤ fastify`, rssAgainstFastify(name, 1)],
  ]),
  ['logger: trestle+logline ≥ 1.2 × fastify+pino', beats('logger', 1.2, ['fastify', 'pino'], 'logline')],
  ['logger: trestle+logline json ≥ 1.2 × fastify+pino', beats('logger', 1.2, ['fastify', 'pino'], 'logline-json')],
  ['logger: logline costs < 20% of trestle hello (its no-logger row)', beats('logger', 0.8, NO_LOGGER, 'logline', (kept) => `costs ${Math.round((1 - kept) * 100)}%`)],
  ['api: trestle ≥ 1.5 × fastify', beats('api', 1.5, FASTIFY)],
  ['RSS: trestle ≤ fastify (worst scenario)', worstRss],
  ['RSS after hello: trestle ≤ fastify', rssAgainstFastify('hello', 1)],
  ['RSS after routes-5000: trestle ≤ fastify', rssAgainstFastify('routes-5000', 1)],
  // HTTP/2 (lib/http2.mjs).
  ...['h2c-hello', 'h2c-json', 'h2-hello', 'h2-json'].flatMap((name) => [
    [`${name}: trestle ≥ fastify`, beats(name, 1, FASTIFY)],
    [`${name}: trestle ≥ 1.0 × node sending the same weak ETag`, beats(name, 1, NODE_ETAG)],
    [`${name} (proposed): trestle sending the same headers (X-Powered-By off) ≥ 1.0 × node (etag)`, beats(name, 1, NODE_ETAG, 'same-headers')],
  ]),
  ['routes-500: trestle > 0.9 × its own params (its last-50 row)', beats('routes-500', 0.9, OWN_PARAMS)],
  ['routes-5000: trestle ≥ 0.95 × its own params (its last-50 row)', beats('routes-5000', 0.95, OWN_PARAMS)],
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

// The verdict of a ratio target: a close call, else yes or NO; fewer rounds
// than the rule asks make it indicative only.
function verdict({ ratio, target, rounds }) {
  const pass = ratio >= target;
  const close = Math.abs(ratio / target - 1) < CLOSE;
  const met = close ? 'close: check bench:js' : pass ? 'yes' : 'NO';
  const few = typeof rounds === 'number' && rounds < MIN_ROUNDS ? ` (${rounds} round${rounds === 1 ? '' : 's'} < ${MIN_ROUNDS})` : '';
  return { pass, close, met: met + few };
}

function check(text, goal, results) {
  const found = goal(results);
  if (!found) return { text, value: '—', rounds: null, pass: null, met: '—' };
  if (found.ratio != null) return { text, ...found, ...verdict(found) };
  return { text, rounds: null, ...found, met: found.met ?? (found.pass ? 'yes' : 'NO') };
}

// On Bun and Deno (issue 31): trestle's app.fetch on the runtime's own server
// (its `fetch` row) against Express 5 on the runtime's node:http.
// Beside each, the ceiling: a hand-written fetch handler with the same
// headers on that server (bare node's `fetch` row) against the same Express,
// which says how far 2× is from what the server alone allows.
function runtimeGoals(runtime) {
  return ['hello', 'json', 'params', 'body', ...VARIED].flatMap((name) => [
    [
      `${name}: trestle app.fetch on ${runtime.fetchServer} ≥ 2 × express5 on ${runtime.name}'s node:http`,
      (r) => {
        const paired = pairedAgainstExpress(r, name, 'trestle');
        return paired && { value: `${paired.ratio.toFixed(2)}×`, ratio: paired.ratio, target: 2, rounds: paired.rounds };
      },
    ],
    [
      `${name} (ceiling, reported): a bare fetch handler with the same headers on ${runtime.fetchServer} ÷ express5`,
      (r) => {
        const paired = pairedAgainstExpress(r, name, 'node');
        return paired && { value: `${paired.ratio.toFixed(2)}×`, rounds: paired.rounds, met: 'reported' };
      },
    ],
  ]);
}

function pairedAgainstExpress(r, name, framework) {
  const mine = row(r, name, framework, 'fetch');
  const theirs = row(r, name, 'express5');
  return mine && theirs ? roundRatio(mine, theirs) : null;
}

/** The targets for a run whose servers ran on `runtime` (lib/runtime.mjs). */
export function goalsTable(results, runtime) {
  const lines = [`### trestle against its targets (${runtime.label})`, '', '| target | measured | rounds | met |', '| --- | ---: | ---: | --- |'];
  const checks = (runtime.fetchServer ? runtimeGoals(runtime) : GOALS).map(([text, goal]) => check(text, goal, results));
  for (const c of checks) lines.push(`| ${c.text} | ${c.value} | ${c.rounds ?? '—'} | ${c.met} |`);
  return { text: lines.join('\n'), checks };
}
