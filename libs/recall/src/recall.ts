/**
 * Context assembly (R9–R13): what goes into this prompt, now, within this budget, and why.
 *
 * Stages, each recorded in the trace: query hygiene → candidate pool over the versions visible
 * at (validAt, knownAt) (quarantined, overruled, superseded and retracted versions never enter
 * it) with a score per retriever → relevance threshold → fusion (RRF) → diversity (MMR) →
 * channels (profile: core facts under their own cap; fresh: versions not embedded yet; detail)
 * → budget cut with a real tokenizer → rendered block.
 */
import { randomUUID } from 'node:crypto';
import { type Clock, InvalidInputError } from '@factledger/domain';
import { type Embedder, toVectorText } from '@factledger/embeddings';
import type { CheckpointLagRow, ProjectionRunner } from '@factledger/projections';
import { type Kysely, type RawBuilder, sql } from 'kysely';
import { z } from 'zod';
import { type ContextItem, fitBudget } from './context-render';
import { DEFAULT_THRESHOLDS, maximalMarginalRelevance, relevance, type Scored, type Thresholds, weightedReciprocalRankFusion } from './fusion';
import { cleanQuery, needsTrigrams } from './query-hygiene';
import { UnknownTraceError } from './errors';
import { type IndexLag, lagOf, RECALL_INDEX, type RecallIndexer } from './recall-indexer';
import type { TokenCounter } from './token-counter';
import { TraceWriter } from './trace-writer';

export const recallQuerySchema = z
  .object({
    query: z.string().trim().min(1, 'the latest user message is required').max(4000),
    budgetTokens: z.number().int().min(16).max(32_000).default(400),
    validAt: z.coerce.date().optional(),
    knownAt: z.coerce.date().optional(),
    minPosition: z.number().int().min(0).optional(),
  })
  .strict();

export interface RecallOptions {
  addressTerms?: string[];
  thresholds?: Thresholds;
  /** Share of the budget the profile channel may use. */
  profileShare?: number;
  /** Most versions the fresh channel injects. */
  freshLimit?: number;
  /** Candidates each retriever contributes per sub-query. */
  poolSize?: number;
  /** Most relevant versions that go on to diversity and the budget. */
  detailLimit?: number;
}

export interface RecalledItem extends ContextItem {
  scores: { cosine: number | null; textRank: number; trigram: number; fused: number | null };
}

export interface RecallResult {
  traceId: string;
  text: string;
  tokens: number;
  budgetTokens: number;
  items: RecalledItem[];
}

/** A version as shown: what it says, who said it, when it was recorded. */
interface Shown {
  memory_id: string;
  text: string;
  type: string;
  speaker: string;
  source: string | null;
  recorded_at: Date;
}

/**
 * A candidate as its retriever found it: its text, its three scores against one sub-query,
 * whether the index holds its embedding, and (found by the profile and fresh statement) whether
 * it is core and when it was recorded.
 */
interface Found {
  memory_id: string;
  text: string;
  embedded: boolean;
  cosine: number | null;
  text_rank: number;
  trigram: number;
  core: boolean;
  recorded_at: Date | null;
}

/** Each version once, with the best of each score it was found with (copies: the finds stay as found). */
function byBest(found: Iterable<Found>): Map<string, Found> {
  const out = new Map<string, Found>();
  for (const f of found) {
    const seen = out.get(f.memory_id);
    if (!seen) out.set(f.memory_id, { ...f });
    else {
      seen.cosine = f.cosine === null ? seen.cosine : Math.max(seen.cosine ?? -1, f.cosine);
      seen.text_rank = Math.max(seen.text_rank, f.text_rank);
      seen.trigram = Math.max(seen.trigram, f.trigram);
      seen.embedded ||= f.embedded;
      seen.core ||= f.core;
      seen.recorded_at ??= f.recorded_at;
    }
  }
  return out;
}

/** One key for a pair, whichever way round. */
const pairKey = (a: string, b: string): string => (a < b ? `${a}\u0000${b}` : `${b}\u0000${a}`);

export class Recall {
  private readonly thresholds: Thresholds;
  /** Where traces go once an assembly has answered. */
  readonly traces: TraceWriter;

  constructor(
    // eslint-disable-next-line @typescript-eslint/no-explicit-any
    private readonly db: Kysely<any>,
    private readonly deps: { embedder: Embedder; facts: ProjectionRunner; indexer: RecallIndexer; tokens: TokenCounter; clock: Clock; traces?: TraceWriter },
    private readonly options: RecallOptions = {},
  ) {
    this.thresholds = options.thresholds ?? DEFAULT_THRESHOLDS;
    this.traces = deps.traces ?? new TraceWriter(db);
  }

  async assemble(tenant: string, input: unknown): Promise<RecallResult> {
    const parsed = recallQuerySchema.safeParse(input ?? {});
    if (!parsed.success) throw new InvalidInputError(parsed.error.issues.map((i) => ({ path: i.path.map(String).join('.'), message: i.message })));
    const q = parsed.data;
    await this.deps.facts.awaitPosition(q.minPosition, 'facts');
    const now = this.deps.clock.now();
    const at = { validAt: q.validAt ?? now, knownAt: q.knownAt ?? now };
    const hygiene = cleanQuery(q.query, { addressTerms: this.options.addressTerms });
    const vectors = await this.deps.embedder.embed(hygiene.parts);

    // Candidate pool, per sub-query (side by side). Per sub-query, each version once; across them,
    // each version with its best scores (what the trace and the items show).
    const perPart = (await Promise.all(hygiene.parts.map((part, i) => this.candidates(tenant, at, part, vectors[i]!, hygiene)))).map(byBest);
    const pool = byBest(perPart.flatMap((part) => [...part.values()]));
    const candidates = [...pool.values()];
    const scored = (r: Found): Scored => ({ memoryId: r.memory_id, cosine: r.cosine, textRank: r.text_rank, trigram: r.trigram });

    const profileFound = candidates.filter((r) => r.core);
    const freshFound = candidates
      .filter((r) => !r.core && !r.embedded)
      .sort((a, b) => b.text_rank + b.trigram - (a.text_rank + a.trigram) || +(b.recorded_at ?? 0) - +(a.recorded_at ?? 0))
      .slice(0, this.options.freshLimit ?? 5);
    const freshIds = new Set(freshFound.map((r) => r.memory_id));
    const detail = (r: Found): boolean => !r.core && !freshIds.has(r.memory_id);
    // The threshold and fusion run per sub-query, on its own scores: a version is relevant when it
    // is to one of them, and the sub-queries' rankings merge by weight — each has the same say.
    const weight = 1 / perPart.length;
    const parts = perPart.map((part) => ({
      weight,
      candidates: [...part.values()].filter((r) => detail(r) && relevance(scored(r), this.thresholds) !== null).map(scored),
    }));
    const relevantIds = new Set(parts.flatMap((p) => p.candidates.map((c) => c.memoryId)));
    const excluded: { memoryId: string; reason: string }[] = [];
    const relevant: Scored[] = [];
    for (const r of candidates.filter(detail)) {
      if (relevantIds.has(r.memory_id)) relevant.push(scored(r));
      else excluded.push({ memoryId: r.memory_id, reason: 'below the relevance threshold' });
    }
    const fused = weightedReciprocalRankFusion(parts);
    // Diversity among the best few: more could never fit a prompt's budget anyway.
    const best = relevant.sort((a, b) => fused.get(b.memoryId)! - fused.get(a.memoryId)!).slice(0, this.options.detailLimit ?? 20);
    for (const c of relevant.slice(best.length)) excluded.push({ memoryId: c.memoryId, reason: `beyond the ${best.length} best fused` });

    // One statement: the versions that may be shown, read in one snapshot and checked once more
    // (a version superseded while the retrievers ran cannot come back beside the version that
    // replaced it); how alike the best are, pair by pair, which diversity needs (the database
    // computes it from the stored embeddings, which costs less than sending the vectors over);
    // and the index's lag, for the trace.
    const { shownRows, alike, lag } = await this.shownAndAlike(
      tenant,
      at,
      [...profileFound, ...freshFound, ...best.map((c) => pool.get(c.memoryId)!)].map((r) => r.memory_id),
      best.filter((c) => pool.get(c.memoryId)!.embedded).map((c) => c.memoryId),
      now,
    );
    const shown = new Map(shownRows.map((r) => [r.memory_id, r]));
    const stillVisible = (memoryId: string): boolean => {
      if (shown.has(memoryId)) return true;
      excluded.push({ memoryId, reason: 'no longer visible when read to be shown (changed while the assembly ran)' });
      return false;
    };
    const profile = profileFound.filter((r) => stillVisible(r.memory_id)).sort((a, b) => +shown.get(a.memory_id)!.recorded_at - +shown.get(b.memory_id)!.recorded_at);
    const fresh = freshFound.filter((r) => stillVisible(r.memory_id));
    const diverse = maximalMarginalRelevance(
      best.filter((c) => stillVisible(c.memoryId)).map((c) => ({ item: c, score: fused.get(c.memoryId)! })),
      (a, b) => alike.get(pairKey(a.memoryId, b.memoryId)) ?? null,
    );
    const item = (r: Found, channel: ContextItem['channel'], fusedScore: number | null): RecalledItem => {
      const v = shown.get(r.memory_id)!;
      return {
        memoryId: r.memory_id,
        channel,
        text: v.text,
        type: v.type,
        speaker: v.speaker,
        source: v.source,
        recordedAt: v.recorded_at,
        scores: { cosine: r.cosine, textRank: r.text_rank, trigram: r.trigram, fused: fusedScore },
      };
    };
    const ordered: RecalledItem[] = [
      ...profile.map((r) => item(r, 'profile', null)),
      ...fresh.map((r) => item(r, 'fresh', null)),
      ...diverse.map((d) => item(pool.get(d.item.memoryId)!, 'detail', d.score)),
    ];
    const profileCap = Math.floor(q.budgetTokens * (this.options.profileShare ?? 0.5));
    const budget = fitBudget(ordered, q.budgetTokens, profileCap, (t) => this.deps.tokens.count(t));
    const items = budget.included as RecalledItem[];

    const traceId = randomUUID();
    const trace = {
      query: { message: q.query, cleaned: hygiene.text, parts: hygiene.parts, weights: parts.map((p) => p.weight), terms: hygiene.terms },
      asOf: { validAt: at.validAt.toISOString(), knownAt: at.knownAt.toISOString(), minPosition: q.minPosition ?? null },
      index: lag,
      pool: candidates.map((r) => ({
        memoryId: r.memory_id,
        text: r.text,
        core: r.core,
        embedded: r.embedded,
        scores: { cosineSimilarity: r.cosine, tsRank: r.text_rank, trigramWordSimilarity: r.trigram },
      })),
      thresholds: this.thresholds,
      excluded,
      fusion: [...fused].map(([memoryId, rrf]) => ({ memoryId, reciprocalRankFusion: rrf })),
      diversity: diverse.map((d) => ({ memoryId: d.item.memoryId, fused: d.score, maxCosineToTaken: d.redundancy })),
      channels: { profile: profile.map((r) => r.memory_id), fresh: fresh.map((r) => r.memory_id), detail: diverse.map((d) => d.item.memoryId) },
      budget: {
        budgetTokens: q.budgetTokens,
        profileCapTokens: profileCap,
        tokenizer: this.deps.tokens.name,
        usedTokens: budget.tokens,
        cut: budget.cut.map((c) => ({ memoryId: c.item.memoryId, channel: c.item.channel, reason: c.reason })),
      },
      survivors: items.map((i) => ({ memoryId: i.memoryId, channel: i.channel })),
    };
    this.traces.add({ id: traceId, tenant, createdAt: now, query: q.query, trace });
    return { traceId, text: budget.text, tokens: budget.tokens, budgetTokens: q.budgetTokens, items };
  }

  /** A stored assembly trace, stage by stage; UnknownTraceError when absent (or another tenant's). */
  async trace(tenant: string, id: string): Promise<Record<string, unknown>> {
    if (!/^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i.test(id)) throw new UnknownTraceError(id);
    await this.traces.flush();
    const row = await sql<{ trace: object; created_at: Date }>`
      SELECT trace, created_at FROM fl_recall_traces WHERE tenant = ${tenant} AND id = ${id}::uuid`.execute(this.db);
    const r = row.rows[0];
    if (!r) throw new UnknownTraceError(id);
    return { id, tenant, createdAt: new Date(r.created_at).toISOString(), ...r.trace };
  }

  /** Deletes traces recorded before `before` (the retention period); returns how many. */
  async purgeTraces(before: Date): Promise<number> {
    const result = await sql`DELETE FROM fl_recall_traces WHERE created_at < ${before.toISOString()}::timestamptz`.execute(this.db);
    return Number(result.numAffectedRows ?? 0);
  }

  /**
   * The candidate pool for one sub-query, restricted to the versions visible at (validAt, knownAt):
   * the top versions of each retriever — nearest embeddings (HNSW, iterative scan so that the
   * visibility filter cannot starve it), best full-text rank, best trigram word similarity —
   * plus the core versions (profile) and the versions written since the index's checkpoint
   * (fresh). Each comes with all three scores, computed by the statement that found it from the
   * index row it already holds: cosine similarity (null when not embedded yet), ts_rank of the
   * content words, trigram word similarity.
   *
   * The retrievers are statements of their own, run side by side on connections of their own
   * (PGlite, one connection, runs them in turn).
   */
  private async candidates(
    tenant: string,
    at: { validAt: Date; knownAt: Date },
    text: string,
    vector: Float32Array,
    words: { terms: string[]; distinctive: string[] },
  ): Promise<Found[]> {
    const dims = sql.raw(String(Math.trunc(this.deps.embedder.dimensions)));
    const model = this.deps.embedder.model;
    const k = this.options.poolSize ?? 40;
    // Lexical matches ranked are bounded: a short number or a common name can match thousands,
    // and ranking them all costs more than the rest of the assembly.
    const scan = k * 5;
    // Scoring: any content word counts. Searching: all of them together, or all distinctive ones
    // together — one common word alone ("service", "port", a common name) matches thousands.
    const anyWord = words.terms.join(' OR ');
    const allWords = words.terms.join(' ');
    const distinctWords = words.distinctive.join(' ');
    const trigramOf = (glue: string) => sql.join(words.distinctive.map((t) => sql`${t} <% i.text`), sql.raw(` ${glue} `));
    const q = toVectorText(vector);
    const visible = this.visibleAt(tenant, at);
    // The three scores of an index row (alias `i`), or of a version's text not indexed yet.
    const textRank = (lexemes: RawBuilder<unknown>) => (anyWord ? sql`ts_rank(${lexemes}, websearch_to_tsquery('simple', ${anyWord}))` : sql`0::real`);
    const scores = sql`i.text, true AS embedded, 1 - (i.embedding <=> ${q}::vector) AS cosine, ${textRank(sql`i.lexemes`)} AS text_rank,
      word_similarity(${text}, i.text) AS trigram, false AS core, NULL::timestamptz AS recorded_at`;
    const found = async (query: RawBuilder<Found>): Promise<Found[]> =>
      (await query.execute(this.db)).rows.map((r) => ({ ...r, cosine: r.cosine === null ? null : Number(r.cosine), text_rank: Number(r.text_rank), trigram: Number(r.trigram) }));
    // The first few hundred index rows that match, ranked by `rank`; the best visible ones are
    // kept (visibility is checked in rank order, only until enough pass).
    const bestVisible = (matches: RawBuilder<unknown>, rank: RawBuilder<unknown>) =>
      found(sql<Found>`
        SELECT i.memory_id, ${scores} FROM (
          SELECT i.*, ${rank} AS rank FROM (
            SELECT i.memory_id, i.embedding, i.lexemes, i.text FROM fl_recall_index i
            WHERE i.tenant = ${tenant} AND i.model = ${model} AND ${matches} LIMIT ${scan}) i
          ORDER BY rank DESC) i
        WHERE ${visible(sql.ref('i.memory_id'))} ORDER BY i.rank DESC LIMIT ${k}`);
    // Any visible index row that matches, unranked: a fallback when no row matched them all.
    const anyVisible = (matches: RawBuilder<unknown>) =>
      found(sql<Found>`SELECT i.memory_id, ${scores} FROM fl_recall_index i
        WHERE i.tenant = ${tenant} AND i.model = ${model} AND ${matches} AND ${visible(sql.ref('i.memory_id'))} LIMIT ${k}`);

    const nearest = sql<Found>`
      SELECT i.memory_id, ${scores} FROM fl_recall_index i
      WHERE i.tenant = ${tenant} AND i.model = ${model} AND i.dimensions = ${dims} AND ${visible(sql.ref('i.memory_id'))}
      ORDER BY i.embedding::vector(${dims}) <=> ${q}::vector(${dims}) LIMIT ${k}`;
    // Full text: rows holding all content words, or all distinctive ones; only when none does,
    // any holding one content word.
    const fullText = async (): Promise<{ rows: Found[]; allWords: boolean }> => {
      if (!anyWord) return { rows: [], allWords: false };
      const all = await bestVisible(
        sql`i.lexemes @@ (plainto_tsquery('simple', ${allWords}) || plainto_tsquery('simple', ${distinctWords}))`,
        textRank(sql`i.lexemes`),
      );
      return all.length ? { rows: all, allWords: true } : { rows: await anyVisible(sql`i.lexemes @@ websearch_to_tsquery('simple', ${anyWord})`), allWords: false };
    };
    // Trigrams find what exact words miss: a misspelt name, an identifier cut differently, a
    // Korean word with its particle. Rows holding every distinctive word alike, ranked; only when
    // none does, any holding one of them.
    const trigrams = async (): Promise<Found[]> => {
      if (!words.distinctive.length) return [];
      const all = await bestVisible(sql`(${trigramOf('AND')})`, sql`word_similarity(${text}, i.text)`);
      return all.length ? all : anyVisible(sql`(${trigramOf('OR')})`);
    };
    // When full text found versions holding the words and every distinctive word is Latin (which
    // the simple configuration splits as written), the trigram search is skipped: for a common
    // name or a short number it costs more than the whole rest of the assembly (a GIN bitmap of
    // every text sharing its trigrams). Otherwise it runs beside full text from the start.
    const early = words.distinctive.some(needsTrigrams) ? trigrams() : null;
    early?.catch(() => undefined); // awaited below; a failure must not also go unhandled
    // The core versions (profile), and the versions written since the index's checkpoint (fresh),
    // which may not be indexed yet: scored from their text.
    const standing = sql<Found>`
      SELECT s.memory_id, m.text, i.memory_id IS NOT NULL AS embedded,
        CASE WHEN i.embedding IS NULL THEN NULL ELSE 1 - (i.embedding <=> ${q}::vector) END AS cosine,
        ${textRank(sql`coalesce(i.lexemes, to_tsvector('simple', m.text))`)} AS text_rank, word_similarity(${text}, m.text) AS trigram,
        m.core, m.recorded_at
      FROM (
        SELECT m.memory_id FROM fl_memories m WHERE m.tenant = ${tenant} AND m.core AND ${visible(sql.ref('m.memory_id'))}
        UNION
        SELECT e.data ->> 'memoryId' FROM (
          SELECT e.data FROM fl_events e
          WHERE e.global_position > coalesce((SELECT prepare FROM fl_checkpoints WHERE name = ${RECALL_INDEX}), 0)
            AND e.tenant = ${tenant} AND e.type IN ('FactAsserted', 'FactOverruled', 'MemoryRetyped')
          ORDER BY e.global_position DESC LIMIT 200) e) s
      JOIN fl_memories m ON m.tenant = ${tenant} AND m.memory_id = s.memory_id
      LEFT JOIN fl_recall_index i ON i.tenant = ${tenant} AND i.memory_id = s.memory_id AND i.model = ${model}`;
    // The nearest and the standing versions in one statement (one round trip fewer), full text beside it.
    const [nearAndStanding, worded] = await Promise.all([found(sql<Found>`(${nearest}) UNION ALL (${standing})`), fullText()]);
    const alike = early ? await early : worded.allWords ? [] : await trigrams();
    return [...nearAndStanding, ...worded.rows, ...alike];
  }

  /** A version visible at (validAt, knownAt): active, valid then, and on record then. */
  private visibleAt(tenant: string, at: { validAt: Date; knownAt: Date }) {
    const validAt = at.validAt.toISOString();
    const knownAt = at.knownAt.toISOString();
    return (memoryId: RawBuilder<unknown>) => sql`EXISTS (SELECT 1 FROM fl_fact_history h WHERE h.tenant = ${tenant}
      AND h.memory_id = ${memoryId} AND h.status = 'active' AND h.valid @> ${validAt}::timestamptz AND h.tx @> ${knownAt}::timestamptz)`;
  }

  /**
   * In one statement and one snapshot: the versions `show` as shown, each checked once more (a
   * version superseded while the retrievers ran cannot come back beside the version that replaced
   * it); the cosine similarity of each pair of the `compare` versions' stored embeddings (index's
   * model), by pairKey; and the index's lag. One row of three JSON values.
   */
  private async shownAndAlike(
    tenant: string,
    at: { validAt: Date; knownAt: Date },
    show: string[],
    compare: string[],
    now: Date,
  ): Promise<{ shownRows: Shown[]; alike: Map<string, number>; lag: IndexLag }> {
    const row = await sql<{ shown: (Omit<Shown, 'recorded_at'> & { recorded_at: string })[]; alike: [string, string, number][]; lag: CheckpointLagRow }>`
      WITH v AS (
        SELECT memory_id, embedding FROM fl_recall_index
        WHERE tenant = ${tenant} AND model = ${this.deps.embedder.model} AND memory_id = ANY(${compare.length > 1 ? compare : []}::text[]))
      SELECT
        (SELECT coalesce(json_agg(s), '[]') FROM (
          SELECT h.memory_id, h.text, h.type, h.speaker, h.source, m.recorded_at
          FROM unnest(${show}::text[]) AS p(memory_id)
          JOIN fl_fact_history h ON h.tenant = ${tenant} AND h.memory_id = p.memory_id AND h.status = 'active'
            AND h.valid @> ${at.validAt.toISOString()}::timestamptz AND h.tx @> ${at.knownAt.toISOString()}::timestamptz
          JOIN fl_memories m ON m.tenant = ${tenant} AND m.memory_id = p.memory_id) s) AS shown,
        (SELECT coalesce(json_agg(json_build_array(x.memory_id, y.memory_id, 1 - (x.embedding <=> y.embedding))), '[]')
          FROM v x JOIN v y ON x.memory_id < y.memory_id) AS alike,
        (SELECT row_to_json(l) FROM (${this.deps.indexer.lagStatement()}) l) AS lag`.execute(this.db);
    const r = row.rows[0]!;
    return {
      shownRows: r.shown.map((s) => ({ ...s, recorded_at: new Date(s.recorded_at) })),
      alike: new Map(r.alike.map(([a, b, cosine]) => [pairKey(a, b), Number(cosine)])),
      lag: lagOf(r.lag, now),
    };
  }
}
