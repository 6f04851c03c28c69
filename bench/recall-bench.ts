/**
 * The recall benchmark (`npm run bench:recall`), on native PostgreSQL: 100,000 current facts of
 * look-alike text (facts that differ only in a name and a number), a tenth of them superseded by a
 * newer value, embedded with the real offline model.
 *
 * - retrieval + assembly without the query's embedding, beside its floor: the same nearest-
 *   neighbour, BM25 (with its neighbour lookups) and trigram queries issued directly, back to back,
 *   on the same tables and the same search connections (Database.search: prepared, planned once)
 *   (trigrams under recall's own rule: only when BM25 found nothing or a word is not Latin);
 * - end to end with the query's embedding;
 * - the share of probes whose fact reaches the context (and how often a superseded value does);
 * - indexing throughput, and index lag under a steady write load;
 * - memory of this process, which holds what a server holds (ledger, recall, model).
 *
 * Embeddings of the dataset are cached in a persistent database (factledger_bench_cache, made on
 * first use), so only the first run pays for embedding 100,000 texts (~18–22 min here); the
 * throughput measure always embeds texts never seen before.
 *
 *   FL_PG_ADMIN_URL=postgres://postgres@127.0.0.1:5432/postgres npm run bench:recall
 *   FL_RECALL_BENCH_FACTS=10000 npm run bench:recall     smaller dataset (figures not comparable)
 */
import { randomUUID } from 'node:crypto';
import { mkdirSync, writeFileSync } from 'node:fs';
import { cpus, loadavg, totalmem } from 'node:os';
import { join } from 'node:path';
import { type AssertMemory, decide, evolve, factStreamId, initialState, ManualClock, type StreamState } from '@factledger/domain';
import { CachedEmbedder, type Embedder, type Embedding, PostgresEmbeddingCache, toVectorBinary, UseLiteEmbedder } from '@factledger/embeddings';
import { ledgerOn } from '@factledger/ledger';
import { cleanQuery, needsTrigrams, Recall, type RecallSettings, recallOn, O200kTokenCounter, trigramWords } from '@factledger/recall';
import { migrate, openDatabase, type StreamAppend } from '@factledger/store';
import { createTestDatabase } from '@factledger/testing';
import { sql } from 'kysely';
import { Client } from 'pg';
import { fmtInt, fmtMs, msSince, Rng, round, summarize, tick } from './stats';

process.env.FL_PG_ADMIN_URL ??= 'postgres://postgres@127.0.0.1:5432/postgres';
const ADMIN_URL = process.env.FL_PG_ADMIN_URL;
const FACTS = Number(process.env.FL_RECALL_BENCH_FACTS ?? 100_000);
const PROBES = 1000;
const E2E_PROBES = 100;
const TENANT = 'bench';
const log = (m: string): void => void process.stderr.write(`${m}\n`);

const FIRST = [
  'Minji',
  'Jisoo',
  'Hana',
  'Seojun',
  'Ana',
  'Bruno',
  'Carla',
  'Diego',
  'Elena',
  'Farid',
  'Greta',
  'Hugo',
  'Ines',
  'Jonas',
  'Kenji',
  'Lena',
  'Marta',
  'Nils',
  'Olga',
  'Pablo',
  'Quinn',
  'Rosa',
  'Sven',
  'Tomas',
  'Uma',
  'Vera',
  'Wei',
  'Xavier',
  'Yara',
  'Zoe',
];
const LAST = ['Kim', 'Lee', 'Park', 'Choi', 'Silva', 'Costa', 'Weber', 'Novak', 'Rossi', 'Garcia', 'Muller', 'Dubois', 'Tanaka', 'Ivanova', 'Jensen', 'Smith', 'Nowak', 'Horvat', 'Moreau', 'Santos'];
const SERVICES = ['payment', 'billing', 'search', 'checkout', 'auth', 'ledger', 'catalog', 'shipping', 'invoice', 'profile'];

interface Template {
  relation: string;
  subject(rng: Rng): string;
  value(rng: Rng): string;
  text(subject: string, value: string): string;
  question(subject: string): string;
}

const person = (rng: Rng): string => `${rng.pick(FIRST)} ${rng.pick(LAST)} ${100 + rng.int(900)}`;
const TEMPLATES: Template[] = [
  { relation: 'locker number', subject: person, value: (r) => String(1000 + r.int(9000)), text: (s, v) => `${s}'s locker number is ${v}.`, question: (s) => `What is ${s}'s locker number?` },
  {
    relation: 'phone extension',
    subject: person,
    value: (r) => String(200 + r.int(800)),
    text: (s, v) => `The phone extension of ${s} is ${v}.`,
    question: (s) => `Which phone extension does ${s} have?`,
  },
  { relation: 'desk', subject: person, value: (r) => `${1 + r.int(12)}-${10 + r.int(90)}`, text: (s, v) => `${s} sits at desk ${v}.`, question: (s) => `Where does ${s} sit?` },
  {
    relation: 'listens on port',
    subject: (r) => `${r.pick(SERVICES)} service ${100 + r.int(900)}`,
    value: (r) => String(3000 + r.int(6000)),
    text: (s, v) => `The ${s} listens on port ${v}.`,
    question: (s) => `Which port does the ${s} listen on?`,
  },
  {
    relation: 'runs on host',
    subject: (r) => `${r.pick(SERVICES)} database ${100 + r.int(900)}`,
    value: (r) => `db-${String(r.int(100)).padStart(2, '0')}.internal`,
    text: (s, v) => `The ${s} runs on host ${v}.`,
    question: (s) => `Which host does the ${s} run on?`,
  },
];

interface Key {
  template: Template;
  subject: string;
  streamId: string;
  version: number;
  state: StreamState;
  value: string;
  text: string;
  superseded: string[];
}

/** Facts through the domain decider, appended in batches (what the ledger itself would append). */
async function load(handle: ReturnType<typeof ledgerOn>, rng: Rng, facts: number): Promise<Key[]> {
  const keys: Key[] = [];
  const seen = new Set<string>();
  let pending: StreamAppend[] = [];
  const recordedAt = new Date('2026-06-01T00:00:00Z');
  const flush = async (): Promise<void> => {
    if (!pending.length) return;
    await handle.store.append({ tenant: TENANT, commandId: null, causationId: null, correlationId: null, batch: null, recordedAt }, pending);
    pending = [];
  };
  const assert = (key: Key, value: string, validFrom: Date): void => {
    const text = key.template.text(key.subject, value);
    const command: AssertMemory = {
      kind: 'AssertMemory',
      memoryId: randomUUID(),
      memoryKind: 'fact',
      subject: key.subject,
      relation: key.template.relation,
      scope: {},
      value,
      text,
      type: 'fact',
      speaker: 'user',
      source: 'bench',
      authority: 0,
      cardinality: 'one',
      core: false,
      validFrom,
      validTo: null,
      mode: 'update',
    };
    const decision = decide(command, key.state);
    for (const event of decision.events) evolve(key.state, { eventId: '', batch: null, event });
    key.state.log = null;
    pending.push({ streamId: key.streamId, expectedVersion: key.version < 0 ? 'no-stream' : key.version, events: decision.events.map((e) => ({ eventId: randomUUID(), type: e.type, data: e.data })) });
    key.version += decision.events.length;
    if (key.value) key.superseded.push(key.value);
    key.value = value;
    key.text = text;
  };
  while (keys.length < facts) {
    const template = rng.pick(TEMPLATES);
    const subject = template.subject(rng);
    if (seen.has(`${template.relation}|${subject}`)) continue;
    seen.add(`${template.relation}|${subject}`);
    const key: Key = { template, subject, streamId: factStreamId({ subject, relation: template.relation, scope: {} }), version: -1, state: initialState(), value: '', text: '', superseded: [] };
    keys.push(key);
    assert(key, template.value(rng), new Date('2025-01-01T00:00:00Z'));
    if (pending.length >= 1000) await flush();
  }
  await flush();
  // A tenth get a newer value: the old one stays on record, retired.
  for (const key of keys) {
    if (!rng.chance(0.1)) continue;
    let value = key.template.value(rng);
    while (value === key.value) value = key.template.value(rng);
    assert(key, value, new Date('2026-01-01T00:00:00Z'));
    if (pending.length >= 1000) await flush();
  }
  await flush();
  await handle.runner.catchUp();
  return keys;
}

/** Answers `embed` from precomputed vectors: assembly timed without the query's embedding. */
class PrecomputedEmbedder implements Embedder {
  constructor(
    private readonly inner: Embedder,
    private readonly vectors: Map<string, Embedding>,
  ) {}
  get model(): string {
    return this.inner.model;
  }
  get dimensions(): number {
    return this.inner.dimensions;
  }
  async embed(texts: string[]): Promise<Embedding[]> {
    const missing = texts.filter((t) => !this.vectors.has(t));
    if (missing.length) (await this.inner.embed(missing)).forEach((v, i) => this.vectors.set(missing[i]!, v));
    return texts.map((t) => this.vectors.get(t)!);
  }
}

async function persistentCache(): Promise<{ embedder: Embedder; close(): Promise<void> }> {
  const admin = new Client({ connectionString: ADMIN_URL });
  await admin.connect();
  const exists = await admin.query(`SELECT 1 FROM pg_database WHERE datname = 'factledger_bench_cache'`);
  if (!exists.rowCount) await admin.query('CREATE DATABASE factledger_bench_cache');
  await admin.end();
  const url = new URL(ADMIN_URL);
  url.pathname = '/factledger_bench_cache';
  const db = await openDatabase({ url: url.toString() });
  await migrate(db.db);
  return { embedder: new CachedEmbedder(new UseLiteEmbedder({ maxBatchSize: 256, backgroundChunk: 256 }), new PostgresEmbeddingCache(db.db)), close: () => db.close() };
}

async function main(): Promise<void> {
  const started = tick();
  const rng = new Rng(7);
  const cache = await persistentCache();
  const database = await createTestDatabase('postgres');
  try {
    const clock = new ManualClock(new Date('2026-07-01T00:00:00Z'));
    const handle = ledgerOn(database, { clock });
    const settings: RecallSettings = { embeddings: 'use-lite', addressTerms: [], traceRetentionDays: 30, indexIntervalMs: 200 };
    const recall = recallOn(database, handle.runner, clock, settings, cache.embedder);

    log(`[recall] loading ${fmtInt(FACTS)} look-alike facts`);
    let t0 = tick();
    const keys = await load(handle, rng, FACTS);
    const superseded = keys.filter((k) => k.superseded.length).length;
    log(`  ${fmtInt(keys.length)} keys, ${fmtInt(superseded)} superseded, in ${fmtInt(msSince(t0))} ms`);

    log('[recall] indexing the dataset (embeddings from the persistent cache where present)');
    t0 = tick();
    let lastLog = Date.now();
    const timer = setInterval(() => {
      if (Date.now() - lastLog > 30_000) {
        lastLog = Date.now();
        void recall.indexer.lag().then((l) => log(`  … ${fmtInt(l.behindEvents)} events still to index`));
      }
    }, 5000);
    await recall.indexer.catchUp();
    clearInterval(timer);
    const fillIndexMs = msSince(t0);
    await sql`ANALYZE`.execute(database.db);
    log(`  indexed in ${fmtInt(fillIndexMs)} ms`);

    // 1. Indexing throughput on texts never embedded before.
    const fresh = 1000;
    const nonce = randomUUID().slice(0, 8);
    for (let i = 0; i < fresh; i++) {
      await handle.ledger.assert(TENANT, { subject: `visitor ${nonce}-${i}`, relation: 'badge', value: String(i), text: `Visitor ${nonce}-${i} carries badge number ${i * 7 + 13}.` });
    }
    t0 = tick();
    const embedded = await recall.indexer.catchUp();
    const indexMs = msSince(t0);
    const indexing = { facts: embedded, ms: Math.round(indexMs), factsPerSec: Math.round((embedded / indexMs) * 1000) };
    log(`[recall] indexing throughput: ${fmtInt(indexing.factsPerSec)} facts/s (${embedded} new texts)`);

    // 2. Index lag under a steady write load (background indexer, one assert every 100 ms for 30 s).
    recall.start((e) => log(`indexer error: ${String(e)}`));
    const lagSamples: { events: number; ms: number }[] = [];
    const loadStart = Date.now();
    let writes = 0;
    while (Date.now() - loadStart < 30_000) {
      clock.set(new Date()); // real time here, so that lag in ms means something
      await handle.ledger.assert(TENANT, { subject: `courier ${nonce}-${writes}`, relation: 'route', value: String(writes), text: `Courier ${nonce}-${writes} drives route ${writes % 50} today.` });
      writes++;
      if (writes % 5 === 0) {
        const l = await recall.indexer.lag(new Date());
        lagSamples.push({ events: l.behindEvents, ms: l.lagMs });
      }
      await new Promise((r) => setTimeout(r, 100));
    }
    await recall.stop();
    const lag = {
      writesPerSec: round(writes / 30, 1),
      behindEvents: summarize(lagSamples.map((s) => s.events)),
      lagMs: summarize(lagSamples.map((s) => s.ms)),
    };
    log(`[recall] lag under ${lag.writesPerSec} writes/s: p50 ${lag.behindEvents.p50} events / ${fmtInt(lag.lagMs.p50)} ms, max ${lag.behindEvents.max} events / ${fmtInt(lag.lagMs.max)} ms`);
    await recall.indexer.catchUp();
    // Steady state before timing, for factledger and its floor alike: the tables just loaded are
    // vacuumed and analyzed, and the WAL they wrote is checkpointed, so that neither autovacuum
    // (which a load of 100k rows sets off) nor a checkpoint lands in the middle of the probes.
    await sql`VACUUM (ANALYZE)`.execute(database.db);
    await sql`CHECKPOINT`.execute(database.db);

    // 3. Probes: a current fact's question; does its text reach the context?
    const probes = Array.from({ length: PROBES }, () => keys[rng.int(keys.length)]!);
    const questions = probes.map((k) => k.template.question(k.subject));
    const vectors = new Map<string, Embedding>();
    (await cache.embedder.embed(questions)).forEach((v, i) => vectors.set(questions[i]!, v));
    const timed = new Recall(database.db, {
      embedder: new PrecomputedEmbedder(recall.embedder, vectors),
      facts: handle.runner,
      indexer: recall.indexer,
      tokens: new O200kTokenCounter(),
      clock,
      search: database.search,
    });
    const dims = sql.raw(String(recall.embedder.dimensions));
    // The floor: the retrievers' statements as recall issues them (same stems and statistics, same
    // operators, same indexes, the query vector in the same binary form, each query built once per
    // statement, on the same prepared, planned-once search connections), without the visibility
    // filter, the scores a retriever does not rank by, the fusion or the trace. BM25 picks and ranks
    // its candidates as recall's does and looks up the neighbouring turns of its best prose finds
    // (the bench's facts are not prose, so that part finds nothing, as in recall); trigrams run
    // under recall's own rule (only when BM25 found nothing or a word is not Latin).
    const search = database.search;
    const model = recall.embedder.model;
    const lexical = { k1: 1.2, b: 0.75, scan: 400, keep: 20, neighbourOf: 20, gap: "interval '3600000 milliseconds'" };
    const terms = (question: string) => sql`
      WITH corpus AS (
        SELECT coalesce(max(c.docs), 0)::float8 AS docs, coalesce(max(c.stems)::float8 / nullif(max(c.docs), 0), 1) AS avglen
        FROM fl_recall_corpus c WHERE c.tenant = ${TENANT} AND c.model = ${model}),
      terms AS MATERIALIZED (
        SELECT x.lexeme AS stem, coalesce(s.docs, 0) AS docs, (chr(39) || replace(replace(x.lexeme, chr(92), chr(92) || chr(92)), chr(39), chr(39) || chr(39)) || chr(39)) AS lit,
          (chr(39) || replace(replace(x.lexeme, chr(92), chr(92) || chr(92)), chr(39), chr(39) || chr(39)) || chr(39))::tsquery AS q,
          ln(1 + (greatest((SELECT docs FROM corpus) + 10 - coalesce(s.docs, 0), 0) + 0.5) / (coalesce(s.docs, 0) + 0.5)) AS idf
        FROM unnest(to_tsvector('english', ${question})) x
        LEFT JOIN fl_recall_terms s ON s.tenant = ${TENANT} AND s.model = ${model} AND s.stem = x.lexeme)`;
    const bm25 = sql.raw(
      `(SELECT coalesce(sum(t.idf), 0) FROM terms t WHERE i.stems @@ t.q) * (${lexical.k1 + 1} / (1 + ${lexical.k1} * (1 - ${lexical.b} + ${lexical.b} * length(i.stems) / (SELECT avglen FROM corpus))))`,
    );
    const scan = sql.raw(String(lexical.scan));
    const floor = async (question: string, vector: Embedding): Promise<void> => {
      const q = toVectorBinary(vector);
      const words = cleanQuery(question);
      const trigramOf = (glue: string) =>
        words.distinctive.length
          ? sql.join(
              trigramWords(words.distinctive).map((t) => sql`${t} <% text`),
              sql.raw(` ${glue} `),
            )
          : sql`false`;
      const trigramAll = trigramOf('AND');
      const trigramAny = trigramOf('OR');
      // The nearest versions and the nearest passages (migration 020), in one statement as recall issues them.
      await sql`(SELECT memory_id FROM fl_recall_index WHERE dimensions = ${dims} ORDER BY embedding::vector(${dims}) <=> ${q}::vector(${dims}) LIMIT 40)
        UNION ALL (SELECT memory_id FROM fl_recall_passages WHERE dimensions = ${dims} ORDER BY embedding::vector(${dims}) <=> ${q}::vector(${dims}) LIMIT 40)`.execute(search);
      const worded = await sql`${terms(question)},
        found AS (
          SELECT memory_id, said_at, kind, rank FROM (
            SELECT i.memory_id, i.said_at, i.kind, ${bm25} AS rank FROM (
              SELECT i.memory_id, i.stems, i.said_at, i.kind FROM fl_recall_index i
              WHERE i.tenant = ${TENANT} AND i.model = ${model} AND i.stems @@ (SELECT CASE WHEN min(docs) <= ${scan}
                THEN (SELECT string_agg(lit, ' | ') FROM (SELECT lit, sum(docs) OVER w AS together, row_number() OVER w AS n FROM terms WHERE docs > 0 WINDOW w AS (ORDER BY docs, stem)) r
                      WHERE together <= ${scan} OR n = 1)
                ELSE string_agg(lit, ' & ') END::tsquery FROM terms WHERE docs > 0) LIMIT ${scan}) i) ranked
          ORDER BY rank DESC LIMIT ${sql.raw(String(lexical.keep))}),
        near AS (SELECT memory_id, said_at FROM found WHERE kind = 'prose' ORDER BY rank DESC LIMIT ${sql.raw(String(lexical.neighbourOf))})
        SELECT memory_id FROM found
        UNION ALL (SELECT n.memory_id FROM near f, LATERAL (SELECT i.memory_id FROM fl_recall_index i WHERE i.tenant = ${TENANT} AND i.model = ${model} AND i.kind = 'prose'
          AND (i.said_at, i.memory_id) < (f.said_at, f.memory_id) AND i.said_at >= f.said_at - ${sql.raw(lexical.gap)} ORDER BY i.said_at DESC, i.memory_id DESC LIMIT 1) n)
        UNION ALL (SELECT n.memory_id FROM near f, LATERAL (SELECT i.memory_id FROM fl_recall_index i WHERE i.tenant = ${TENANT} AND i.model = ${model} AND i.kind = 'prose'
          AND (i.said_at, i.memory_id) > (f.said_at, f.memory_id) AND i.said_at <= f.said_at + ${sql.raw(lexical.gap)} ORDER BY i.said_at ASC, i.memory_id ASC LIMIT 1) n)`.execute(search);
      // Trigrams as recall runs them: unless BM25 found something (and every word is Latin).
      if (worded.rows.length === 0 || words.distinctive.some(needsTrigrams)) {
        const all = await sql`SELECT memory_id FROM (SELECT memory_id, text FROM fl_recall_index WHERE ${trigramAll} LIMIT 400) hits
          ORDER BY word_similarity(${question}, text) DESC LIMIT 40`.execute(search);
        if (all.rows.length === 0) await sql`SELECT memory_id FROM fl_recall_index WHERE ${trigramAny} LIMIT 40`.execute(search);
      }
    };
    const assembly: number[] = [];
    const floorMs: number[] = [];
    const traceMs: number[] = [];
    let hits = 0;
    let staleShown = 0;
    const warm = 20;
    for (let i = 0; i < probes.length + warm; i++) {
      const k = probes[i % probes.length]!;
      const question = questions[i % probes.length]!;
      const measured = i >= warm;
      const one = async (): Promise<void> => {
        const t = tick();
        const context = await timed.assemble(TENANT, { query: question, budgetTokens: 400 });
        const answered = msSince(t);
        // The trace is written after the answer; it is waited for here, outside the figure, so
        // that its write never overlaps the next measure.
        const t2 = tick();
        await timed.traces.flush();
        if (!measured) return;
        assembly.push(answered);
        traceMs.push(msSince(t2));
        if (context.text.includes(k.text)) hits++;
        if (k.superseded.some((v) => context.text.includes(k.template.text(k.subject, v)))) staleShown++;
      };
      const raw = async (): Promise<void> => {
        const t = tick();
        await floor(question, vectors.get(question)!);
        if (measured) floorMs.push(msSince(t));
      };
      if (i % 2) {
        await one();
        await raw();
      } else {
        await raw();
        await one();
      }
    }
    const e2e: number[] = [];
    for (let i = 0; i < E2E_PROBES; i++) {
      const k = keys[rng.int(keys.length)]!;
      const question = `${k.template.question(k.subject)} (${randomUUID().slice(0, 4)})`; // never cached
      const t = tick();
      await recall.recall.assemble(TENANT, { query: question, budgetTokens: 400 });
      e2e.push(msSince(t));
    }
    const memory = process.memoryUsage();
    const result = {
      machine: { cpus: cpus().length, cpu: cpus()[0]?.model, memGiB: Math.round(totalmem() / 2 ** 30), node: process.version, nodeFlags: process.execArgv.join(' ') },
      server: (await sql<{ v: string }>`SELECT version() AS v`.execute(database.db)).rows[0]!.v.split(',')[0],
      dataset: { facts: keys.length, superseded, versions: keys.length + superseded, indexMs: Math.round(fillIndexMs) },
      assembly: summarize(assembly),
      floor: summarize(floorMs),
      traceWrite: summarize(traceMs),
      ratioP95: round(summarize(assembly).p95 / summarize(floorMs).p95, 2),
      endToEnd: summarize(e2e),
      probes: { n: assembly.length, hitRate: round(hits / assembly.length, 3), staleShown },
      indexing,
      lag,
      memoryMB: { rss: Math.round(memory.rss / 2 ** 20), heapUsed: Math.round(memory.heapUsed / 2 ** 20) },
      loadAverage: loadavg()[0],
      runtimeMs: Math.round(msSince(started)),
    };
    const a = result.assembly;
    const f = result.floor;
    const markdown = [
      `| measure | factledger | floor | ratio | target | met? |`,
      `|---|---|---|---|---|---|`,
      `| Retrieval + assembly without the query's embedding (${fmtInt(keys.length)} current facts), n=${a.n}, p50/p95/p99 | ${fmtMs(a.p50)} / ${fmtMs(a.p95)} / ${fmtMs(a.p99)} ms | ${fmtMs(f.p50)} / ${fmtMs(f.p95)} / ${fmtMs(f.p99)} ms (recall's raw queries, back to back) | ${result.ratioP95}× at p95 | p95 ≤ 25 ms, ≤ 2× floor | ${a.p95 <= 25 ? '✅' : '❌'} p95, ${result.ratioP95 <= 2 ? '✅' : '❌'} ratio |`,
      `| Trace write, after the answer (not in the figure above), p50/p95 | ${fmtMs(result.traceWrite.p50)} / ${fmtMs(result.traceWrite.p95)} ms | — | — | reported | — |`,
      `| End to end with the query's embedding, n=${result.endToEnd.n}, p50/p95 | ${fmtMs(result.endToEnd.p50)} / ${fmtMs(result.endToEnd.p95)} ms | — | — | reported | — |`,
      `| Right fact in the context among look-alikes, ${result.probes.n} probes | ${(result.probes.hitRate * 100).toFixed(1)}% (superseded value shown: ${staleShown}) | — | — | ≥ 95% | ${result.probes.hitRate >= 0.95 ? '✅' : '❌'} |`,
      `| Indexing throughput (real model, new texts) | ${fmtInt(indexing.factsPerSec)} facts/s | — | — | reported | — |`,
      `| Index lag at ${lag.writesPerSec} writes/s, p50 / max | ${lag.behindEvents.p50} / ${lag.behindEvents.max} events, ${fmtInt(lag.lagMs.p50)} / ${fmtInt(lag.lagMs.max)} ms | — | — | reported | — |`,
      `| Memory of the process at ${fmtInt(keys.length)} facts | RSS ${result.memoryMB.rss} MiB, heap ${result.memoryMB.heapUsed} MiB | — | — | reported | — |`,
    ].join('\n');
    const dir = join(__dirname, '..', '..', 'bench', 'results');
    mkdirSync(dir, { recursive: true });
    writeFileSync(join(dir, 'recall.json'), JSON.stringify({ ...result, markdown }, null, 2));
    console.log(markdown);
    log(`results: bench/results/recall.json; runtime ${fmtInt(result.runtimeMs / 1000)} s`);
  } finally {
    if (process.env.FL_RECALL_BENCH_KEEP) {
      log(`kept database ${database.name}`);
      process.exit(process.exitCode ?? 0);
    }
    await database.close();
    await cache.close();
  }
}

main().catch((error: unknown) => {
  console.error(error);
  process.exitCode = 1;
});
