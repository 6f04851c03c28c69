/**
 * Context assembly (R9–R13): what goes into this prompt, now, within this budget, and why.
 *
 * Stages, each recorded in the trace: query hygiene → candidate pool over the versions visible
 * at (validAt, knownAt) (quarantined, overruled, superseded and retracted versions never enter
 * it), each with every score (cosine, BM25 over English stems and the share of the query's IDF it
 * covers, trigram), conversation turns with their neighbours → relevance → fusion (lexical and
 * semantic evidence weighed, sub-queries merged by their best) → diversity (MMR, with session
 * cohesion) → channels (profile: core facts under their own cap; fresh: versions not embedded
 * yet; detail) → budget cut with a real tokenizer → rendered block (see context-render.ts, and
 * fusion.ts for the ranking).
 */
import { randomUUID } from 'node:crypto';
import { changedForQuestion, type Clock, contradictionsAmong, InvalidInputError, inputIssues, languageOf, overTimeCue, withoutParts } from '@factledger/domain';
import { dotProduct, type Embedder, unitVector } from '@factledger/embeddings';
import type { ProjectionRunner, ReplicaRouting } from '@factledger/projections';
import { type Database, type DatabaseSchema, PREPARED, type RecallSlice, slice, SPAN, traced } from '@factledger/store';
import { type Kysely, sql } from 'kysely';
import { z } from 'zod';
import { type ContextItem, DEFAULT_RENDER, fitBudget, headingOf, type RenderOptions, renderContext } from './context-render';
import {
  type Adjacency,
  DEFAULT_THRESHOLDS,
  DEFAULT_WEIGHTS,
  fuse,
  type Fused,
  maximalMarginalRelevance,
  mergeByBest,
  speakerOfQuery,
  neighbourContext,
  type Ranked,
  type RankingWeights,
  relevantOf,
  type Thresholds,
} from './fusion';
import { CandidatePool } from './candidate-pool';
import { byBest, type Finds, type Found, type LexicalOptions, oneState, type QueryStem, type Replaced, settled, type Shown, vectorOf } from './candidates';
import { keptTogether } from './kept-together';
import { cleanQuery } from './query-hygiene';
import { lagOf, type RecallIndexer } from './recall-indexer';
import type { TokenCounter } from './token-counter';
import { TraceWriter } from './trace-writer';
import { type RecalledItem, type RecallResult, recallQuerySchema } from './recall-query';

/** How many of the best are compared pair by pair for diversity. */
const DIVERSITY_AMONG = 20;
/** How many steps a chain of replacing statements is followed to bring the newest along. */
const NEWER_STEPS = 3;
/** How many versions back a question over time follows what a shown memory replaced. */
const HISTORY_STEPS = 5;

/** Why a version was brought along for a question over time, by how its replacement is on record (candidate-pool.ts, Replaced). */
const HISTORY_WHY: Readonly<Record<Replaced['link'], string>> = {
  superseded: 'a version it replaced: its retirement names the memory after it',
  retired: 'a version it replaced: retired, by the same speaker, from the start of the memory after it, in the write that recorded that memory, and sharing a word with it',
  parts: 'a memory with a statement it replaced: shown whole, the rest of it still holds',
};

export interface RecallOptions {
  addressTerms?: string[];
  thresholds?: Partial<Thresholds>;
  /** How lexical and semantic evidence, neighbouring turns and a named speaker weigh (fusion.ts). */
  weights?: Partial<RankingWeights>;
  /** BM25's parameters and the lexical retriever's bounds (candidate-pool.ts). */
  lexical?: Partial<LexicalOptions>;
  /** What the rendered block shows of each memory (context-render.ts). */
  render?: Partial<RenderOptions>;
  /** Share of the budget the profile channel may use. */
  profileShare?: number;
  /** Most versions the fresh channel injects. */
  freshLimit?: number;
  /** Candidates each retriever contributes per sub-query. */
  poolSize?: number;
  /** Most relevant versions that go on to diversity and the budget. */
  detailLimit?: number;
}

/** One sub-query's candidates as ranking sees them, with the turns beside each other among them. */
interface Part {
  found: Map<string, Found>;
  ranked: Map<string, Ranked & { text: string }>;
  adjacency: Adjacency;
  stems: QueryStem[];
  trigrams: boolean;
  fused: Map<string, Fused>;
  relevant: Map<string, string>;
}

/**
 * The last tie-break of the profile's and the fresh channel's orders (which rank nothing among
 * equals): by memory id, which a copy of the data keeps, where the order rows come back in does
 * not (a restored backup, a rebuilt read model). The detailed finds keep their rank order instead.
 */
function byId(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}

/** One stage of an assembly (`factledger.recall.<name>`), a child of its SPAN.recall span. */
function stage<T>(name: string, work: () => Promise<T>): Promise<T> {
  return traced(`${SPAN.recall}.${name}`, {}, work);
}

export class Recall {
  private readonly thresholds: Thresholds;
  private readonly weights: RankingWeights;
  private readonly render: RenderOptions;
  private readonly candidatePool: CandidatePool;
  /** Where traces go once an assembly has answered. */
  readonly traces: TraceWriter;

  /** Recall's slice of the schema: the read views and its own tables. */
  private readonly db: Kysely<RecallSlice>;

  constructor(
    db: Kysely<DatabaseSchema>,
    private readonly deps: {
      embedder: Embedder;
      facts: ProjectionRunner;
      indexer: RecallIndexer;
      tokens: TokenCounter;
      clock: Clock;
      traces?: TraceWriter;
      /** Where the retrievers' statements run (Database.search); `db` when absent. */
      search?: Kysely<DatabaseSchema>;
      /** PostgreSQL standbys an assembly may be served from, once one has reached its position (ReplicaRouting). */
      replicas?: ReplicaRouting;
    },
    private readonly options: RecallOptions = {},
  ) {
    this.db = slice(db);
    this.thresholds = { ...DEFAULT_THRESHOLDS, ...options.thresholds };
    this.weights = { ...DEFAULT_WEIGHTS, ...options.weights };
    this.render = { ...DEFAULT_RENDER, ...options.render };
    this.traces = deps.traces ?? new TraceWriter(db);
    this.candidatePool = new CandidatePool(deps.search ?? db, deps.embedder, deps.indexer, options.poolSize, options.lexical);
  }

  /** Recall on each standby that has served an assembly: the same settings, its database, this one's embedder and traces. */
  private readonly standbys = new WeakMap<Database, Recall>();

  private on(standby: Database): Recall {
    let recall = this.standbys.get(standby);
    if (!recall) {
      recall = new Recall(standby.db, { ...this.deps, search: standby.search, traces: this.traces, replicas: undefined }, this.options);
      this.standbys.set(standby, recall);
    }
    return recall;
  }

  /**
   * One context assembly in a SPAN.recall span, with a child span for each stage that waits on
   * something; on a standby that has reached the query's position (or the tenant's last write
   * here) when standbys are configured, on the primary otherwise.
   */
  assemble(tenant: string, input: z.input<typeof recallQuerySchema>): Promise<RecallResult> {
    return traced(SPAN.recall, { 'factledger.tenant': tenant }, async (span) => {
      const minPosition = (input as { minPosition?: unknown } | null | undefined)?.minPosition;
      const replicas = this.deps.replicas;
      const result = replicas
        ? await replicas.run(tenant, minPosition, (standby) => (standby ? this.on(standby).assembleContext(tenant, input, 'reached') : this.assembleContext(tenant, input)))
        : await this.assembleContext(tenant, input);
      span.setAttributes({ 'factledger.items': result.items.length, 'factledger.tokens': result.tokens, 'factledger.budget_tokens': result.budgetTokens });
      return result;
    });
  }

  /** `reached`: the standby serving it has applied the query's minPosition already (no wait on the primary). */
  private async assembleContext(tenant: string, input: z.input<typeof recallQuerySchema>, reached?: 'reached'): Promise<RecallResult> {
    const unfit = inputIssues(input);
    if (unfit.length) throw new InvalidInputError(unfit);
    const parsed = recallQuerySchema.safeParse(input ?? {});
    if (!parsed.success) throw new InvalidInputError(parsed.error.issues.map((i) => ({ path: i.path.map(String).join('.'), message: i.message })));
    const q = parsed.data;
    if (q.minPosition && !reached) await stage('wait', () => this.deps.facts.awaitPosition(q.minPosition, 'facts'));
    const now = this.deps.clock.now();
    const at = { validAt: q.validAt ?? now, knownAt: q.knownAt ?? now };
    const hygiene = cleanQuery(q.query, { addressTerms: this.options.addressTerms });
    const vectors = await stage('embed', () => this.deps.embedder.embed(hygiene.parts));

    // Candidate pool, per sub-query (side by side). Per sub-query, each version once; across them,
    // each version with its best scores (what the trace and the items show).
    const finds = await stage('pool', () => settled(hygiene.parts.map((part, i) => this.candidatePool.find(tenant, at, part, vectors[i]!, hygiene, i === 0))));
    const parts = finds.map((statements, i) => this.rank(hygiene.parts[i]!, hygiene.firstPerson[i]!, statements));
    const pool = byBest(parts.flatMap((p) => [...p.found.values()]));
    const candidates = [...pool.values()];

    const profileFound = candidates.filter((r) => r.core);
    const freshFound = candidates
      .filter((r) => !r.core && !r.embedded)
      .sort((a, b) => b.bm25 + b.trigram - (a.bm25 + a.trigram) || +b.said_at - +a.said_at || byId(a.memory_id, b.memory_id))
      .slice(0, this.options.freshLimit ?? 5);
    const freshIds = new Set(freshFound.map((r) => r.memory_id));
    const detail = (id: string): boolean => !pool.get(id)!.core && !freshIds.has(id);
    // Relevance and fusion run per sub-query, on its own scores: a version is relevant when it is
    // to one of them, and its merged score is its best over them (fusion.ts, mergeByBest).
    const kept = parts.map((p) => new Set([...p.relevant.keys()].filter(detail)));
    const fused = mergeByBest(parts.map((p, i) => ({ fused: p.fused, kept: kept[i]! })));
    const excluded: { memoryId: string; reason: string }[] = [];
    const relevant: string[] = [];
    for (const r of candidates.filter((c) => detail(c.memory_id))) {
      if (fused.has(r.memory_id)) relevant.push(r.memory_id);
      else excluded.push({ memoryId: r.memory_id, reason: 'below the relevance threshold' });
    }
    // Diversity among the best few: more could never fit a prompt's budget anyway.
    const best = relevant.sort((a, b) => fused.get(b)! - fused.get(a)!).slice(0, this.options.detailLimit ?? 20);
    for (const id of relevant.slice(best.length)) excluded.push({ memoryId: id, reason: `beyond the ${best.length} best fused` });

    // The versions are shown as found when every statement read one state of the facts (see
    // candidate-pool.ts); otherwise they are read once more, in one snapshot, so that a version
    // superseded while the retrievers ran cannot come back beside the version that replaced it.
    const statements = finds.flat();
    const lagRow = finds[0]?.[0]?.lag ?? null;
    const toShow = [...profileFound.map((r) => r.memory_id), ...freshFound.map((r) => r.memory_id), ...best];
    // Why a memory to show is no longer confirmed (the cascade's marks), asked for now and awaited
    // at packing: the look-up runs while the rest of the assembly does. Marks are the current
    // belief: an as-of read as known before now shows none.
    const marksOfShown = q.knownAt === undefined ? this.unconfirmedOf(tenant, toShow) : Promise.resolve(new Map<string, string>());
    marksOfShown.catch(() => undefined); // awaited below; a failure there, not an unhandled rejection meanwhile
    const reread = oneState(statements) && lagRow ? null : await stage('recheck', () => this.candidatePool.recheck(tenant, at, toShow));
    const shown: Map<string, Shown> = reread?.shown ?? pool;
    const lag = lagOf(reread?.lag ?? lagRow!, now);
    const stillVisible = (memoryId: string): boolean => {
      if (shown.has(memoryId)) return true;
      excluded.push({ memoryId, reason: 'no longer visible when read to be shown (changed while the assembly ran)' });
      return false;
    };
    const profile = profileFound.filter((r) => stillVisible(r.memory_id)).sort((a, b) => +shown.get(a.memory_id)!.said_at - +shown.get(b.memory_id)!.said_at || byId(a.memory_id, b.memory_id));
    const fresh = freshFound.filter((r) => stillVisible(r.memory_id));
    // Diversity compares the best pair by pair: each vector scaled to length 1 once, so that a
    // pair's cosine is its dot product.
    const unit = new Map<string, Float32Array>();
    for (const id of best.slice(0, DIVERSITY_AMONG)) {
      const vector = vectorOf(pool.get(id)!);
      if (vector) unit.set(id, unitVector(vector));
    }
    // A turn shown without a statement a newer memory replaced brings that memory along, just
    // before it, so the context holds the newer value wherever it holds what is left of the older
    // turn (issue 32). Read only when some shown version has such a part; a chain is followed a
    // few steps (a newer statement replaced in turn).
    const newer = new Map<string, Shown>();
    for (let ids = toShow, step = 0; step < NEWER_STEPS; step++) {
      const wanted = [...new Set(ids.flatMap((id) => (shown.get(id) ?? newer.get(id))?.replaced_by ?? []))].filter((id) => !shown.has(id) && !newer.has(id));
      if (wanted.length === 0) break;
      const read = await this.candidatePool.recheck(tenant, at, wanted);
      for (const [id, v] of read.shown) newer.set(id, v);
      ids = [...read.shown.keys()];
    }
    // A question over time (@factledger/domain over-time.ts): each memory to show that is relevant
    // brings along the versions it replaced, a few steps back, as the history held them at
    // (validAt, knownAt). Read only for such a question: any other reads nothing more.
    const overTime = overTimeCue(hygiene.text);
    const heads = overTime
      ? [
          ...new Set([
            ...profile.filter((r) => parts.some((p) => p.relevant.has(r.memory_id))).map((r) => r.memory_id),
            ...fresh.map((r) => r.memory_id),
            ...best.filter((id) => shown.has(id)),
            ...newer.keys(),
          ]),
        ]
      : [];
    const replaced = overTime ? await stage('history', () => this.candidatePool.replaced(tenant, at, heads, HISTORY_STEPS)) : [];
    // A shown memory a statement of which was replaced is shown whole for it (what it said then is
    // asked for), still with the memory that replaced it just before it.
    const whole = new Map<string, Shown>(
      replaced.filter((r) => r.link === 'parts').map((r) => [r.memory_id, { ...r, replaced_by: (shown.get(r.memory_id) ?? newer.get(r.memory_id))?.replaced_by ?? [] }]),
    );
    // The question's own view: a statement of a shown turn that a newer shown turn of the same
    // speaker says again with another value, as the question asks it (@factledger/domain
    // turn-parts.ts, changedForQuestion), is left out of this context as a replaced one is, and
    // the newer turn goes just before it. Nothing is written: the turn stays whole on record.
    // Prose only: a structured fact's value is replaced by its key, at write time. Not for a
    // question over time, which asks for the earlier values too.
    const forQuestion = overTime
      ? { shown: new Map<string, Shown>(), changes: [] }
      : this.forQuestion(
          q.query,
          toShow
            .filter((id) => pool.get(id)?.kind === 'prose')
            .map((id) => shown.get(id))
            .filter((v) => v !== undefined),
        );
    const shownOf = (id: string): Shown | undefined => whole.get(id) ?? forQuestion.shown.get(id) ?? shown.get(id) ?? newer.get(id);
    const itemOfVersion = (v: Shown): ContextItem => ({
      memoryId: v.memory_id,
      channel: 'detail',
      text: v.text,
      type: v.type,
      speaker: v.speaker,
      source: v.source,
      saidAt: v.said_at,
      validFrom: v.valid_from,
    });
    const itemOf = (id: string): ContextItem => itemOfVersion(shownOf(id)!);
    // The best 20 are reordered for diversity; any after them (kept to fill a budget the first
    // ones leave room in) follow by their fused score.
    const visible = best.filter((id) => stillVisible(id)).map((id) => ({ item: id, score: fused.get(id)! }));
    const diverse = [
      ...maximalMarginalRelevance(
        visible.slice(0, DIVERSITY_AMONG),
        (a, b) => {
          const [x, y] = [unit.get(a), unit.get(b)];
          return x && y ? dotProduct(x, y) : null;
        },
        this.weights.diversity,
        { groupOf: (id) => headingOf(itemOf(id)), factor: this.weights.cohesion },
      ),
      ...visible.slice(DIVERSITY_AMONG).map((v) => ({ ...v, redundancy: null, sameGroup: null })),
    ];
    // An item's scores: the best any sub-query gave it.
    const scoresOf = (id: string, fusedScore: number | null): RecalledItem['scores'] => {
      const r = pool.get(id);
      // A newer statement brought along is not among the finds: it has no scores of its own.
      if (!r) return { cosine: null, passageCosine: null, bm25: 0, coverage: 0, context: 0, trigram: 0, namedSpeaker: false, fused: fusedScore };
      const ranked = parts.map((p) => p.ranked.get(id)).filter((x) => x !== undefined);
      return {
        cosine: r.cosine,
        passageCosine: r.passage_cosine,
        bm25: r.bm25,
        coverage: Math.max(0, ...ranked.map((x) => x.coverage)),
        context: Math.max(0, ...ranked.map((x) => x.context)),
        trigram: r.trigram,
        namedSpeaker: ranked.some((x) => x.namedSpeaker),
        fused: fusedScore,
      };
    };
    const item = (id: string, channel: ContextItem['channel'], fusedScore: number | null): RecalledItem => ({ ...itemOf(id), channel, scores: scoresOf(id, fusedScore) });
    const ordered: RecalledItem[] = [];
    const broughtAlong: { memoryId: string; before: string }[] = [];
    const visited = new Set<string>();
    const place = (id: string, channel: ContextItem['channel'], score: number | null): void => {
      if (visited.has(id)) return;
      visited.add(id);
      // What replaced a statement of this one goes first (once), then this one, unless nothing of it is left.
      const v = shownOf(id);
      for (const by of v?.replaced_by ?? []) {
        if (visited.has(by) || !shownOf(by)) continue;
        place(by, channel, null);
        broughtAlong.push({ memoryId: by, before: id });
      }
      if (v && v.replaced_by.length > 0 && !/[\p{L}\p{N}]/u.test(v.text)) {
        excluded.push({ memoryId: id, reason: `every statement of it replaced, by ${v.replaced_by.join(', ')}` });
        return;
      }
      ordered.push(item(id, channel, score));
      if (overTime) bringHistory(id);
    };
    // For a question over time, the versions a memory replaced follow it, nearest first, ahead of
    // the memories ranked after it: a short budget cuts the oldest first. Each is an item of its
    // own, with until when it held; one shown anyway is not brought twice.
    const replacedBy = new Map<string, Replaced[]>();
    for (const r of replaced) replacedBy.set(r.successor, [...(replacedBy.get(r.successor) ?? []), r]);
    const placedAnyway = overTime ? new Set([...profile.map((r) => r.memory_id), ...fresh.map((r) => r.memory_id), ...diverse.map((d) => d.item), ...newer.keys()]) : null;
    const history: { memoryId: string; of: string; replacedBy: string; step: number; why: string }[] = [];
    const bringHistory = (head: string): void => {
      const seen = new Set([head]);
      for (let level = [head], step = 1; level.length > 0 && step <= HISTORY_STEPS; step++) {
        const next: string[] = [];
        for (const successor of level) {
          for (const r of replacedBy.get(successor) ?? []) {
            if (seen.has(r.memory_id)) continue;
            seen.add(r.memory_id);
            next.push(r.memory_id);
            if (visited.has(r.memory_id) || placedAnyway!.has(r.memory_id)) continue;
            visited.add(r.memory_id);
            ordered.push({ ...itemOfVersion(r), validTo: r.valid_to ?? undefined, scores: scoresOf(r.memory_id, null) });
            history.push({ memoryId: r.memory_id, of: head, replacedBy: successor, step, why: HISTORY_WHY[r.link] });
          }
        }
        level = next;
      }
    };
    for (const r of profile) place(r.memory_id, 'profile', null);
    for (const r of fresh) place(r.memory_id, 'fresh', null);
    for (const d of diverse) place(d.item, 'detail', d.score);
    const profileCapOf = (budgetTokens: number): number => Math.floor(budgetTokens * (this.options.profileShare ?? 0.5));
    const profileCap = profileCapOf(q.budgetTokens);
    // Beside a memory no longer confirmed (what it hangs on changed: the cascade), why: part of the
    // memory's line, so the budget counts it. A memory brought along after the look-up began (a
    // newer statement, a version replaced) is looked up apart.
    const asked = new Set(toShow);
    const later = q.knownAt === undefined ? ordered.map((i) => i.memoryId).filter((id) => !asked.has(id)) : [];
    const marks = new Map([...(await marksOfShown), ...(later.length ? await this.unconfirmedOf(tenant, later) : [])]);
    for (const [k, i] of ordered.entries()) {
      const mark = marks.get(i.memoryId);
      if (mark !== undefined) ordered[k] = { ...i, note: mark };
    }
    const budget = fitBudget(ordered, q.budgetTokens, profileCapOf, (t) => this.deps.tokens.count(t), this.render);
    const items = budget.included as RecalledItem[];
    // Memories shown together that contradict each other, both kept: the block says so beside the
    // later one, where the budget has room.
    const conflicts = contradictionsAmong(items.map((i) => ({ memoryId: i.memoryId, text: i.text, speaker: i.speaker, saidAt: i.saidAt })));
    if (conflicts.length > 0) {
      const byId = new Map(items.map((i) => [i.memoryId, i]));
      const noted = items.map((i) => {
        const against = conflicts.find((c) => c.later === i.memoryId);
        const notes = [i.note, against ? `contradicts what was said on ${byId.get(against.earlier)!.saidAt.toISOString().slice(0, 10)}; both kept` : undefined].filter((n) => n !== undefined);
        return notes.length ? { ...i, note: notes.join('; ') } : i;
      });
      const text = renderContext(noted, this.render);
      const tokens = this.deps.tokens.count(text);
      if (tokens <= q.budgetTokens) {
        budget.text = text;
        budget.tokens = tokens;
        items.splice(0, items.length, ...noted);
      }
    }
    const traceId = randomUUID();
    const trace = {
      query: { message: q.query, cleaned: hygiene.text, parts: hygiene.parts, terms: hygiene.terms, stems: parts.map((p) => p.stems) },
      asOf: { validAt: at.validAt.toISOString(), knownAt: at.knownAt.toISOString(), minPosition: q.minPosition ?? null },
      index: lag,
      // The state of the facts each statement read, and whether the versions shown were read again.
      snapshot: { states: statements.map((f) => f.state), reread: reread !== null },
      pool: candidates.map((r) => ({
        memoryId: r.memory_id,
        text: r.text,
        core: r.core,
        embedded: r.embedded,
        ...(r.neighbour_of ? { neighbourOf: r.neighbour_of } : {}),
        scores: (({ cosine, passageCosine, bm25, coverage, context, trigram, namedSpeaker }) => ({
          cosineSimilarity: cosine,
          passageCosineSimilarity: passageCosine,
          bm25,
          stemCoverage: coverage,
          neighbourBm25: context,
          trigramWordSimilarity: trigram,
          speakerNamedInQuery: namedSpeaker,
        }))(scoresOf(r.memory_id, null)),
      })),
      thresholds: this.thresholds,
      weights: this.weights,
      relevant: parts.map((p) => [...p.relevant].map(([memoryId, why]) => ({ memoryId, why }))),
      excluded,
      fusion: parts.map((p) => [...p.fused].filter(([id]) => fused.has(id)).map(([memoryId, f]) => ({ memoryId, lexicalEvidence: f.lexical, semanticEvidence: f.semantic, weightedSum: f.fused }))),
      merged: [...fused].map(([memoryId, score]) => ({ memoryId, fused: score })),
      diversity: diverse.map((d) => ({ memoryId: d.item, fused: d.score, maxCosineToTaken: d.redundancy, takenUnderSameHeading: d.sameGroup })),
      channels: { profile: profile.map((r) => r.memory_id), fresh: fresh.map((r) => r.memory_id), detail: diverse.map((d) => d.item) },
      // Newer statements placed just before a shown turn whose statements they replaced.
      broughtAlong,
      // Statements left out of shown turns for this question only: said again with another value by a newer shown turn.
      leftOutForQuestion: forQuestion.changes,
      // A question over time: the words that ask it, and the versions brought along after the memory they led to, with why.
      history: overTime ? { cue: overTime, steps: HISTORY_STEPS, broughtAlong: history, shownWhole: [...whole.keys()].filter((id) => placedAnyway!.has(id)) } : null,
      budget: {
        budgetTokens: q.budgetTokens,
        profileCapTokens: profileCap,
        tokenizer: this.deps.tokens.name,
        usedTokens: budget.tokens,
        cut: budget.cut.map((c) => ({ memoryId: c.item.memoryId, channel: c.item.channel, reason: c.reason })),
      },
      survivors: items.map((i) => ({ memoryId: i.memoryId, channel: i.channel })),
      // Shown memories that contradict one another, both kept, and whether the block says so (a note beside the later one).
      conflicts: conflicts.map((c) => ({ ...c, noted: items.some((i) => i.memoryId === c.later && i.note !== undefined) })),
      // Shown memories that restate one another in one frame and were both kept (a set, or unsure): filled by `complete`.
      keptTogether: [] as ReturnType<typeof keptTogether>,
    };
    // What the shown memories replaced (a value restated, a change in other words) is out of every
    // read path already, and which shown ones state one frame: the trace names both, worked out
    // when the trace is written (off the answer's path).
    const complete = async (): Promise<void> => {
      trace.keptTogether = keptTogether(items);
      const itemIds = new Set(items.map((i) => i.memoryId));
      for (const r of await this.replacedBy(tenant, [...itemIds])) {
        if (itemIds.has(r.memory_id)) continue; // brought along for a question over time: shown
        excluded.push({ memoryId: r.memory_id, reason: `replaced by ${r.superseded_by}, which is shown: ${r.reason}` });
      }
    };
    this.traces.add({ id: traceId, tenant, createdAt: now, query: q.query, trace, memoryIds: candidates.map((r) => r.memory_id), complete });
    return { traceId, text: budget.text, tokens: budget.tokens, budgetTokens: q.budgetTokens, items };
  }

  /**
   * One sub-query's finds ranked: each version once, the turns beside each other among them, the
   * BM25 they lend each other, whether the query names their speaker, their fused scores and which
   * are relevant (and why).
   */
  private rank(text: string, firstPerson: boolean, statements: Finds[]): Part {
    const found = byBest(statements.flatMap((f) => f.rows));
    const adjacency: Adjacency = { before: new Map(), after: new Map() };
    for (const r of statements.flatMap((f) => f.rows)) {
      if (!r.neighbour_of) continue;
      const [earlier, later] = r.neighbour_of.side === 'before' ? [r.memory_id, r.neighbour_of.memoryId] : [r.neighbour_of.memoryId, r.memory_id];
      adjacency.after.set(earlier, later);
      adjacency.before.set(later, earlier);
    }
    const stems = statements.find((f) => f.stems)?.stems ?? [];
    const queryIdf = stems.reduce((sum, s) => sum + s.idf, 0);
    const context = neighbourContext(found, adjacency, this.weights);
    const namesItsSpeaker = speakerOfQuery(text, firstPerson);
    const ranked = new Map<string, Ranked & { text: string }>();
    for (const r of found.values()) {
      ranked.set(r.memory_id, {
        memoryId: r.memory_id,
        text: r.text,
        cosine: r.cosine,
        passageCosine: r.passage_cosine,
        bm25: r.bm25,
        coverage: queryIdf > 0 ? Math.min(1, r.matched_idf / queryIdf) : 0,
        keyCoverage: queryIdf > 0 ? Math.min(1, r.key_idf / queryIdf) : 0,
        trigram: r.trigram,
        context: context.get(r.memory_id) ?? 0,
        namedSpeaker: namesItsSpeaker(r),
      });
    }
    // Trigrams count as lexical evidence where they were searched: a word full text cannot split
    // (statement three), or no stem matched.
    const trigrams = statements.length > 2;
    const fused = fuse([...ranked.values()], this.weights, trigrams);
    const relevant = relevantOf([...ranked.values()], adjacency, this.thresholds);
    return { found, ranked, adjacency, stems, trigrams, fused, relevant };
  }

  /** What `changedForQuestion` leaves out of the versions to show, as shown versions and as the trace lists it. */
  private forQuestion(question: string, versions: readonly Shown[]): { shown: Map<string, Shown>; changes: { memoryId: string; leftOut: string; by: string; rule: string }[] } {
    const apart = new Map(versions.map((v) => [v.memory_id, new Set(v.kept_apart)]));
    // A change of the same pair rolled back at write time (an operator's "these are two things") is not made again here.
    const changes = changedForQuestion(
      question,
      versions.map((v) => ({ memoryId: v.memory_id, text: v.text, speaker: v.speaker, validFrom: v.valid_from })),
      languageOf(question),
    ).filter((c) => !apart.get(c.memoryId)?.has(c.byMemoryId));
    const shown = new Map<string, Shown>();
    for (const v of versions) {
      const mine = changes.filter((c) => c.memoryId === v.memory_id);
      if (mine.length === 0) continue;
      shown.set(v.memory_id, {
        ...v,
        text: withoutParts(
          v.text,
          mine.map((c) => c.part),
        ),
        replaced_by: [...new Set([...v.replaced_by, ...mine.map((c) => c.byMemoryId)])],
      });
    }
    const seen = new Set<string>();
    const listed = changes.filter((c) => !seen.has(`${c.memoryId}:${c.part.start}`) && seen.add(`${c.memoryId}:${c.part.start}`));
    return { shown, changes: listed.map((c) => ({ memoryId: c.memoryId, leftOut: c.part.text, by: c.byMemoryId, rule: c.rule })) };
  }

  /**
   * Why each of these memories is no longer confirmed, where one is (MemoryUnconfirmed: what it hung
   * on changed), in words a reader can check: what it hung on (its key, where it has one) and what
   * took its place, as it reads now, with the day it was said (an erased one is simply not there).
   * The old premise's words are not repeated: the context says what holds, and the change is that it
   * no longer does. One prepared look-up, which the partial index of marked memories
   * (fl_memories_unconfirmed) answers from the few marked rows: on a recall of memories none of
   * which is marked it reads no memory row.
   */
  private async unconfirmedOf(tenant: string, memoryIds: string[]): Promise<Map<string, string>> {
    if (memoryIds.length === 0) return new Map();
    const rows = await sql<{ memory_id: string; subject: string | null; relation: string | null; by: string | null; by_said: Date | null }>`${PREPARED}
      SELECT m.memory_id, p.subject, p.relation, b.text AS by, b.said_at AS by_said
      FROM fl_read_memories m
      LEFT JOIN fl_read_memories p ON p.tenant = m.tenant AND p.memory_id = m.unconfirmed->>'premise'
      LEFT JOIN fl_read_memories b ON b.tenant = m.tenant AND b.memory_id = m.unconfirmed->>'by'
      WHERE m.tenant = ${tenant} AND m.memory_id = ANY(${memoryIds}::text[]) AND m.unconfirmed IS NOT NULL`.execute(this.db);
    return new Map(
      rows.rows.map((r) => {
        const what = r.subject && r.relation ? `what it hung on (${r.subject} · ${r.relation})` : 'what it hung on';
        return [r.memory_id, r.by ? `unconfirmed: ${what} changed, now "${r.by}" (${new Date(r.by_said!).toISOString().slice(0, 10)})` : `unconfirmed: ${what} no longer holds`];
      }),
    );
  }

  /** The retired memories that the given ones replaced, with the reason their retirement gave. */
  private async replacedBy(tenant: string, memoryIds: string[]): Promise<{ memory_id: string; superseded_by: string; reason: string }[]> {
    if (memoryIds.length === 0) return [];
    const rows = await this.db
      .selectFrom('fl_read_memories')
      .select(['memory_id', 'superseded_by'])
      .where('tenant', '=', tenant)
      .where((eb) => eb.ref('retracted'))
      .where('superseded_by', '=', sql<string>`ANY(${memoryIds}::text[])`)
      .$narrowType<{ superseded_by: string }>()
      .execute();
    return rows.map((r) => ({ ...r, reason: 'a restatement or a change in other words (its history has the rule)' }));
  }

  /** A stored assembly trace, stage by stage; UnknownTraceError when absent (or another tenant's). */
  async trace(tenant: string, id: string): Promise<Record<string, unknown>> {
    return this.traces.read(tenant, id);
  }

  /** Deletes traces recorded before `before` (the retention period); returns how many. */
  purgeTraces(before: Date): Promise<number> {
    return this.traces.purge(before);
  }
}
