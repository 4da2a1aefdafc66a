// Turning measured rounds into medians, ratios and markdown tables.

export function median(values) {
  const sorted = values.filter((v) => typeof v === 'number' && Number.isFinite(v)).sort((a, b) => a - b);
  if (!sorted.length) return null;
  const mid = sorted.length >> 1;
  return sorted.length % 2 ? sorted[mid] : (sorted[mid - 1] + sorted[mid]) / 2;
}

// Scenarios also shown against the same framework's figure in another one.
const OWN_BASELINE = { logger: 'hello', 'routes-500': 'params', 'routes-5000': 'params' };

// The row a framework is compared by: its first (default) variant.
function rowOf(result, framework) {
  return result?.rows.find((row) => row.framework === framework && row.status === 'ok') ?? null;
}

const ratio = (a, b) => (a && b ? Math.round((a / b) * 100) / 100 : null);

// Adds vsNode, vsExpress5 and (where the scenario has one) vsOwn to each row.
export function addRatios(name, results) {
  const result = results[name];
  const own = OWN_BASELINE[name];
  for (const row of result.rows) {
    if (row.status !== 'ok') continue;
    row.vsNode = ratio(row.rps, rowOf(result, 'node')?.rps);
    row.vsExpress5 = ratio(row.rps, rowOf(result, 'express5')?.rps);
    if (own) row.vsOwn = ratio(row.rps, rowOf(results[own], row.framework)?.rps);
  }
}

const fmt = {
  int: (n) => (n == null ? '—' : Math.round(n).toLocaleString('en-US')),
  x: (n) => (n == null ? '—' : n.toFixed(2)),
  ms: (n) => (n == null ? '—' : n < 10 ? n.toFixed(n % 1 ? 2 : 0) : Math.round(n).toString()),
  mb: (n) => (n == null ? '—' : n.toFixed(0)),
};

// `runtime`: what the servers ran on ("Node 24.11.1", "Bun 1.4.5"), named in the heading.
export function scenarioTable(name, result, runtime) {
  const own = OWN_BASELINE[name];
  const head = ['framework', 'req/s', '× node', '× express5', ...(own ? [`× own ${own}`] : []),
    'p99 ms', 'RSS MB', 'notes'];
  const lines = [
    `### ${name} (${runtime}): ${result.about}`,
    '',
    `| ${head.join(' | ')} |`,
    `| ${head.map((h, i) => (i === 0 || i === head.length - 1 ? '---' : '---:')).join(' | ')} |`,
  ];
  for (const row of result.rows) {
    const cells = row.status === 'ok'
      ? [fmt.int(row.rps), fmt.x(row.vsNode), fmt.x(row.vsExpress5),
        ...(own ? [fmt.x(row.vsOwn)] : []), fmt.ms(row.p99ms), fmt.mb(row.rssMB)]
      : Array(head.length - 2).fill('—');
    lines.push(`| ${[row.label, ...cells, row.note ?? ''].join(' | ')} |`);
  }
  return lines.join('\n');
}

// The columns a scenario's rows show per runtime side by side: throughput
// and its ratio to bare node, or for cold the time and its ratio to Hono's.
const SIDE_COLUMNS = {
  load: [['req/s', (row) => fmt.int(row.rps)], ['× node', (row) => fmt.x(row.vsNode)], ['RSS MB', (row) => fmt.mb(row.rssMB)]],
  cold: [['spawn to exit ms', (row) => fmt.int(row.ms)], ['× hono', (row) => fmt.x(row.vsHono)]],
};

function sideTable(name, runs) {
  const first = runs.find((run) => run.results.scenarios[name])?.results.scenarios[name];
  const columns = first.cold ? SIDE_COLUMNS.cold : SIDE_COLUMNS.load;
  const labels = [...new Set(runs.flatMap((run) => run.results.scenarios[name]?.rows.map((row) => row.label) ?? []))];
  const head = ['framework', ...runs.flatMap((run) => columns.map(([title], i) => (i === 0 ? `${run.runtime} ${title}` : title)))];
  const lines = [`### ${name}, side by side: ${first.about}`, '', `| ${head.join(' | ')} |`,
    `| ${head.map((h, i) => (i === 0 ? '---' : '---:')).join(' | ')} |`];
  for (const label of labels) {
    const cells = runs.flatMap((run) => {
      const row = run.results.scenarios[name]?.rows.find((r) => r.label === label && r.status === 'ok');
      return columns.map(([, cell]) => (row ? cell(row) : '—'));
    });
    lines.push(`| ${[label, ...cells].join(' | ')} |`);
  }
  return lines.join('\n');
}

function sideGoals(runs) {
  const texts = [...new Set(runs.flatMap((run) => (run.results.goals ?? []).map((c) => c.text)))];
  if (!texts.length) return [];
  const lines = ['### trestle against its targets, side by side', '', `| target | ${runs.map((run) => run.runtime).join(' | ')} |`,
    `| --- | ${runs.map(() => '---').join(' | ')} |`];
  for (const text of texts) {
    const cells = runs.map((run) => {
      const c = run.results.goals?.find((g) => g.text === text);
      return c && c.value !== '—' ? `${c.value}: ${c.met}` : '—';
    });
    // Targets none of the runs had figures for (scenarios left out) are left out.
    if (cells.some((cell) => cell !== '—')) lines.push(`| ${text} | ${cells.join(' | ')} |`);
  }
  return [lines.join('\n')];
}

/** Tables putting several runs' figures side by side (`--node 20,22,24`): runs are [{ runtime, results }]. */
export function sideBySide(runs) {
  const names = [...new Set(runs.flatMap((run) => Object.keys(run.results.scenarios)))];
  return [...names.map((name) => sideTable(name, runs)), ...sideGoals(runs)];
}
