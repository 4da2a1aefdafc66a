// The chart `npm run bench` draws (bench/chart.mjs) and the one the README and
// docs/PERFORMANCE.md show: a well-formed SVG with one bar per framework and
// scenario, scaled to the figures, and the committed chart drawn from the
// committed figures by the same code.
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { test } from 'node:test';
import { pathToFileURL } from 'node:url';
import { root } from '../pack';

interface ChartData { title: string; frameworks: string[]; scenarios: Array<{ name: string; values: Record<string, number> }> }
/** What bench/chart.mjs exports (plain JavaScript, so typed here). */
interface Chart {
  barChartSvg(data: ChartData): string;
  chartData(results: unknown, frameworks?: string[]): ChartData;
}
const load = () => import(pathToFileURL(join(root, 'bench', 'chart.mjs')).href) as Promise<Chart>;

/** Asserts every tag is closed in order (the SVG has no text that holds '<'). */
function assertWellFormed(svg: string): void {
  const stack: string[] = [];
  for (const [, closing, name, selfClosing] of svg.matchAll(/<(\/?)([a-zA-Z]+)[^>]*?(\/?)>/g)) {
    if (selfClosing) continue;
    if (closing) assert.equal(stack.pop(), name, `</${name}> closes the wrong element`);
    else stack.push(name!);
  }
  assert.deepEqual(stack, [], 'unclosed elements');
}

test('a bar per framework and scenario, widths in proportion to req/s, from a run\'s results', async () => {
  const { barChartSvg, chartData } = await load();
  const results = {
    meta: { runtime: 'Node 24.0.0' },
    scenarios: {
      hello: { rows: [{ framework: 'trestle', status: 'ok', rps: 2000 }, { framework: 'express5', status: 'ok', rps: 1000 }, { framework: 'fastify', status: 'ok', rps: 500 }, { framework: 'node', status: 'ok', rps: 9000 }] },
      json: { rows: [{ framework: 'trestle', status: 'ok', rps: 1500 }, { framework: 'express5', status: 'failed' }, { framework: 'fastify', status: 'ok', rps: 1200 }] },
      cold: { cold: true, rows: [{ framework: 'trestle', status: 'ok', ms: 90 }] },
    },
  };
  const svg = barChartSvg(chartData(results));
  assert.match(svg, /^<svg xmlns="http:\/\/www\.w3\.org\/2000\/svg"[^>]*viewBox="0 0 \d+ \d+"/);
  assertWellFormed(svg);
  const bars = [...svg.matchAll(/data-scenario="([^"]+)" data-framework="([^"]+)" x="\d+" y="\d+" width="(\d+)"/g)].map(([, s, f, w]) => [s, f, Number(w)] as const);
  assert.deepEqual(bars.map(([s, f]) => `${s}/${f}`), ['hello/trestle', 'hello/express5', 'hello/fastify', 'json/trestle', 'json/fastify']);
  const width = (s: string, f: string) => bars.find(([bs, bf]) => bs === s && bf === f)![2];
  assert.ok(Math.abs(width('hello', 'trestle') / width('hello', 'express5') - 2) < 0.02, 'bar widths are not in proportion to req/s');
  assert.ok(width('hello', 'trestle') > width('json', 'trestle'));
  assert.match(svg, /Node 24\.0\.0/);
});

test('docs/bench-node24.svg is what the chart module draws from bench/figures/node24-2026-11-27.json', async () => {
  const { barChartSvg } = await load();
  const figures = JSON.parse(readFileSync(join(root, 'bench', 'figures', 'node24-2026-11-27.json'), 'utf8'));
  const committed = readFileSync(join(root, 'docs', 'bench-node24.svg'), 'utf8');
  assert.equal(committed, barChartSvg(figures), 'docs/bench-node24.svg is stale: run node bench/chart.mjs bench/figures/node24-2026-11-27.json docs/bench-node24.svg');
  assertWellFormed(committed);
  assert.equal(committed.match(/class="bar"/g)?.length, figures.scenarios.length * 3);
  for (const doc of ['README.md', 'docs/PERFORMANCE.md']) {
    assert.match(readFileSync(join(root, doc), 'utf8'), /bench-node24\.svg/, `${doc} does not show the chart`);
  }
});
