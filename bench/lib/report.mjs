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

export function scenarioTable(name, result) {
  const own = OWN_BASELINE[name];
  const head = ['framework', 'req/s', '× node', '× express5', ...(own ? [`× own ${own}`] : []),
    'p99 ms', 'RSS MB', 'notes'];
  const lines = [
    `### ${name}: ${result.about}`,
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
