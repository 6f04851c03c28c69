/**
 * Soak cell: the server on embedded PGlite (what `npm start` runs) under a fixed mixed rate for a
 * while (10 minutes at full scale): writes, messages, recalls and as-of reads, each a stream of its
 * own from `autocannon` at its own rate, so each route has its own latency figures. Every 2 s the
 * cell scrapes `/metrics`: each consumer's lag, the process's RSS and heap.
 *
 * Promised: no error and no non-2xx answer; the lag bounded (every consumer back under 200 events
 * at the end, and never more than 30 s behind); no growth of memory (the heap's lowest sample in
 * the last quarter within 1.25× + 16 MB of the second quarter's; the first quarter warms up).
 * The lag and memory curves are drawn to `bench/results/soak.png` (full scale) by Chromium, from an
 * SVG made here.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import autocannon from 'autocannon';
import { chromium } from 'playwright-core';
import { startServer } from './server-process';
import { heapGrowth, metricValues } from './metrics-scrape';
import { mixedStreams, SOAK_RATES, seedMix } from './mixed-load';

export interface SoakCellResult {
  cell: string;
  backend: string;
  seconds: number;
  ratePerSecond: Record<string, number>;
  routes: Record<string, { requests: number; p50: number; p99: number; errors: number; non2xx: number }>;
  maxLagEvents: number;
  maxLagSeconds: number;
  memoryMB: { rssStart: number; rssEnd: number; heapWarm: number; heapEnd: number };
  plot: string | null;
  ms: number;
  violations: string[];
}

interface Sample {
  t: number;
  rss: number;
  heap: number;
  lag: Record<string, number>;
  lagSeconds: number;
}

/** The curves as an SVG: lag per consumer, and RSS and heap, against seconds. */
function svgOf(samples: Sample[]): string {
  const W = 900;
  const H = 260;
  const pad = 50;
  const t = samples.map((s) => s.t);
  const tMax = Math.max(1, ...t);
  const chart = (title: string, y: number, series: { name: string; color: string; values: number[] }[], unit: string): string => {
    const max = Math.max(1, ...series.flatMap((s) => s.values));
    const x = (v: number): number => pad + (v / tMax) * (W - 2 * pad);
    const yv = (v: number): number => y + H - pad - (v / max) * (H - 2 * pad);
    const lines = series
      .map((s, i) => {
        const points = s.values.map((v, j) => `${x(t[j]!).toFixed(1)},${yv(v).toFixed(1)}`).join(' ');
        return `<polyline fill="none" stroke="${s.color}" stroke-width="2" points="${points}"/><text x="${W - 190}" y="${y + 30 + i * 16}" fill="${s.color}" font-size="13">${s.name}</text>`;
      })
      .join('');
    return `<text x="${pad}" y="${y + 24}" font-size="15" font-weight="bold">${title}</text>
      <line x1="${pad}" y1="${y + H - pad}" x2="${W - pad}" y2="${y + H - pad}" stroke="#888"/><line x1="${pad}" y1="${y + pad}" x2="${pad}" y2="${y + H - pad}" stroke="#888"/>
      <text x="${pad - 6}" y="${y + pad + 4}" font-size="11" text-anchor="end">${Math.round(max)}${unit}</text><text x="${pad - 6}" y="${y + H - pad}" font-size="11" text-anchor="end">0</text>
      <text x="${W - pad}" y="${y + H - pad + 16}" font-size="11" text-anchor="end">${Math.round(tMax)} s</text>${lines}`;
  };
  const consumers = [...new Set(samples.flatMap((s) => Object.keys(s.lag)))];
  const colors = ['#1f77b4', '#d62728', '#2ca02c', '#9467bd', '#ff7f0e'];
  return `<svg xmlns="http://www.w3.org/2000/svg" width="${W}" height="${2 * H}" style="background:white;font-family:sans-serif">
    ${chart(
      'Lag per consumer (events not applied yet)',
      0,
      consumers.map((c, i) => ({ name: c, color: colors[i % colors.length]!, values: samples.map((s) => s.lag[c] ?? 0) })),
      '',
    )}
    ${chart(
      'Server memory (MB)',
      H,
      [
        { name: 'RSS', color: '#1f77b4', values: samples.map((s) => s.rss / 2 ** 20) },
        { name: 'V8 heap used', color: '#d62728', values: samples.map((s) => s.heap / 2 ** 20) },
      ],
      ' MB',
    )}
  </svg>`;
}

async function drawPng(svg: string, path: string): Promise<void> {
  const browser = await chromium.launch({
    executablePath: process.env.FL_CHROMIUM ?? '/usr/bin/chromium',
    args: ['--no-sandbox', '--disable-gpu', '--disable-background-networking', '--disable-component-update', '--disable-sync'],
  });
  try {
    const page = await browser.newPage({ viewport: { width: 900, height: 520 } });
    await page.setContent(`<html><body style="margin:0">${svg}</body></html>`);
    await page.screenshot({ path });
  } finally {
    await browser.close();
  }
}

export async function soakCell(seconds: number, plotPath: string | null): Promise<SoakCellResult> {
  const started = Date.now();
  const dataDir = mkdtempSync(join(tmpdir(), 'fl-soak-'));
  const server = await startServer({ FACTLEDGER_DATA_DIR: dataDir });
  const violations: string[] = [];
  const samples: Sample[] = [];
  try {
    // Something to read as of, and to recall.
    await seedMix(server.base, 'soak');
    const streams = mixedStreams('soak');
    const runs = Object.entries(streams).map(([name, request]) =>
      autocannon({ url: server.base, connections: 2, overallRate: SOAK_RATES[name as keyof typeof SOAK_RATES], duration: seconds, requests: [request] }).then((result) => [name, result] as const),
    );
    const t0 = Date.now();
    let sampling = true;
    const sampler = (async () => {
      while (sampling) {
        const text = await (await fetch(`${server.base}/metrics`)).text();
        const lag = metricValues(text, 'factledger_consumer_lag_events', 'consumer');
        const lagSeconds = Math.max(0, ...Object.values(metricValues(text, 'factledger_consumer_lag_seconds', 'consumer')));
        samples.push({ t: (Date.now() - t0) / 1000, rss: metricValues(text, 'process_resident_memory_bytes')['']!, heap: metricValues(text, 'nodejs_heap_size_used_bytes')['']!, lag, lagSeconds });
        await new Promise((r) => setTimeout(r, 2000));
      }
    })();
    const results = Object.fromEntries(await Promise.all(runs));
    // Settled: one more sample after the load, once the consumers had a moment.
    await new Promise((r) => setTimeout(r, 3000));
    sampling = false;
    await sampler;
    const routes: SoakCellResult['routes'] = {};
    for (const [name, r] of Object.entries(results)) {
      routes[name] = { requests: r.requests.total, p50: r.latency.p50, p99: r.latency.p99, errors: r.errors + r.timeouts, non2xx: r.non2xx };
      if (r.errors + r.timeouts > 0) violations.push(`${name}: ${r.errors} errors, ${r.timeouts} timeouts`);
      if (r.non2xx > 0) violations.push(`${name}: ${r.non2xx} answers not 2xx`);
    }
    const last = samples.at(-1)!;
    const maxLagEvents = Math.max(0, ...samples.flatMap((s) => Object.values(s.lag)));
    const maxLagSeconds = Math.max(0, ...samples.map((s) => s.lagSeconds));
    for (const [consumer, events] of Object.entries(last.lag)) if (events >= 200) violations.push(`${consumer} still ${events} events behind after the load`);
    if (maxLagSeconds > 30) violations.push(`a consumer fell ${maxLagSeconds.toFixed(1)} s behind`);
    // A trend needs samples enough: a minute and more (the smoke run only reports).
    const heap = heapGrowth(samples.map((s) => s.heap));
    if (heap.grew && samples.length >= 30) violations.push(`the heap grew from ${heap.warmMB} MB to ${heap.endMB} MB`);
    if (plotPath) await drawPng(svgOf(samples), plotPath);
    return {
      cell: `soak: ${seconds} s of writes, messages, recalls and as-of reads`,
      backend: 'pglite (data folder)',
      seconds,
      ratePerSecond: { ...SOAK_RATES },
      routes,
      maxLagEvents,
      maxLagSeconds: Math.round(maxLagSeconds * 10) / 10,
      memoryMB: { rssStart: Math.round(samples[0]!.rss / 2 ** 20), rssEnd: Math.round(last.rss / 2 ** 20), heapWarm: heap.warmMB, heapEnd: heap.endMB },
      plot: plotPath,
      ms: Date.now() - started,
      violations,
    };
  } finally {
    await server.kill('SIGTERM');
    rmSync(dataDir, { recursive: true, force: true });
  }
}
