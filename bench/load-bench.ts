/**
 * `npm run bench:load`: the soak's mix (writes, messages, recalls, as-of reads; reliability/mixed-load.ts)
 * asked of the server process (what `npm start` runs) at 1×, 1.5×, 2×, 3×… the soak's rates, a step at a
 * time, on PGlite (a data folder) and on native PostgreSQL (a fresh database), until a route's p99
 * passes P99_BOUND_MS or the server serves less than it is asked. Each step reports what was served
 * and how fast, and where the server's time went, from its own `/metrics` read before and after: the
 * time in each route and command, in recall's stages and in appends; the event loop's delay; the
 * server's CPU and the host's.
 *
 *   npm run bench:load                                  both backends, 20 s a step
 *   FL_LOAD_STEP_S=10 FL_LOAD_BACKENDS=postgres npm run bench:load
 *
 * The sustainable rate is the last step at which every route's p99 stayed within the bound, nothing
 * failed, and at least 95% of what was asked was served. Results: bench/results/load.json.
 */
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { cpus, tmpdir } from 'node:os';
import { join } from 'node:path';
import autocannon from 'autocannon';
import { Client } from 'pg';
import { metricSums, metricValues } from './reliability/metrics-scrape';
import { mixedStreams, SOAK_RATES, seedMix, type StreamName } from './reliability/mixed-load';
import { type ServerProcess, startServer } from './reliability/server-process';

const P99_BOUND_MS = 100;
const MULTIPLES = [1, 1.5, 2, 3, 4, 6, 8, 12, 16];
const STEP_S = Number(process.env.FL_LOAD_STEP_S ?? 20);
const WARMUP_S = 5;
const TENANT = 'load';

interface RouteStep {
  asked: number;
  served: number;
  p50: number;
  p99: number;
  errors: number;
  non2xx: number;
}

interface Step {
  multiple: number;
  askedPerSecond: number;
  servedPerSecond: number;
  routes: Record<StreamName, RouteStep>;
  /** Seconds the server spent in each, over the step (sums of its histograms). */
  seconds: { routes: Record<string, number>; commands: Record<string, number>; recallStages: Record<string, number>; appends: number };
  eventLoopDelayP99Ms: number;
  serverCpuPercent: number;
  hostCpuPercent: number;
  rssMB: number;
  withinBound: boolean;
}

interface BackendResult {
  backend: 'pglite' | 'postgres';
  steps: Step[];
  /** The last step within the bound, as requests a second, and as a multiple of the soak's rate. */
  sustainable: { perSecond: number; multiple: number } | null;
  /** The first step past it, and why. */
  knee: { multiple: number; why: string } | null;
}

const round = (v: number, d = 1) => Math.round(v * 10 ** d) / 10 ** d;

/** Busy and total jiffies of the whole host (/proc/stat's first line). */
function hostTicks(): { busy: number; total: number } {
  const [, ...fields] = readFileSync('/proc/stat', 'utf8').split('\n')[0]!.trim().split(/\s+/);
  const v = fields.map(Number);
  const idle = v[3]! + (v[4] ?? 0);
  const total = v.reduce((a, b) => a + b, 0);
  return { busy: total - idle, total };
}

const diff = (after: Record<string, number>, before: Record<string, number>): Record<string, number> =>
  Object.fromEntries(
    Object.entries(after)
      .map(([k, v]) => [k, round(v - (before[k] ?? 0), 2)])
      .filter(([, v]) => (v as number) > 0),
  );

async function scrape(server: ServerProcess): Promise<string> {
  return (await fetch(`${server.base}/metrics`)).text();
}

async function runStep(server: ServerProcess, multiple: number, seconds: number): Promise<Step> {
  const streams = mixedStreams(TENANT);
  const before = await scrape(server);
  const ticks = hostTicks();
  const started = Date.now();
  const runs = (Object.keys(SOAK_RATES) as StreamName[]).map(async (name) => {
    const rate = SOAK_RATES[name] * multiple;
    // Enough connections that a slow answer does not hold the asked rate back (a rate of r at up to 1 s each).
    const result = await autocannon({ url: server.base, connections: Math.max(2, Math.ceil(rate / 4)), overallRate: rate, duration: seconds, requests: [streams[name]] });
    return [name, result] as const;
  });
  const results = await Promise.all(runs);
  const elapsed = (Date.now() - started) / 1000;
  const after = await scrape(server);
  const hostAfter = hostTicks();
  const routes = {} as Record<StreamName, RouteStep>;
  for (const [name, r] of results) {
    routes[name] = { asked: SOAK_RATES[name] * multiple, served: round(r.requests.total / elapsed), p50: r.latency.p50, p99: r.latency.p99, errors: r.errors + r.timeouts, non2xx: r.non2xx };
  }
  const asked = Object.values(routes).reduce((a, r) => a + r.asked, 0);
  const served = Object.values(routes).reduce((a, r) => a + r.served, 0);
  const cpu = (text: string) => metricValues(text, 'process_cpu_seconds_total')[''] ?? 0;
  const withinBound = Object.values(routes).every((r) => r.p99 <= P99_BOUND_MS && r.errors === 0 && r.non2xx === 0) && served >= 0.95 * asked;
  return {
    multiple,
    askedPerSecond: asked,
    servedPerSecond: round(served),
    routes,
    seconds: {
      routes: diff(metricSums(after, 'factledger_http_request_duration_seconds_sum', 'route'), metricSums(before, 'factledger_http_request_duration_seconds_sum', 'route')),
      commands: diff(metricSums(after, 'factledger_command_duration_seconds_sum', 'command'), metricSums(before, 'factledger_command_duration_seconds_sum', 'command')),
      recallStages: diff(metricSums(after, 'factledger_recall_stage_duration_seconds_sum', 'stage'), metricSums(before, 'factledger_recall_stage_duration_seconds_sum', 'stage')),
      appends: round((metricValues(after, 'factledger_append_duration_seconds_sum')[''] ?? 0) - (metricValues(before, 'factledger_append_duration_seconds_sum')[''] ?? 0), 2),
    },
    eventLoopDelayP99Ms: round((metricValues(after, 'nodejs_eventloop_lag_p99_seconds')[''] ?? 0) * 1000),
    serverCpuPercent: round(((cpu(after) - cpu(before)) / elapsed) * 100),
    hostCpuPercent: round(((hostAfter.busy - ticks.busy) / Math.max(1, hostAfter.total - ticks.total)) * 100),
    rssMB: Math.round((metricValues(after, 'process_resident_memory_bytes')[''] ?? 0) / 2 ** 20),
    withinBound,
  };
}

/** Why a step is past the bound, in a few words. */
function whyPast(step: Step): string {
  const slow = Object.entries(step.routes).filter(([, r]) => r.p99 > P99_BOUND_MS);
  const failed = Object.entries(step.routes).filter(([, r]) => r.errors + r.non2xx > 0);
  const parts = [
    ...slow.map(([name, r]) => `${name} p99 ${r.p99} ms`),
    ...failed.map(([name, r]) => `${name}: ${r.errors} errors, ${r.non2xx} not 2xx`),
    ...(step.servedPerSecond < 0.95 * step.askedPerSecond ? [`served ${step.servedPerSecond} of ${step.askedPerSecond} asked a second`] : []),
  ];
  return parts.join('; ');
}

async function onBackend(backend: 'pglite' | 'postgres'): Promise<BackendResult> {
  const dataDir = mkdtempSync(join(tmpdir(), 'fl-load-'));
  const adminUrl = process.env.FL_PG_ADMIN_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres';
  const dbName = `fl_load_${Date.now()}`;
  let env: Record<string, string> = { FACTLEDGER_DATA_DIR: dataDir };
  if (backend === 'postgres') {
    const admin = new Client({ connectionString: adminUrl });
    await admin.connect();
    await admin.query(`CREATE DATABASE ${dbName}`);
    await admin.end();
    const url = new URL(adminUrl);
    url.pathname = `/${dbName}`;
    env = { DATABASE_URL: url.toString() };
  }
  const server = await startServer(env);
  const steps: Step[] = [];
  let knee: BackendResult['knee'] = null;
  try {
    await seedMix(server.base, TENANT);
    process.stderr.write(`[${backend}] warm-up ${WARMUP_S} s at 1×\n`);
    await runStep(server, 1, WARMUP_S);
    for (const multiple of MULTIPLES) {
      const step = await runStep(server, multiple, STEP_S);
      steps.push(step);
      const worst = Math.max(...Object.values(step.routes).map((r) => r.p99));
      process.stderr.write(
        `[${backend}] ${multiple}×: asked ${step.askedPerSecond}/s, served ${step.servedPerSecond}/s, worst p99 ${worst} ms, server CPU ${step.serverCpuPercent}%, host ${step.hostCpuPercent}%, loop p99 ${step.eventLoopDelayP99Ms} ms, RSS ${step.rssMB} MB\n`,
      );
      if (!step.withinBound) {
        knee = { multiple, why: whyPast(step) };
        break;
      }
    }
  } finally {
    await server.kill('SIGTERM');
    rmSync(dataDir, { recursive: true, force: true });
    if (backend === 'postgres') {
      const admin = new Client({ connectionString: adminUrl });
      await admin.connect();
      await admin.query(`DROP DATABASE IF EXISTS ${dbName} WITH (FORCE)`);
      await admin.end();
    }
  }
  const within = steps.filter((s) => s.withinBound);
  const last = within.at(-1);
  return { backend, steps, sustainable: last ? { perSecond: last.servedPerSecond, multiple: last.multiple } : null, knee };
}

function table(result: BackendResult): string {
  const rows = result.steps.map((s) => {
    const p99 = (Object.keys(SOAK_RATES) as StreamName[]).map((n) => s.routes[n].p99).join(' / ');
    const top = Object.entries(s.seconds.commands)
      .sort((a, b) => b[1] - a[1])
      .slice(0, 3)
      .map(([k, v]) => `${k} ${v} s`)
      .join(', ');
    return `| ${s.multiple}× | ${s.askedPerSecond} | ${s.servedPerSecond} | ${p99} | ${s.serverCpuPercent}% / ${s.hostCpuPercent}% | ${s.eventLoopDelayP99Ms} | ${s.rssMB} | ${top} |`;
  });
  return [
    `### ${result.backend}: sustainable ${result.sustainable ? `${result.sustainable.perSecond}/s (${result.sustainable.multiple}× the soak)` : 'none'}; knee ${result.knee ? `${result.knee.multiple}× (${result.knee.why})` : 'not reached'}`,
    '',
    '| step | asked/s | served/s | p99 ms (writes / messages / recalls / as-of) | CPU server / host | loop p99 ms | RSS MB | most time in |',
    '|---|---|---|---|---|---|---|---|',
    ...rows,
  ].join('\n');
}

async function main(): Promise<void> {
  const backends = (process.env.FL_LOAD_BACKENDS ?? 'pglite,postgres').split(',').map((b) => b.trim()) as ('pglite' | 'postgres')[];
  const results: BackendResult[] = [];
  for (const backend of backends) results.push(await onBackend(backend));
  const out = {
    at: new Date().toISOString(),
    host: { cpus: cpus().length, model: cpus()[0]?.model ?? '' },
    stepSeconds: STEP_S,
    boundMs: P99_BOUND_MS,
    soakRates: SOAK_RATES,
    results,
  };
  mkdirSync(join(__dirname, '..', '..', 'bench', 'results'), { recursive: true });
  writeFileSync(join(__dirname, '..', '..', 'bench', 'results', 'load.json'), `${JSON.stringify(out, null, 2)}\n`);
  process.stdout.write(`${results.map(table).join('\n\n')}\n`);
}

main().catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});
