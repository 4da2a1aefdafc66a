// One scenario, start to finish: start every framework's server, check each
// answers correctly, warm each up, then measure in rounds with the frameworks
// interleaved (the order rotating each round) so that drift in the machine
// hits them all alike; finally read each server's RSS and stop it.
import { startServer } from './server-process.mjs';
import { probe } from './probe.mjs';
import { pin, rssMB, cpuSnapshot, cpuShares, settle, SERVER_CPU } from './cpu.mjs';
import { median } from './report.mjs';

// The rows of a scenario's table: one per framework, or one per logger
// variant where the scenario lists them (and n/a where it lists none); a
// scenario's extraVariants add rows after a framework's default one. On a
// runtime with a fetch server of its own (Bun, Deno: lib/runtime.mjs), trestle
// has a `fetch` row too (app.fetch on that server), bare node one (a
// hand-written fetch handler there: the ceiling) and Hono only that one.
export function plannedRows(scenario, frameworks, runtime) {
  return frameworks.flatMap((framework) => {
    let variants = scenario.variants ? scenario.variants[framework] : [null, ...(scenario.extraVariants?.[framework] ?? [])];
    if (runtime?.fetchServer && (framework === 'trestle' || framework === 'node')) variants = [...variants, 'fetch'];
    if (runtime?.fetchServer && framework === 'hono') variants = ['fetch'];
    const note = scenario.notes?.[framework];
    if (!variants) return [{ framework, variant: null, label: framework, status: 'n/a', note: note ? `n/a: ${note}` : 'n/a' }];
    return variants.map((variant) => ({
      framework, variant, label: variant ? `${framework} (${variant})` : framework, status: 'pending', note,
    }));
  });
}

function skip(row, why, log) {
  row.status = 'skipped';
  row.note = why;
  log(`  ! ${row.label} skipped: ${why}`);
}

// A round in which other processes used more than this share of a CPU.
const DISTURBED = 0.2;

// Measures one round against a live row, then lets it finish what it was sent.
// `round` is the round's index, so the goals can pair each framework's figure
// with its peers' of that round.
async function measureRound(row, measure, seconds, load, round) {
  const before = cpuSnapshot(row.server.pid);
  const figures = await measure({ port: row.server.port, seconds, ...load });
  const shares = cpuShares(before, cpuSnapshot(row.server.pid));
  await settle(row.server.pid);
  return { round, ...figures, ...shares, disturbed: shares.otherCpu > DISTURBED };
}

export async function runScenario({ name, scenario, options, runtime, measure, pinned, log }) {
  const rows = plannedRows(scenario, options.frameworks, runtime);
  const load = { request: scenario.request, connections: options.connections };
  const live = () => rows.filter((row) => row.status === 'ok');
  const began = Date.now();
  const timing = {};

  // Servers start on every CPU at once (startup is not measured), then move to the server CPU.
  await Promise.all(rows.filter((row) => row.status === 'pending').map(async (row) => {
    try {
      row.server = await startServer({ framework: row.framework, scenario: name, variant: row.variant, cpus: pinned ? '0,1' : null, runtime });
      row.status = 'ok';
    } catch (err) {
      skip(row, `server failed to start: ${err.message}`, log);
    }
  }));
  timing.startSeconds = (Date.now() - began) / 1000;
  try {
    for (const row of live()) {
      if (pinned) pin(row.server.pid, SERVER_CPU);
      const wrong = await probe(row.server.port, scenario);
      if (wrong) {
        skip(row, `wrong answer: ${wrong}`, log);
        await row.server.stop();
      }
    }
    for (const row of live()) {
      await measure({ port: row.server.port, seconds: options.warmup, ...load });
      await settle(row.server.pid);
    }
    for (const row of live()) row.rounds = [];
    // A round that other work on the machine disturbed is kept in the raw
    // figures but measured again, within a budget that bounds the run's time.
    let retries = Math.floor(live().length * options.rounds * options.retryShare);
    for (let round = 0; round < options.rounds; round++) {
      const order = live();
      const shift = round % order.length;
      for (const row of [...order.slice(shift), ...order.slice(0, shift)]) {
        let figures;
        do {
          figures = await measureRound(row, measure, options.duration, load, round);
          row.rounds.push(figures);
        } while (figures.disturbed && retries-- > 0);
      }
    }
    for (const row of live()) row.rssMB = rssMB(row.server.pid);
  } finally {
    await Promise.all(rows.filter((row) => row.server).map((row) => row.server.stop()));
  }

  for (const row of live()) summarise(row);
  for (const row of rows) delete row.server;
  timing.seconds = (Date.now() - began) / 1000;
  return { about: scenario.about, ...timing, rows };
}

const percent = (share) => `${Math.round(share * 100)}%`;

// Medians over the undisturbed rounds, or over all when every one was.
function summarise(row) {
  const clean = row.rounds.filter((r) => !r.disturbed);
  const rounds = clean.length ? clean : row.rounds;
  row.rps = median(rounds.map((r) => r.rps));
  row.p99ms = median(rounds.map((r) => r.p99ms));
  const share = (values) => {
    const middle = median(values);
    return middle == null ? null : Math.round(middle * 100) / 100;
  };
  row.serverCpu = share(rounds.map((r) => r.serverCpu));
  row.otherCpu = share(rounds.map((r) => r.otherCpu));
  const errors = row.rounds.reduce((sum, r) => sum + r.errors, 0);
  const non2xx = row.rounds.reduce((sum, r) => sum + r.non2xx, 0);
  const warnings = [];
  if (errors) warnings.push(`${errors} socket errors`);
  if (non2xx) warnings.push(`${non2xx} non-2xx answers`);
  if (row.serverCpu != null && row.serverCpu < 0.85) warnings.push(`server CPU only ${percent(row.serverCpu)}`);
  if (row.otherCpu != null && row.otherCpu > 0.1) warnings.push(`other processes took ${percent(row.otherCpu)} of a CPU`);
  if (warnings.length) row.note = [row.note, ...warnings].filter(Boolean).join('; ');
}
