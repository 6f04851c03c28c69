/**
 * factledger benchmark: each target beside its raw floor, measured in the same run on the same
 * database. Native PostgreSQL (a fresh database made with createTestDatabase('postgres'), from
 * FL_PG_ADMIN_URL, default postgres://postgres@127.0.0.1:5432/postgres) is the reference; the
 * embedded in-memory PGlite runs the same measures on a smaller dataset, for information.
 *
 *   npm run bench                                  both backends
 *   FL_BENCH_BACKENDS=postgres npm run bench       one backend
 *   FL_BENCH_SCALE=0.1 npm run bench               smoke run of the bench itself (figures not comparable)
 *
 * Progress goes to stderr; the markdown table to stdout; figures to bench/results/*.json.
 */
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { cpus, totalmem } from 'node:os';
import { dirname, join } from 'node:path';
import { ManualClock } from '@factledger/domain';
import { ledgerOn } from '@factledger/ledger';
import type { Backend } from '@factledger/store';
import { createTestDatabase } from '@factledger/testing';
import { sql } from 'kysely';
import {
  type AppendMeasure,
  type Bench,
  createScratchTables,
  fill,
  type FillReport,
  type LatencyMeasure,
  measureAppend,
  measureAsserts,
  measureProseAsserts,
  type ProseAssertMeasure,
  measureReads,
  measureRebuild,
  type RebuildMeasure,
  type Sizes,
} from './measures';
import type { ProfileReport } from './profile';
import { fmtInt, fmtMs, loadSampler, msSince, tick } from './stats';
import { FactWorkload } from './workload';

const DEFAULT_ADMIN_URL = 'postgres://postgres@127.0.0.1:5432/postgres';

/**
 * Calls made (target and floor alike) before the latency measures count: as many as it takes V8
 * to compile the paths. With 300 reads and 200 asserts, the 2,000 counted calls that followed
 * still overlapped ~90 TurboFan compilations (--trace-opt) and their p99 was 2–3× that of the
 * next 2,000 on the same database (reads 2.0–2.4 against 0.35–0.7 ms, asserts 5.4 against
 * 2.7–3.0 ms; 2026-12-02). The warm-up's own figures are reported beside the measured ones.
 */
const WARMUP = { reads: 3000, asserts: 2000 };

const SIZES: Record<Backend, Sizes> = {
  postgres: {
    appendBatch: 500,
    appendWarmup: 10,
    appendRounds: 100,
    changeShare: 0.25,
    fillBatch: 2000,
    facts: 100_000,
    rebuildRuns: 2,
    rebuildRepeatBelowMs: 30_000,
    reads: 2000,
    readWarmup: WARMUP.reads,
    asserts: 2000,
    assertWarmup: WARMUP.asserts,
    proseStored: 10_000,
    budgetMs: { append: 40_000, reads: 30_000, asserts: 60_000 },
    minSamples: { append: 30, reads: 1000, asserts: 1000 },
    profileUnits: 100,
  },
  // PGlite is one in-process session in WebAssembly: same measures, a fifth of the data, shorter time boxes.
  pglite: {
    appendBatch: 500,
    appendWarmup: 5,
    appendRounds: 30,
    changeShare: 0.25,
    fillBatch: 2000,
    facts: 20_000,
    rebuildRuns: 2,
    rebuildRepeatBelowMs: 10_000,
    reads: 1000,
    readWarmup: WARMUP.reads,
    asserts: 1000,
    assertWarmup: WARMUP.asserts,
    proseStored: 2_000,
    budgetMs: { append: 15_000, reads: 15_000, asserts: 20_000 },
    minSamples: { append: 15, reads: 500, asserts: 500 },
    profileUnits: 50,
  },
};

/** FL_BENCH_SCALE (e.g. 0.1) shrinks every count, for a quick smoke run of the bench itself. */
function scaled(s: Sizes, k: number): Sizes {
  if (!(k > 0) || k === 1) return s;
  const n = (x: number): number => Math.max(2, Math.round(x * k));
  const min = { append: n(s.minSamples.append), reads: n(s.minSamples.reads), asserts: n(s.minSamples.asserts) };
  return { ...s, appendRounds: n(s.appendRounds), facts: n(s.facts), proseStored: n(s.proseStored), reads: n(s.reads), asserts: n(s.asserts), profileUnits: n(s.profileUnits), minSamples: min };
}

const TARGETS = {
  appendEventsPerSec: 20_000,
  appendMaxRatio: 2,
  assertP99Ms: 5,
  rebuildEventsPerSec: 20_000,
  readP99Ms: 2,
};

/** Sealing the whole log into the hash chain at once, then verifying it (reported; appends do not wait for either). */
interface ChainMeasure {
  events: number;
  sealMs: number;
  sealEventsPerSec: number;
  verifyMs: number;
  verifyEventsPerSec: number;
}

/**
 * Erasure's cost (an erasure is rare, and appends wait for it: it holds the append lock): one
 * memory of the filled log at a time (every version of its fact), then a whole tenant of its own;
 * the log is verified after both.
 */
interface ErasureMeasure {
  oneMemory: { runs: number; p50Ms: number; maxMs: number; eventsRewritten: number };
  tenant: { memories: number; eventsRewritten: number; ms: number };
  verifiedAfter: boolean;
}

async function measureErasure(bench: Bench): Promise<ErasureMeasure> {
  const { handle, tenant } = bench;
  // Where the server's background loop would have them: every projection and the saga caught up, the log sealed.
  await handle.runner.catchUp();
  await handle.saga.catchUp();
  await handle.store.seal();
  const ids = (await sql<{ id: string }>`SELECT memory_id AS id FROM fl_memories WHERE tenant = ${tenant} ORDER BY memory_id LIMIT 7`.execute(bench.database.db)).rows.map((r) => r.id);
  const times: number[] = [];
  let rewritten = 0;
  for (const memoryId of ids) {
    const started = tick();
    const r = await handle.erasures.erase(tenant, { memoryId });
    times.push(msSince(started));
    rewritten += r.events;
  }
  times.sort((a, b) => a - b);
  const other = 'erase-all';
  const memories = 2000;
  for (let i = 0; i < memories; i += 250) {
    const ops = Array.from({ length: 250 }, (_, k) => ({ assert: { subject: `person ${i + k}`, relation: 'phone', value: `555-${String(i + k).padStart(4, '0')}` } }));
    await handle.ledger.writeMany(other, ops);
  }
  const started = tick();
  const all = await handle.erasures.erase(other, { all: true });
  const ms = msSince(started);
  const verified = await handle.store.verify();
  return {
    oneMemory: { runs: times.length, p50Ms: round2(times[Math.floor(times.length / 2)]!), maxMs: round2(times.at(-1)!), eventsRewritten: Math.round(rewritten / times.length) },
    tenant: { memories: all.memoryIds.length, eventsRewritten: all.events, ms: Math.round(ms) },
    verifiedAfter: verified.ok,
  };
}

const round2 = (x: number): number => Math.round(x * 100) / 100;

interface BackendResult {
  backend: Backend;
  server: string;
  settings: Record<string, string>;
  sizes: Sizes;
  dataset: FillReport;
  append: AppendMeasure;
  rebuild: RebuildMeasure;
  chain: ChainMeasure;
  read: LatencyMeasure;
  assert: LatencyMeasure;
  proseAssert: ProseAssertMeasure;
  erasure: ErasureMeasure;
  targets: Record<string, { value: number; target: string; met: boolean; missBy?: string }>;
  runtimeMs: number;
  /** 1-minute load average sampled every 2 s during this backend's run (2 cores: above 2 means contention). */
  loadAverage: { min: number; mean: number; max: number };
  markdown: string;
}

const log = (message: string): void => {
  process.stderr.write(`${message}\n`);
};

function repoRoot(): string {
  let dir = __dirname;
  for (;;) {
    if (existsSync(join(dir, 'package.json')) && existsSync(join(dir, 'bench'))) return dir;
    const parent = dirname(dir);
    if (parent === dir) return process.cwd();
    dir = parent;
  }
}

async function runBackend(backend: Backend): Promise<BackendResult> {
  const started = tick();
  const load = loadSampler();
  const sizes = scaled(SIZES[backend], Number(process.env.FL_BENCH_SCALE ?? 1));
  const database = await createTestDatabase(backend);
  try {
    const simStart = Date.parse('2026-01-01T00:00:00Z');
    const clock = new ManualClock(new Date(simStart));
    const handle = ledgerOn(database, { clock });
    const bench: Bench = { backend, database, handle, clock, workload: new FactWorkload(42), tenant: 'bench', sizes, simStart, log };
    const server = (await sql<{ v: string }>`SELECT version() AS v`.execute(database.db)).rows[0]!.v;
    const settings = Object.fromEntries(
      (
        await sql<{ name: string; setting: string }>`
          SELECT name, setting FROM pg_settings
          WHERE name IN ('fsync', 'synchronous_commit', 'shared_buffers', 'wal_level', 'full_page_writes', 'max_wal_size')`.execute(database.db)
      ).rows.map((r) => [r.name, r.setting]),
    );
    log(`[${backend}] ${server.split(',')[0]} — database ${database.name}`);
    await createScratchTables(bench);

    log(`[${backend}] 1/4 batched append: ${sizes.appendWarmup}+≤${sizes.appendRounds} rounds of ${sizes.appendBatch} events (factledger, floor jsonb, floor VALUES)`);
    const append = await measureAppend(bench);
    log(`  factledger ${fmtInt(append.factledger.eventsPerSec)} ev/s, floor ${fmtInt(append.floor.eventsPerSec)} ev/s (${append.floor.method})`);

    log(`[${backend}] filling to ${fmtInt(sizes.facts)} fact versions through the store (batches of ${sizes.fillBatch})`);
    const dataset = await fill(bench);
    log(`  ${fmtInt(dataset.facts)} fact versions over ${fmtInt(dataset.keys)} keys, ${fmtInt(dataset.events)} events in ${fmtInt(dataset.fillMs)} ms (${fmtInt(dataset.fillEventsPerSec)} ev/s)`);

    log(`[${backend}] 3/4 projection rebuild x${sizes.rebuildRuns}`);
    const rebuild = await measureRebuild(bench);
    log(`  factledger ${fmtInt(rebuild.factledger.eventsPerSec)} ev/s, floor ${fmtInt(rebuild.floor.eventsPerSec)} ev/s`);
    if (rebuild.check.memories !== rebuild.check.expectedMemories) {
      log(`  WARNING: fl_memories has ${rebuild.check.memories} rows, the workload decided ${rebuild.check.expectedMemories} versions`);
    }

    // The hash chain is sealed beside the append (migrations/018): the bench's ledger runs no
    // background loop, so the whole log is sealed here at once, then verified end to end.
    log(`[${backend}] hash chain: seal and verify the whole log`);
    const sealStarted = tick();
    const sealedEvents = await bench.handle.store.seal();
    const sealMs = msSince(sealStarted);
    const verifyStarted = tick();
    const verified = await bench.handle.store.verify();
    const verifyMs = msSince(verifyStarted);
    if (!verified.ok) throw new Error(`the bench's own log does not verify: ${verified.message}`);
    const chain: ChainMeasure = {
      events: sealedEvents,
      sealMs: Math.round(sealMs),
      sealEventsPerSec: Math.round((sealedEvents / sealMs) * 1000),
      verifyMs: Math.round(verifyMs),
      verifyEventsPerSec: Math.round((verified.events / verifyMs) * 1000),
    };
    log(`  sealed ${fmtInt(chain.events)} events at ${fmtInt(chain.sealEventsPerSec)} ev/s, verified at ${fmtInt(chain.verifyEventsPerSec)} ev/s`);

    // Steady state before the latency measures, for factledger and its floors alike: the tables the
    // rebuild just loaded are vacuumed and analyzed (a rebuild analyzes only its key columns and
    // leaves the rest to autovacuum, which would otherwise run during the reads), and the WAL of
    // the load is checkpointed, so that neither lands in the middle of the measures.
    await sql`VACUUM (ANALYZE)`.execute(database.db);
    if (backend === 'postgres') await sql`CHECKPOINT`.execute(database.db);

    log(`[${backend}] 4/4 as-of fact reads: ${sizes.readWarmup}+${sizes.reads}`);
    const read = await measureReads(bench);
    log(`  factledger p99 ${fmtMs(read.factledger.p99)} ms, floor p99 ${fmtMs(read.floor.p99)} ms (warm-up: ${fmtMs(read.warmup.factledger.p99)} / ${fmtMs(read.warmup.floor.p99)} ms)`);

    log(`[${backend}] 2/4 assert end to end: ${sizes.assertWarmup}+${sizes.asserts}`);
    const assert = await measureAsserts(bench);
    log(`  factledger p99 ${fmtMs(assert.factledger.p99)} ms, floor p99 ${fmtMs(assert.floor.p99)} ms (warm-up: ${fmtMs(assert.warmup.factledger.p99)} / ${fmtMs(assert.warmup.floor.p99)} ms)`);

    log(`[${backend}] 2b prose assert with frame alignment beside the same without it: ${sizes.assertWarmup}+${sizes.asserts}`);
    const proseAssert = await measureProseAsserts(bench, ledgerOn(database, { clock: bench.clock, restatement: false }), sizes.proseStored);
    log(`  aligned p99 ${fmtMs(proseAssert.factledger.p99)} ms, without alignment p99 ${fmtMs(proseAssert.floor.p99)} ms; restated: ${JSON.stringify(proseAssert.restated)}`);

    log(`[${backend}] erasure: single memories of the filled log, then a whole tenant`);
    const erasure = await measureErasure(bench);
    log(`  one memory p50 ${fmtMs(erasure.oneMemory.p50Ms)} ms; ${fmtInt(erasure.tenant.memories)} memories of a tenant in ${fmtInt(erasure.tenant.ms)} ms; verified after: ${erasure.verifiedAfter}`);
    if (!erasure.verifiedAfter) throw new Error('the log does not verify after the erasures');

    const pct = (value: number, target: number, higherIsBetter: boolean): string =>
      higherIsBetter
        ? `${(((target - value) / target) * 100).toFixed(0)}% below target (${fmtInt(value)} vs ${fmtInt(target)}; ${(target / value).toFixed(1)}× short)`
        : `${(value / target).toFixed(1)}× the target (${fmtMs(value)} ms vs ${target} ms)`;
    const targets: BackendResult['targets'] = {
      appendEventsPerSec: {
        value: append.factledger.eventsPerSec,
        target: `>= ${TARGETS.appendEventsPerSec}`,
        met: append.factledger.eventsPerSec >= TARGETS.appendEventsPerSec,
      },
      appendRatio: { value: append.ratio, target: `<= ${TARGETS.appendMaxRatio}x floor`, met: append.ratio <= TARGETS.appendMaxRatio },
      assertP99Ms: { value: assert.factledger.p99, target: `<= ${TARGETS.assertP99Ms} ms`, met: assert.factledger.p99 <= TARGETS.assertP99Ms },
      proseAssertP99Ms: { value: proseAssert.factledger.p99, target: `<= ${TARGETS.assertP99Ms} ms`, met: proseAssert.factledger.p99 <= TARGETS.assertP99Ms },
      rebuildEventsPerSec: {
        value: rebuild.factledger.eventsPerSec,
        target: `>= ${TARGETS.rebuildEventsPerSec}`,
        met: rebuild.factledger.eventsPerSec >= TARGETS.rebuildEventsPerSec,
      },
      readP99Ms: { value: read.factledger.p99, target: `<= ${TARGETS.readP99Ms} ms`, met: read.factledger.p99 <= TARGETS.readP99Ms },
    };
    const t = targets;
    if (!t.appendEventsPerSec!.met) t.appendEventsPerSec!.missBy = pct(append.factledger.eventsPerSec, TARGETS.appendEventsPerSec, true);
    if (!t.appendRatio!.met) t.appendRatio!.missBy = `${append.ratio}x vs ${TARGETS.appendMaxRatio}x`;
    if (!t.assertP99Ms!.met) t.assertP99Ms!.missBy = pct(assert.factledger.p99, TARGETS.assertP99Ms, false);
    if (!t.proseAssertP99Ms!.met) t.proseAssertP99Ms!.missBy = pct(proseAssert.factledger.p99, TARGETS.assertP99Ms, false);
    if (!t.rebuildEventsPerSec!.met) t.rebuildEventsPerSec!.missBy = pct(rebuild.factledger.eventsPerSec, TARGETS.rebuildEventsPerSec, true);
    if (!t.readP99Ms!.met) t.readP99Ms!.missBy = pct(read.factledger.p99, TARGETS.readP99Ms, false);

    const result: Omit<BackendResult, 'markdown'> = {
      backend,
      server: server.split(',')[0]!,
      settings,
      sizes,
      dataset,
      append,
      rebuild,
      chain,
      read,
      assert,
      proseAssert,
      erasure,
      targets,
      runtimeMs: Math.round(msSince(started)),
      loadAverage: load.stop(),
    };
    return { ...result, markdown: markdownTable(result) };
  } finally {
    await database.close();
  }
}

const mark = (met: boolean): string => (met ? '✅' : '❌');
const lat = (s: { p50: number; p95: number; p99: number }): string => `${fmtMs(s.p50)} / ${fmtMs(s.p95)} / ${fmtMs(s.p99)} ms`;

function markdownTable(r: Omit<BackendResult, 'markdown'>): string {
  const { append, rebuild, chain, read, assert, proseAssert, erasure, dataset, targets } = r;
  const rows = [
    [
      `Batched append (${append.batchEvents} events/call over ~${append.streamsPerBatch} streams, ~${append.avgPayloadBytes} B jsonb)`,
      `${fmtInt(append.factledger.eventsPerSec)} events/s`,
      `${fmtInt(append.floor.eventsPerSec)} events/s (${append.floor.method}, unindexed)`,
      `${append.ratio.toFixed(2)}×`,
      `≥ ${fmtInt(TARGETS.appendEventsPerSec)} events/s, ≤ ${TARGETS.appendMaxRatio}× floor`,
      `${mark(targets.appendEventsPerSec!.met)} rate, ${mark(targets.appendRatio!.met)} ratio`,
    ],
    [
      `Assert end to end (decide + append + catch-up), n=${fmtInt(assert.n)}, p50/p95/p99`,
      lat(assert.factledger),
      `${lat(assert.floor)} (PK SELECT + 1-row INSERT)`,
      `${assert.ratioP99.toFixed(1)}× at p99`,
      `p99 ≤ ${TARGETS.assertP99Ms} ms`,
      mark(targets.assertP99Ms!.met),
    ],
    [
      `Prose assert with frame alignment (${fmtInt(proseAssert.stored)} statements stored; restated: ${
        Object.entries(proseAssert.restated)
          .map(([k, v]) => `${k} ${v}`)
          .join(', ') || 'none'
      }), n=${fmtInt(proseAssert.n)}, p50/p95/p99`,
      lat(proseAssert.factledger),
      `${lat(proseAssert.floor)} (the same assert, alignment off)`,
      `${proseAssert.ratioP99.toFixed(1)}× at p99`,
      `p99 ≤ ${TARGETS.assertP99Ms} ms`,
      mark(targets.proseAssertP99Ms!.met),
    ],
    [
      `Projection rebuild 'facts' (${fmtInt(rebuild.events)} events)`,
      `${fmtInt(rebuild.factledger.eventsPerSec)} events/s`,
      `${fmtInt(rebuild.floor.eventsPerSec)} events/s (read log + copy to unindexed table)`,
      `${rebuild.ratio.toFixed(2)}×`,
      `≥ ${fmtInt(TARGETS.rebuildEventsPerSec)} events/s`,
      mark(targets.rebuildEventsPerSec!.met),
    ],
    [
      `Hash chain: seal / verify the whole log (${fmtInt(chain.events)} events; appends do not wait for it)`,
      `${fmtInt(chain.sealEventsPerSec)} / ${fmtInt(chain.verifyEventsPerSec)} events/s`,
      '—',
      '—',
      'reported',
      '—',
    ],
    [
      `Erasure: one memory of ${fmtInt(chain.events)} events (~${erasure.oneMemory.eventsRewritten} events rewritten), n=${erasure.oneMemory.runs}, p50 / max; a whole tenant of ${fmtInt(erasure.tenant.memories)} memories`,
      `${fmtMs(erasure.oneMemory.p50Ms)} / ${fmtMs(erasure.oneMemory.maxMs)} ms; ${fmtInt(erasure.tenant.ms)} ms (${fmtInt(erasure.tenant.eventsRewritten)} events)`,
      '—',
      '—',
      `reported; log verified after: ${erasure.verifiedAfter ? 'yes' : 'NO'}`,
      '—',
    ],
    [
      `As-of fact read (${fmtInt(rebuild.check.memories)} facts over ${fmtInt(dataset.keys)} keys), n=${fmtInt(read.n)}, p50/p95/p99`,
      lat(read.factledger),
      `${lat(read.floor)} (PK SELECT)`,
      `${read.ratioP99.toFixed(1)}× at p99`,
      `p99 ≤ ${TARGETS.readP99Ms} ms`,
      mark(targets.readP99Ms!.met),
    ],
  ];
  const head = '| measure | factledger | floor | ratio | target | met? |\n|---|---|---|---|---|---|';
  const cold = (name: string, m: LatencyMeasure, warmup: number): string => `${name} ${lat(m.warmup.factledger)} (floor ${lat(m.warmup.floor)}) over the ${fmtInt(warmup)} warm-up calls`;
  const footnote = `_Warm-up, not counted above (V8 still compiling the paths): ${cold('assert', assert, r.sizes.assertWarmup)}; ${cold('as-of read', read, r.sizes.readWarmup)}._`;
  return `${head}\n${rows.map((cols) => `| ${cols.join(' | ')} |`).join('\n')}\n\n${footnote}`;
}

function profileText(title: string, p: ProfileReport, unit: string): string {
  const lines = p.perUnit
    .filter((x) => x.ms >= 0.005)
    .slice(0, 9)
    .map((x) => `    ${x.kind.padEnd(40)} ${String(x.queries).padStart(6)} q  ${x.ms.toFixed(3).padStart(8)} ms  ${x.share.padStart(6)}`);
  return [`  ${title}: ${p.wallMsPerUnit} ms per ${unit} = ${p.dbBusyMsPerUnit} ms waiting on queries + ${p.jsMsPerUnit} ms JavaScript/event loop`, ...lines].join('\n');
}

async function main(): Promise<void> {
  const started = tick();
  process.env.FL_PG_ADMIN_URL ??= DEFAULT_ADMIN_URL;
  const backends = (process.env.FL_BENCH_BACKENDS ?? 'postgres,pglite').split(',').map((s) => s.trim()) as Backend[];
  const root = repoRoot();
  const outDir = join(root, 'bench', 'results');
  mkdirSync(outDir, { recursive: true });
  const machine = {
    cpuModel: cpus()[0]?.model ?? 'unknown',
    cores: cpus().length,
    memoryGiB: Math.round(totalmem() / 2 ** 30),
    node: process.version,
    nodeFlags: process.execArgv.join(' '),
    platform: `${process.platform} ${process.arch}`,
    pglite: readVersion(root, '@electric-sql/pglite'),
    kysely: readVersion(root, 'kysely'),
    pg: readVersion(root, 'pg'),
    date: new Date().toISOString(),
  };
  const results: Partial<Record<Backend, BackendResult>> = {};
  const errors: Partial<Record<Backend, string>> = {};
  for (const backend of backends) {
    try {
      const r = await runBackend(backend);
      results[backend] = r;
      writeFileSync(join(outDir, `${backend}.json`), `${JSON.stringify({ machine, ...r }, null, 2)}\n`);
    } catch (error) {
      errors[backend] = error instanceof Error ? error.message : String(error);
      log(`[${backend}] FAILED: ${errors[backend]}`);
    }
  }
  const totalMs = Math.round(msSince(started));
  const sections: string[] = [];
  for (const backend of backends) {
    const r = results[backend];
    if (!r) {
      sections.push(`**${backend}**: not measured (${errors[backend]})`);
      continue;
    }
    const title =
      backend === 'postgres'
        ? `**Native ${r.server}** (fresh database, fsync=${r.settings.fsync}, synchronous_commit=${r.settings.synchronous_commit}; ${fmtInt(r.dataset.facts)} facts over ${fmtInt(r.dataset.keys)} keys, ${fmtInt(r.dataset.events)} events; runtime ${(r.runtimeMs / 1000).toFixed(0)} s; load avg ${r.loadAverage.mean} on ${machine.cores} cores)`
        : `**Embedded PGlite ${machine.pglite}, in memory** — for information; smaller dataset (${fmtInt(r.dataset.facts)} facts over ${fmtInt(r.dataset.keys)} keys, ${fmtInt(r.dataset.events)} events; runtime ${(r.runtimeMs / 1000).toFixed(0)} s; load avg ${r.loadAverage.mean})`;
    const busy =
      r.loadAverage.mean > machine.cores
        ? `\n\n> ⚠ The machine was busy with other work during this run (1-min load average ${r.loadAverage.min}–${r.loadAverage.max} on ${machine.cores} cores): latencies and rates are pessimistic; rerun on a quiet machine for README figures.`
        : '';
    sections.push(`${title}${busy}\n\n${r.markdown}`);
  }
  const header = `_${machine.cpuModel}, ${machine.cores} cores, ${machine.memoryGiB} GiB, Node ${machine.node}${machine.nodeFlags ? ` (${machine.nodeFlags})` : ''}, ${machine.date.slice(0, 10)}; total bench runtime ${(totalMs / 1000).toFixed(0)} s (plus build)._`;
  const markdown = `${header}\n\n${sections.join('\n\n')}\n`;
  writeFileSync(join(outDir, 'latest.json'), `${JSON.stringify({ machine, totalRuntimeMs: totalMs, targets: TARGETS, results, errors, markdown }, null, 2)}\n`);
  process.stdout.write(`${markdown}\n`);
  // Where the time goes (profiled passes, not the figures above).
  for (const backend of backends) {
    const r = results[backend];
    if (!r) continue;
    log(`\n[${backend}] breakdown (query profiler, separate passes):`);
    log(profileText('append batch', r.append.profile, `${r.append.batchEvents}-event append`));
    log(`  asserts that returned before their own event was projected: ${String(r.assert.notProjectedOnReturn)} of ${r.assert.n}`);
    log(profileText('assert', r.assert.profile, 'assert'));
    log(profileText('rebuild', r.rebuild.profile, '1000 events'));
    log(profileText('as-of read', r.read.profile, 'read'));
  }
  log(`\nresults: ${join(outDir, 'latest.json')}; total runtime ${(totalMs / 1000).toFixed(1)} s`);
  if (Object.keys(errors).length) process.exitCode = 1;
}

function readVersion(root: string, pkg: string): string {
  try {
    return (JSON.parse(readFileSync(join(root, 'node_modules', pkg, 'package.json'), 'utf8')) as { version: string }).version;
  } catch {
    return 'unknown';
  }
}

main().catch((error) => {
  log(error instanceof Error ? (error.stack ?? error.message) : String(error));
  process.exit(1);
});
