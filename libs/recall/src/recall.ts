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
import { dotProduct, type Embedder, unitVector } from '@factledger/embeddings';
import type { ProjectionRunner } from '@factledger/projections';
import { type Kysely, sql } from 'kysely';
import { z } from 'zod';
import { type ContextItem, fitBudget } from './context-render';
import { DEFAULT_THRESHOLDS, maximalMarginalRelevance, relevance, type Scored, type Thresholds, weightedReciprocalRankFusion } from './fusion';
import { byBest, CandidatePool, type Found, oneState, type Shown } from './candidate-pool';
import { cleanQuery } from './query-hygiene';
import { UnknownTraceError } from './errors';
import { lagOf, type RecallIndexer } from './recall-indexer';
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

export class Recall {
  private readonly thresholds: Thresholds;
  private readonly candidatePool: CandidatePool;
  /** Where traces go once an assembly has answered. */
  readonly traces: TraceWriter;

  constructor(
    // eslint-disable-next-line @typescript-eslint/no-explicit-any
    private readonly db: Kysely<any>,
    private readonly deps: {
      embedder: Embedder;
      facts: ProjectionRunner;
      indexer: RecallIndexer;
      tokens: TokenCounter;
      clock: Clock;
      traces?: TraceWriter;
      /** Where the retrievers' statements run (Database.search); `db` when absent. */
      // eslint-disable-next-line @typescript-eslint/no-explicit-any
      search?: Kysely<any>;
    },
    private readonly options: RecallOptions = {},
  ) {
    this.thresholds = options.thresholds ?? DEFAULT_THRESHOLDS;
    this.traces = deps.traces ?? new TraceWriter(db);
    this.candidatePool = new CandidatePool(deps.search ?? db, deps.embedder, () => deps.indexer.lagStatement(), options.poolSize);
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
    const finds = await Promise.all(hygiene.parts.map((part, i) => this.candidatePool.find(tenant, at, part, vectors[i]!, hygiene, i === 0)));
    const perPart = finds.map((statements) => byBest(statements.flatMap((f) => f.rows)));
    const pool = byBest(perPart.flatMap((part) => [...part.values()]));
    const candidates = [...pool.values()];
    const scored = (r: Found): Scored => ({ memoryId: r.memory_id, cosine: r.cosine, textRank: r.text_rank, trigram: r.trigram });

    const profileFound = candidates.filter((r) => r.core);
    const freshFound = candidates
      .filter((r) => !r.core && !r.embedded)
      .sort((a, b) => b.text_rank + b.trigram - (a.text_rank + a.trigram) || +b.recorded_at - +a.recorded_at)
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

    // The versions are shown as found when every statement read one state of the facts (see
    // candidate-pool.ts); otherwise they are read once more, in one snapshot, so that a version
    // superseded while the retrievers ran cannot come back beside the version that replaced it.
    const statements = finds.flat();
    const lagRow = finds[0]?.[0]?.lag ?? null;
    const toShow = [...profileFound, ...freshFound, ...best.map((c) => pool.get(c.memoryId)!)].map((r) => r.memory_id);
    const reread = oneState(statements) && lagRow ? null : await this.candidatePool.recheck(tenant, at, toShow);
    const shown: Map<string, Shown> = reread?.shown ?? pool;
    const lag = lagOf(reread?.lag ?? lagRow!, now);
    const stillVisible = (memoryId: string): boolean => {
      if (shown.has(memoryId)) return true;
      excluded.push({ memoryId, reason: 'no longer visible when read to be shown (changed while the assembly ran)' });
      return false;
    };
    const profile = profileFound.filter((r) => stillVisible(r.memory_id)).sort((a, b) => +shown.get(a.memory_id)!.recorded_at - +shown.get(b.memory_id)!.recorded_at);
    const fresh = freshFound.filter((r) => stillVisible(r.memory_id));
    // Diversity compares the best pair by pair: each vector scaled to length 1 once, so that a
    // pair's cosine is its dot product.
    const unit = new Map<string, Float32Array>();
    for (const c of best) {
      const vector = pool.get(c.memoryId)!.vector;
      if (vector) unit.set(c.memoryId, unitVector(vector));
    }
    const diverse = maximalMarginalRelevance(
      best.filter((c) => stillVisible(c.memoryId)).map((c) => ({ item: c, score: fused.get(c.memoryId)! })),
      (a, b) => {
        const [x, y] = [unit.get(a.memoryId), unit.get(b.memoryId)];
        return x && y ? dotProduct(x, y) : null;
      },
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
      // The state of the facts each statement read, and whether the versions shown were read again.
      snapshot: { states: statements.map((f) => f.state), reread: reread !== null },
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
}
