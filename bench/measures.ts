/**
 * The four measures, each beside its raw floor in the same run, on the same database and
 * through the same driver (Kysely over `pg`), alternating target and floor so that drift
 * (checkpoints, autovacuum, page-cache state) hits both alike.
 */
import { randomUUID } from 'node:crypto';
import type { ManualClock } from '@factledger/domain';
import type { LedgerHandle } from '@factledger/ledger';
import type { AppendContext, Backend, StreamAppend } from '@factledger/store';
import type { TestDatabase } from '@factledger/testing';
import { CompiledQuery, sql } from 'kysely';
import { type ProfileReport, QueryProfiler } from './profile';
import { type LatencySummary, msSince, round, summarize, tick } from './stats';
import { type FactWorkload, VALID_BASE, type WorkloadCounts } from './workload';

export interface Sizes {
  appendBatch: number;
  appendWarmup: number;
  appendRounds: number;
  /** Share of asserts that change an existing key (supersession or new set member). */
  changeShare: number;
  fillBatch: number;
  /** Fact versions (rows of fl_memories) in the database before the rebuild and the reads. */
  facts: number;
  rebuildRuns: number;
  /** A second rebuild run is skipped when the first took longer than this. */
  rebuildRepeatBelowMs: number;
  reads: number;
  readWarmup: number;
  asserts: number;
  assertWarmup: number;
  /** Prose statements stored in each of the two tenants before the prose-assert measure. */
  proseStored: number;
  /**
   * Time boxes: a latency or rate measure stops early once it has `minSamples` samples and has
   * run this long, so that a slow (or busy) machine still finishes in minutes. `n` says how many.
   */
  budgetMs: { append: number; reads: number; asserts: number };
  minSamples: { append: number; reads: number; asserts: number };
  profileUnits: number;
}

export interface Bench {
  backend: Backend;
  database: TestDatabase;
  handle: LedgerHandle;
  clock: ManualClock;
  workload: FactWorkload;
  tenant: string;
  sizes: Sizes;
  simStart: number;
  log(message: string): void;
}

/** Transaction time moves 10 minutes per append call, so as-of reads have history to walk. */
const STEP_MS = 10 * 60_000;

function appendContext(b: Bench): AppendContext {
  const recordedAt = b.clock.now();
  b.clock.advance(STEP_MS);
  return { tenant: b.tenant, commandId: null, causationId: null, correlationId: null, batch: null, recordedAt };
}

const raw = (b: Bench, text: string, params: unknown[] = []): Promise<unknown> => b.database.db.executeQuery(CompiledQuery.raw(text, params));

// ---- floors' scratch tables ------------------------------------------------------------------

export async function createScratchTables(b: Bench): Promise<void> {
  await raw(
    b,
    `CREATE TABLE bench_floor_events (
      global_position bigserial, transaction_id xid8 NOT NULL DEFAULT pg_current_xact_id(),
      tenant text NOT NULL, stream_id text NOT NULL, stream_version integer NOT NULL, event_id uuid NOT NULL,
      type text NOT NULL, data jsonb NOT NULL, command_id text, causation_id text, correlation_id text, batch text,
      recorded_at timestamptz NOT NULL)`,
  );
  await raw(b, `CREATE TABLE bench_floor_projection (stream_id text NOT NULL, stream_version integer NOT NULL, type text NOT NULL, data jsonb NOT NULL)`);
}

interface EventRowIn {
  tenant: string;
  stream_id: string;
  stream_version: number;
  event_id: string;
  type: string;
  data: unknown;
  command_id: null;
  causation_id: null;
  correlation_id: null;
  batch: null;
  recorded_at: string;
}

/** The rows the store writes for these appends (fresh event ids: the floor table is separate anyway). */
function rowsOf(ctx: AppendContext, appends: StreamAppend[]): EventRowIn[] {
  const rows: EventRowIn[] = [];
  for (const a of appends) {
    const first = a.expectedVersion === 'no-stream' ? 0 : (a.expectedVersion as number) + 1;
    a.events.forEach((e, i) =>
      rows.push({
        tenant: ctx.tenant,
        stream_id: a.streamId,
        stream_version: first + i,
        event_id: randomUUID(),
        type: e.type,
        data: e.data,
        command_id: null,
        causation_id: null,
        correlation_id: null,
        batch: null,
        recorded_at: ctx.recordedAt.toISOString(),
      }),
    );
  }
  return rows;
}

const FLOOR_COLUMNS = 'tenant, stream_id, stream_version, event_id, type, data, command_id, causation_id, correlation_id, batch, recorded_at';

/** Floor A: the same one-statement jsonb_to_recordset insert, into the unindexed table. */
function floorJsonb(b: Bench, rows: EventRowIn[]): Promise<unknown> {
  return raw(
    b,
    `INSERT INTO bench_floor_events (${FLOOR_COLUMNS})
     SELECT ${FLOOR_COLUMNS} FROM jsonb_to_recordset($1::jsonb) AS r(
       tenant text, stream_id text, stream_version int, event_id uuid, type text, data jsonb,
       command_id text, causation_id text, correlation_id text, batch text, recorded_at timestamptz)`,
    [JSON.stringify(rows)],
  );
}

/** Floor B: a plain multi-row INSERT … VALUES with bound parameters. */
function floorValues(b: Bench, rows: EventRowIn[]): Promise<unknown> {
  const params: unknown[] = [];
  const tuples: string[] = [];
  for (const r of rows) {
    const n = params.length;
    params.push(r.tenant, r.stream_id, r.stream_version, r.event_id, r.type, JSON.stringify(r.data), r.recorded_at);
    tuples.push(`($${n + 1}, $${n + 2}, $${n + 3}, $${n + 4}::uuid, $${n + 5}, $${n + 6}::jsonb, NULL, NULL, NULL, NULL, $${n + 7}::timestamptz)`);
  }
  return raw(b, `INSERT INTO bench_floor_events (${FLOOR_COLUMNS}) VALUES ${tuples.join(', ')}`, params);
}

// ---- 1. batched append ----------------------------------------------------------------------

export interface RateFigure {
  events: number;
  ms: number;
  eventsPerSec: number;
  perCall: LatencySummary;
}

export interface AppendMeasure {
  batchEvents: number;
  rounds: number;
  streamsPerBatch: number;
  avgPayloadBytes: number;
  factledger: RateFigure;
  floorJsonb: RateFigure;
  floorValues: RateFigure;
  floor: RateFigure & { method: string };
  /** floor rate / factledger rate: how many times slower than the floor. */
  ratio: number;
  profile: ProfileReport;
}

const rate = (events: number, samples: number[]): RateFigure => {
  const ms = samples.reduce((a, x) => a + x, 0);
  return { events, ms: round(ms), eventsPerSec: Math.round((events / ms) * 1000), perCall: summarize(samples) };
};

export async function measureAppend(b: Bench): Promise<AppendMeasure> {
  const { appendBatch, appendWarmup, appendRounds, changeShare } = b.sizes;
  const fl: number[] = [];
  const fa: number[] = [];
  const fb: number[] = [];
  let streams = 0;
  let events = 0;
  const bytesBefore = b.workload.counts.payloadBytes;
  const eventsBefore = b.workload.counts.events;
  let measuredStart = 0n;
  let rounds = 0;
  for (let round = 0; round < appendWarmup + appendRounds; round++) {
    if (round === appendWarmup) {
      // Statistics for the tables the warm-up started, as autovacuum gives them within a minute:
      // each connection caches a generic plan per statement of fl_append, and one planned over
      // empty tables hashes the tenant's whole stream table on every append until the next
      // ANALYZE replaces it (16k → 21k events/s when measured alone).
      await raw(b, 'ANALYZE');
      measuredStart = tick();
    }
    if (rounds >= b.sizes.minSamples.append && msSince(measuredStart) > b.sizes.budgetMs.append) break;
    const appends = b.workload.batch(appendBatch, changeShare);
    const ctx = appendContext(b);
    const rows = rowsOf(ctx, appends);
    const measured = round >= appendWarmup;
    // Rotate the order so that none of the three always runs right after another's commit.
    const steps: (() => Promise<void>)[] = [
      async () => {
        const t0 = tick();
        await b.handle.store.append(ctx, appends);
        if (measured) fl.push(msSince(t0));
      },
      async () => {
        const t0 = tick();
        await floorJsonb(b, rows);
        if (measured) fa.push(msSince(t0));
      },
      async () => {
        const t0 = tick();
        await floorValues(b, rows);
        if (measured) fb.push(msSince(t0));
      },
    ];
    for (let i = 0; i < steps.length; i++) await steps[(round + i) % steps.length]!();
    if (measured) {
      streams += appends.length;
      events += rows.length;
      rounds++;
    }
  }
  const avgPayloadBytes = Math.round((b.workload.counts.payloadBytes - bytesBefore) / (b.workload.counts.events - eventsBefore));

  // Breakdown pass (not part of the figures): a few more batches with the query profiler on.
  const profiler = new QueryProfiler();
  profiler.start();
  const profileBatches = Math.max(3, Math.round(b.sizes.profileUnits / 20));
  for (let i = 0; i < profileBatches; i++) {
    await b.handle.store.append(appendContext(b), b.workload.batch(appendBatch, changeShare));
  }
  const profile = profiler.stop(profileBatches);

  const factledger = rate(events, fl);
  const floorJsonbFig = rate(events, fa);
  const floorValuesFig = rate(events, fb);
  const floor = floorJsonbFig.eventsPerSec >= floorValuesFig.eventsPerSec ? { ...floorJsonbFig, method: 'jsonb_to_recordset' } : { ...floorValuesFig, method: 'INSERT … VALUES' };
  return {
    batchEvents: appendBatch,
    rounds,
    streamsPerBatch: Math.round(streams / rounds),
    avgPayloadBytes,
    factledger,
    floorJsonb: floorJsonbFig,
    floorValues: floorValuesFig,
    floor,
    ratio: round(floor.eventsPerSec / factledger.eventsPerSec, 2),
    profile,
  };
}

// ---- fill up to the dataset of measures 3 and 4 -------------------------------------------------

export interface FillReport extends Omit<WorkloadCounts, 'payloadBytes'> {
  facts: number;
  avgPayloadBytes: number;
  fillMs: number;
  fillEventsPerSec: number;
}

export async function fill(b: Bench): Promise<FillReport> {
  const t0 = tick();
  const before = b.workload.counts.events;
  let lastLog = Date.now();
  const facts = (): number => b.workload.counts.created + b.workload.counts.superseded + b.workload.counts.setMembers;
  while (facts() < b.sizes.facts) {
    await b.handle.store.append(appendContext(b), b.workload.batch(b.sizes.fillBatch, b.sizes.changeShare));
    if (Date.now() - lastLog > 10_000) {
      lastLog = Date.now();
      b.log(`  fill: ${b.workload.counts.keys.toLocaleString('en-US')} keys, ${b.workload.counts.events.toLocaleString('en-US')} events`);
    }
  }
  const fillMs = msSince(t0);
  await raw(b, 'ANALYZE');
  const c = b.workload.counts;
  return {
    facts: facts(),
    keys: c.keys,
    asserts: c.asserts,
    created: c.created,
    superseded: c.superseded,
    setMembers: c.setMembers,
    events: c.events,
    avgPayloadBytes: Math.round(c.payloadBytes / c.events),
    fillMs: Math.round(fillMs),
    fillEventsPerSec: Math.round(((c.events - before) / fillMs) * 1000),
  };
}

/**
 * Which pass a call of a latency measure belongs to: the warm-up (recorded apart, reported as the
 * cold window), the measured pass, or the profiled pass after it (not recorded).
 */
export type Phase = 'warmup' | 'measured' | 'profile';

/** Where a latency sample goes in each phase: the warm-up's and the measured pass's own lists. */
export class Samples {
  readonly warmup: number[] = [];
  readonly measured: number[] = [];
  add(phase: Phase, ms: number): void {
    if (phase !== 'profile') this[phase].push(ms);
  }
}

/**
 * Runs a latency measure beside its floor: warm-up, then target and floor alternately (the order
 * flips each round, so neither always follows the other's commit) until both the minimum sample
 * count and the time budget are reached; then a separate profiled pass of the target.
 */
async function alternate(
  b: Bench,
  o: {
    warmup: number;
    total: number;
    minSamples: number;
    budgetMs: number;
    samples: Samples;
    one(phase: Phase): Promise<void>;
    floor(phase: Phase): Promise<void>;
  },
): Promise<ProfileReport> {
  let started = 0n;
  for (let i = 0; i < o.total; i++) {
    const phase: Phase = i >= o.warmup ? 'measured' : 'warmup';
    if (i === o.warmup) started = tick();
    if (o.samples.measured.length >= o.minSamples && msSince(started) > o.budgetMs) break;
    if (i % 2) {
      await o.one(phase);
      await o.floor(phase);
    } else {
      await o.floor(phase);
      await o.one(phase);
    }
  }
  const profiler = new QueryProfiler();
  profiler.start();
  for (let i = 0; i < b.sizes.profileUnits; i++) await o.one('profile');
  return profiler.stop(b.sizes.profileUnits);
}

// ---- 3. projection rebuild -----------------------------------------------------------------------

export interface RebuildMeasure {
  events: number;
  runs: { ms: number; reportedMs: number; eventsPerSec: number; profiled: boolean }[];
  factledger: { ms: number; eventsPerSec: number };
  floor: { ms: number; eventsPerSec: number; method: string };
  ratio: number;
  check: { memories: number; expectedMemories: number; historyRows: number; openHistoryRows: number };
  profile: ProfileReport;
}

/**
 * Floor: page through the whole log by primary key (1000 per page, the runner's page size) and
 * copy each page into an unindexed table, in one transaction: the raw cost of reading the log
 * once and writing one row per event. Written out here rather than taken from the store, so the
 * floor stays a floor whatever the store's reading order costs.
 */
async function rebuildFloor(b: Bench): Promise<{ ms: number; events: number }> {
  const t0 = tick();
  const events = await b.database.db.transaction().execute(async (trx) => {
    await sql`TRUNCATE bench_floor_projection`.execute(trx);
    let after = 0;
    let count = 0;
    for (;;) {
      const result = await sql<{ global_position: number; stream_id: string; stream_version: number; type: string; data: unknown }>`
        SELECT e.global_position, e.stream_id, e.stream_version, e.type, e.data
        FROM fl_events e WHERE e.global_position > ${after}::bigint
        ORDER BY e.global_position LIMIT 1000`.execute(trx);
      const page = result.rows;
      if (page.length === 0) break;
      const rows = page.map((e) => ({ stream_id: e.stream_id, stream_version: e.stream_version, type: e.type, data: e.data }));
      await sql`
        INSERT INTO bench_floor_projection (stream_id, stream_version, type, data)
        SELECT stream_id, stream_version, type, data FROM jsonb_to_recordset(${JSON.stringify(rows)}::jsonb)
          AS r(stream_id text, stream_version int, type text, data jsonb)`.execute(trx);
      after = Number(page[page.length - 1]!.global_position);
      count += page.length;
    }
    return count;
  });
  return { ms: msSince(t0), events };
}

export async function measureRebuild(b: Bench): Promise<RebuildMeasure> {
  const runs: RebuildMeasure['runs'] = [];
  let profile: ProfileReport | null = null;
  let events = 0;
  const floorRuns: number[] = [];
  for (let i = 0; i < b.sizes.rebuildRuns; i++) {
    // Keep the whole bench inside its time budget: a very slow first run is not repeated.
    if (i > 0 && runs[0]!.ms > b.sizes.rebuildRepeatBelowMs) {
      runs[0]!.profiled = false;
      b.log(`  rebuild: first run over ${b.sizes.rebuildRepeatBelowMs / 1000} s, not repeated; its figure is reported (profiler was on)`);
      break;
    }
    // The first run doubles as warm-up and as the profiled breakdown pass.
    const profiled = i === 0 && b.sizes.rebuildRuns > 1;
    const profiler = new QueryProfiler();
    if (profiled) profiler.start();
    const t0 = tick();
    const r = await b.handle.runner.rebuild('facts');
    const ms = msSince(t0);
    if (profiled) profile = profiler.stop(r.events / 1000);
    events = r.events;
    runs.push({ ms: Math.round(ms), reportedMs: r.ms, eventsPerSec: Math.round((r.events / ms) * 1000), profiled });
    b.log(`  rebuild run ${i + 1}: ${r.events} events in ${Math.round(ms)} ms${profiled ? ' (warm-up, profiled)' : ''}`);
    const f = await rebuildFloor(b);
    floorRuns.push(f.ms);
  }
  if (!profile) {
    const profiler = new QueryProfiler();
    profiler.start();
    const r = await b.handle.runner.rebuild('facts');
    profile = profiler.stop(r.events / 1000);
  }
  await raw(b, 'ANALYZE');
  const measured = runs.filter((r) => !r.profiled);
  const best = measured.reduce((a, r) => (r.ms < a.ms ? r : a), measured[0]!);
  const floorMs = Math.min(...floorRuns);
  const counts = (
    await sql<{ memories: number; history: number; open: number }>`
    SELECT (SELECT count(*) FROM fl_memories)::int AS memories, (SELECT count(*) FROM fl_fact_history)::int AS history,
           (SELECT count(*) FROM fl_fact_history WHERE upper_inf(tx))::int AS open`.execute(b.database.db)
  ).rows[0]!;
  const c = b.workload.counts;
  return {
    events,
    runs,
    factledger: { ms: best.ms, eventsPerSec: best.eventsPerSec },
    floor: {
      ms: Math.round(floorMs),
      eventsPerSec: Math.round((events / floorMs) * 1000),
      method: 'page the log by primary key (1000/page) + jsonb_to_recordset copy into an unindexed table, one transaction',
    },
    ratio: round(events / floorMs / (events / best.ms), 2),
    check: { memories: counts.memories, expectedMemories: c.created + c.superseded + c.setMembers, historyRows: counts.history, openHistoryRows: counts.open },
    profile,
  };
}

// ---- 4. as-of fact read --------------------------------------------------------------------------

export interface LatencyMeasure {
  n: number;
  factledger: LatencySummary;
  floor: LatencySummary;
  /**
   * The warm-up's own figures, target and floor: the cold window, while V8 still compiles the
   * paths (not the steady state the targets are about; reported so that it is not hidden).
   */
  warmup: { factledger: LatencySummary; floor: LatencySummary };
  floorMethod: string;
  /** factledger p99 / floor p99 */
  ratioP99: number;
  ratioP50: number;
  profile: ProfileReport;
  [extra: string]: unknown;
}

/** A latency measure's figures from its samples and its floor's: the measured pass, and the warm-up apart. */
function latencyFigures(fl: Samples, fp: Samples): Pick<LatencyMeasure, 'n' | 'factledger' | 'floor' | 'warmup' | 'ratioP99' | 'ratioP50'> {
  const factledger = summarize(fl.measured);
  const floor = summarize(fp.measured);
  return {
    n: fl.measured.length,
    factledger,
    floor,
    warmup: { factledger: summarize(fl.warmup), floor: summarize(fp.warmup) },
    ratioP99: round(factledger.p99 / floor.p99, 2),
    ratioP50: round(factledger.p50 / floor.p50, 2),
  };
}

export async function measureReads(b: Bench): Promise<LatencyMeasure> {
  const rng = b.workload.random;
  const keys = b.workload.keys.filter((k) => k.version >= 0);
  const validSpan = 9 * 365 * 86_400_000;
  const knownStart = b.simStart;
  const knownSpan = b.clock.now().getTime() - knownStart;
  const fl = new Samples();
  const fp = new Samples();
  let hits = 0;
  let multi = 0;
  const total = b.sizes.readWarmup + b.sizes.reads;
  const one = async (phase: Phase): Promise<void> => {
    const key = keys[rng.int(keys.length)]!;
    const validAt = new Date(VALID_BASE + rng.int(validSpan)).toISOString();
    const knownAt = new Date(knownStart + rng.int(knownSpan)).toISOString();
    const t0 = tick();
    const view = await b.handle.ledger.fact(b.tenant, { subject: key.subject, relation: key.relation.name, validAt, knownAt });
    fl.add(phase, msSince(t0));
    if (phase === 'measured') {
      if (view.values.length) hits++;
      if (view.values.length > 1) multi++;
    }
  };
  const floor = async (phase: Phase): Promise<void> => {
    const key = keys[rng.int(keys.length)]!;
    const t0 = tick();
    await raw(b, 'SELECT * FROM fl_memories WHERE tenant = $1 AND memory_id = $2', [b.tenant, key.firstMemoryId]);
    fp.add(phase, msSince(t0));
  };
  const profile = await alternate(b, {
    warmup: b.sizes.readWarmup,
    total,
    minSamples: b.sizes.minSamples.reads,
    budgetMs: b.sizes.budgetMs.reads,
    samples: fl,
    one,
    floor,
  });
  const db = (
    await sql<{ memories: number; history: number; keys: number }>`
    SELECT (SELECT count(*) FROM fl_memories)::int AS memories, (SELECT count(*) FROM fl_fact_history)::int AS history,
           (SELECT count(DISTINCT stream_id) FROM fl_memories)::int AS keys`.execute(b.database.db)
  ).rows[0]!;
  return {
    ...latencyFigures(fl, fp),
    floorMethod: 'SELECT * FROM fl_memories WHERE (tenant, memory_id) = primary key',
    hitRate: round(hits / fl.measured.length, 3),
    setReads: multi,
    database: db,
    profile,
  };
}

// ---- 2. one assert end to end --------------------------------------------------------------------

/** An assert measure's rounds: the asserts' warm-up, sample count and time box. */
function assertRounds(b: Bench, samples: Samples, one: (phase: Phase) => Promise<void>, floor: (phase: Phase) => Promise<void>): Promise<ProfileReport> {
  const { assertWarmup, asserts, minSamples, budgetMs } = b.sizes;
  return alternate(b, { warmup: assertWarmup, total: assertWarmup + asserts, minSamples: minSamples.asserts, budgetMs: budgetMs.asserts, samples, one, floor });
}

export async function measureAsserts(b: Bench): Promise<LatencyMeasure> {
  const fl = new Samples();
  const fp = new Samples();
  const outcomes: Record<string, number> = {};
  let notProjected = 0;
  const { ledger } = b.handle;
  // The ledger's clock: transaction time keeps moving after the bulk-loaded part.
  const one = async (phase: Phase): Promise<void> => {
    const p = b.workload.plan(0.3);
    const input = b.workload.ledgerInput(p);
    b.clock.advance(1000);
    const t0 = tick();
    const result = await ledger.assert(b.tenant, input);
    fl.add(phase, msSince(t0));
    b.workload.noteAsserted(p);
    if (phase === 'measured') {
      outcomes[result.outcome] = (outcomes[result.outcome] ?? 0) + 1;
      // Outside the timing: had the projection applied this very event when assert returned?
      const cp = (await sql<{ prepare: number }>`SELECT prepare FROM fl_checkpoints WHERE name = 'facts'`.execute(b.database.db)).rows[0];
      if (!cp || Number(cp.prepare) < result.position) notProjected++;
    }
  };
  const keys = b.workload.keys;
  const floor = async (phase: Phase): Promise<void> => {
    const key = keys[b.workload.random.int(keys.length)]!;
    const t0 = tick();
    await raw(b, 'SELECT version FROM fl_streams WHERE tenant = $1 AND stream_id = $2', [b.tenant, key.streamId]);
    await raw(b, `INSERT INTO bench_floor_events (${FLOOR_COLUMNS}) VALUES ($1, $2, 0, $3::uuid, 'FactAsserted', $4::jsonb, NULL, NULL, NULL, NULL, $5::timestamptz)`, [
      b.tenant,
      key.streamId,
      randomUUID(),
      JSON.stringify({ memoryId: randomUUID(), subject: key.subject, relation: key.relation.name, value: key.lastValue }),
      b.clock.now().toISOString(),
    ]);
    fp.add(phase, msSince(t0));
  };
  const profile = await assertRounds(b, fl, one, floor);
  return {
    ...latencyFigures(fl, fp),
    floorMethod: 'primary-key SELECT on fl_streams + single-row INSERT (autocommit) into an unindexed table',
    outcomes,
    /** Asserts that returned before the fact projection had applied their own event. */
    notProjectedOnReturn: notProjected,
    profile,
  };
}

// ---- 2b. a prose assert, with and without frame alignment ----------------------------------------

/** Statements of a few shapes, about generated things, with values drawn anew: four shapes hold one value, so most measured statements restate one already stored. */
const PROSE_FRAMES: ((thing: number, value: number) => string)[] = [
  (t, v) => `The service svc-${t} runs on host-${v}.internal.`,
  (t, v) => `The owner of repository repo-${t} is person ${v}.`,
  (t, v) => `The team ${t} sits on floor ${v}.`,
  (t, v) => `Person ${t} speaks language ${v}.`,
  (t, v) => `The quota of bucket b${t} is ${v} GB.`,
];

export interface ProseAssertMeasure extends LatencyMeasure {
  /** What the aligned path's statements did to earlier ones, counted over the measured pass. */
  restated: Record<string, number>;
  /** Statements stored in each tenant before the measure. */
  stored: number;
}

/**
 * A prose assert end to end with frame alignment (the ledger as configured) beside the same
 * assert on a ledger with alignment off, alternately, each in a tenant of its own filled with the
 * same statements. The "floor" here is the path without alignment: the ratio is what alignment
 * costs (its look-up of earlier statements and the retirements it appends).
 */
export async function measureProseAsserts(b: Bench, plain: LedgerHandle, stored: number): Promise<ProseAssertMeasure> {
  const rng = b.workload.random;
  const [aligned, without] = [`${b.tenant}-prose`, `${b.tenant}-prose-plain`];
  const things = Math.max(10, Math.round(stored / PROSE_FRAMES.length));
  const statement = (): string => PROSE_FRAMES[rng.int(PROSE_FRAMES.length)]!(rng.int(things), rng.int(1000));
  for (let done = 0; done < stored; done += 500) {
    const texts = Array.from({ length: Math.min(500, stored - done) }, statement);
    b.clock.advance(1000);
    await b.handle.ledger.writeMany(
      aligned,
      texts.map((text) => ({ assert: { text, speaker: 'document' } })),
    );
    await plain.ledger.writeMany(
      without,
      texts.map((text) => ({ assert: { text, speaker: 'document' } })),
    );
  }
  // Steady state, as before the other latency measures: the tables the fill grew vacuumed and analyzed
  // (a word index fresh from thousands of inserts and retirements is several times slower to scan
  // until then; autovacuum, or the statistics job on PGlite, gets there within a minute), and the
  // fill's WAL checkpointed, so that writing it out does not land in the middle of the measure.
  await sql`VACUUM (ANALYZE)`.execute(b.database.db);
  if (b.backend === 'postgres') await sql`CHECKPOINT`.execute(b.database.db);
  const fl = new Samples();
  const fp = new Samples();
  const restated: Record<string, number> = {};
  // Each side draws its own statements from the same shapes and things.
  const one = async (phase: Phase): Promise<void> => {
    b.clock.advance(1000);
    const text = statement();
    const t0 = tick();
    const result = await b.handle.ledger.assert(aligned, { text, speaker: 'document' });
    fl.add(phase, msSince(t0));
    if (phase === 'measured') for (const d of result.restated ?? []) restated[d.effect] = (restated[d.effect] ?? 0) + 1;
  };
  const floor = async (phase: Phase): Promise<void> => {
    const text = statement();
    const t0 = tick();
    await plain.ledger.assert(without, { text, speaker: 'document' });
    fp.add(phase, msSince(t0));
  };
  const profile = await assertRounds(b, fl, one, floor);
  return {
    ...latencyFigures(fl, fp),
    floorMethod: 'the same prose assert on a ledger with frame alignment off (FACTLEDGER_RESTATEMENT=off), in a tenant filled alike',
    restated,
    stored,
    profile,
  };
}
