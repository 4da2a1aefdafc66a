// The suite's comparison as a bar chart (SVG, written by hand: no dependency).
// `npm run bench` writes one beside its results (bench/results/latest.svg);
// run alone it draws a saved run, as docs/bench-node24.svg is drawn:
//
//   node bench/chart.mjs bench/figures/node24-2026-11-27.json docs/bench-node24.svg
//
// The input is either a run's raw results (bench/results/*.json) or a figures
// file of the same shape as chartData() returns.
import { readFileSync, writeFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

export const CHART_FRAMEWORKS = ['trestle', 'express5', 'fastify'];
const LABELS = { trestle: 'trestle', express5: 'Express 5', fastify: 'Fastify', node: 'node:http', hono: 'Hono' };
const COLOURS = ['#2f6fdf', '#9aa3ad', '#e0a020', '#5aa05a', '#b05ab0'];

/** From a run's results: req/s per scenario of each framework that has a figure, cold scenarios left out. */
export function chartData(results, frameworks = CHART_FRAMEWORKS) {
  const scenarios = [];
  for (const [name, result] of Object.entries(results.scenarios ?? {})) {
    const values = {};
    for (const framework of frameworks) {
      const row = result.rows?.find((r) => r.framework === framework && r.status === 'ok' && typeof r.rps === 'number');
      if (row) values[framework] = row.rps;
    }
    if (Object.keys(values).length > 0) scenarios.push({ name, values });
  }
  return { title: `req/s, ${results.meta?.runtime ?? 'this run'} (higher is better)`, frameworks, scenarios };
}

const escape = (text) => String(text).replace(/[&<>"]/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;' })[c]);

/** A grouped bar chart: one group per scenario, one bar per framework, scaled to the largest figure. */
export function barChartSvg({ title, frameworks, scenarios }) {
  const bar = 16, gap = 4, groupGap = 22, left = 110, top = 48, width = 640, plot = width - left - 80;
  const groupHeight = frameworks.length * (bar + gap) + groupGap;
  const height = top + scenarios.length * groupHeight + 10;
  const max = Math.max(1, ...scenarios.flatMap((s) => Object.values(s.values)));
  const parts = [
    `<svg xmlns="http://www.w3.org/2000/svg" width="${width}" height="${height}" viewBox="0 0 ${width} ${height}" font-family="sans-serif" font-size="12">`,
    `<rect width="${width}" height="${height}" fill="#fff"/>`,
    `<text x="${left}" y="18" font-size="14" font-weight="bold">${escape(title)}</text>`,
  ];
  frameworks.forEach((framework, i) => {
    const x = left + i * 110;
    parts.push(`<rect x="${x}" y="28" width="12" height="12" fill="${COLOURS[i % COLOURS.length]}"/>`,
      `<text x="${x + 16}" y="38">${escape(LABELS[framework] ?? framework)}</text>`);
  });
  scenarios.forEach((scenario, g) => {
    const y0 = top + g * groupHeight;
    parts.push(`<text x="${left - 8}" y="${y0 + (frameworks.length * (bar + gap)) / 2 + 4}" text-anchor="end">${escape(scenario.name)}</text>`);
    frameworks.forEach((framework, i) => {
      const value = scenario.values[framework];
      if (typeof value !== 'number') return;
      const y = y0 + i * (bar + gap);
      const w = Math.max(1, Math.round((value / max) * plot));
      parts.push(`<rect class="bar" data-scenario="${escape(scenario.name)}" data-framework="${escape(framework)}" x="${left}" y="${y}" width="${w}" height="${bar}" fill="${COLOURS[i % COLOURS.length]}"><title>${escape(`${scenario.name}, ${LABELS[framework] ?? framework}: ${Math.round(value).toLocaleString('en-US')} req/s`)}</title></rect>`,
        `<text x="${left + w + 4}" y="${y + bar - 4}" font-size="11">${Math.round(value).toLocaleString('en-US')}</text>`);
    });
  });
  parts.push('</svg>');
  return parts.join('\n') + '\n';
}

/** Reads a run's results or a figures file and writes its chart. */
export function writeChart(input, output) {
  const data = JSON.parse(readFileSync(input, 'utf8'));
  writeFileSync(output, barChartSvg(data.scenarios && !Array.isArray(data.scenarios) ? chartData(data) : data));
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const [input, output] = process.argv.slice(2);
  if (!input || !output) {
    console.error('usage: node bench/chart.mjs <results-or-figures.json> <out.svg>');
    process.exit(2);
  }
  writeChart(input, output);
  console.log(`chart: ${output}`);
}
