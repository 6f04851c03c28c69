/**
 * The candidate pool of an assembly: the statements that find versions for one sub-query
 * (nearest embeddings, BM25 over English stems with the neighbouring turns of the best, trigrams,
 * core versions, and fresh ones: changed since the recall index's checkpoint, by
 * fl_read_memories.last_position), each returning its finds ready to show and scored every way, and
 * the one statement that re-reads them when the finds cannot be trusted to come from one state
 * of the facts.
 *
 * How BM25 is computed. The query's stems (PostgreSQL's English configuration) get their rarity
 * from fl_recall_terms: idf = ln(1 + (N + 10 − df + ½) / (df + ½)) over the tenant's N indexed
 * versions and ten of background that hold none of them: in a tenant of a handful of memories a
 * stem in all of them would otherwise weigh nothing ("numpy" in both the old and the new pin). A version's score is Σ idf of the stems it holds × (k1 + 1) / (1 + k1 · (1 − b + b ·
 * stems / average stems)): Okapi BM25 with every term counted once, which is what short memories
 * hold. Candidates come from the GIN index: every version holding one of the query's rarer stems
 * (rarest first, while together they occur in at most `scan` versions), or, when even the rarest
 * is that common, the versions holding all of them; the best by BM25 are kept.
 *
 * Why the finds can usually be shown as found. The retrievers run side by side on connections of
 * their own, so each reads its own snapshot. A version superseded between two of them could
 * otherwise be shown beside the version that replaced it. Each statement therefore also returns
 * the state of the facts it read: the highest log position among the tenant's memories and among
 * its erased ones, and the facts checkpoint row's transaction id. Every change to a tenant's fact
 * tables commits either with an event applied inline (which sets its memory's last position, or
 * records its erasure, at that event's position, drawn in commit order: see
 * postgres-event-store.ts) or with the runner's checkpoint write (which rewrites that row). Two
 * snapshots that agree on all three have seen the same fact tables; when every statement that
 * found something agrees, the finds are one state. When they do not, `recheck` reads the versions
 * to show again, in one snapshot.
 */
import { type HiddenPart, hiddenAt } from '@factledger/domain';
import type { Embedder } from '@factledger/embeddings';
import { toVectorBinary } from '@factledger/embeddings';
import { type AsOf, asOfSql, type CheckpointLagRow } from '@factledger/projections';
import { type Executor, type RecallSlice, slice } from '@factledger/store';
import { type Kysely, type RawBuilder, sql } from 'kysely';
import { DEFAULT_LEXICAL, type Finds, type Found, type LexicalOptions, type QueryStem, type Replaced, settled, type Shown, shownText, trigramWords } from './candidates';
import { needsTrigrams } from './query-hygiene';
import { RECALL_INDEX } from './recall-indexer';

/** The projection whose tables say what is visible (see postgres-fact-projection.ts). */
const FACTS = 'facts';

/** Documents of background added to a tenant's count for IDF (see the module's note). */
export const IDF_BACKGROUND = 10;

/** How many of the best BM25 finds send their embeddings along (for diversity). */
const LEXICAL_VECTORS = 20;

/** How many memories changed by one write are looked at for what its new memory replaced (a message's writes change a handful). */
const SAME_WRITE = 16;

/** A row of `replaced`'s statement. */
interface ReplacedRow {
  memory_id: string;
  successor: string;
  step: number | string;
  link: string;
  text: string;
  type: string;
  speaker: string;
  source: string | null;
  valid_from: Date | string;
  valid_to: Date | string | null;
  said_at: Date | string;
  hidden_parts: HiddenPart[] | null;
}

interface FoundRow extends Omit<Found, 'vector' | 'neighbour_of' | 'bm25' | 'matched_idf' | 'key_idf'> {
  /** Statements of the memory that newer ones replaced (fl_memories.hidden_parts). */
  hidden_parts: HiddenPart[] | null;
  /** [Σ idf of the stems matched by text and key, Σ idf of those matched by the key]. */
  idfs: [number, number];
  /** The embedding in pgvector's binary form, base64 (results arrive as text). */
  vec: string | null;
  /** BM25's length factor of the row: bm25 = matched_idf × norm. */
  norm: number;
  state: string | null;
  lag?: CheckpointLagRow;
  stems?: QueryStem[] | null;
  /** `before:<memory id>` or `after:<memory id>` for a neighbour. */
  role?: string | null;
}

/** A stem as a tsquery literal: quoted, with quotes and backslashes escaped (tsquery's own syntax). */
const literal = (stem: RawBuilder<unknown>) => sql`(chr(39) || replace(replace(${stem}, chr(92), chr(92) || chr(92)), chr(39), chr(39) || chr(39)) || chr(39))`;

/**
 * Where the index's lag comes from: a statement the finding statement reads as a subquery (same
 * snapshot), or, where the log is not a table of this database, a read of its own beside it.
 */
export interface IndexLagSource {
  lagStatement(): RawBuilder<CheckpointLagRow> | null;
  lagRow(): Promise<CheckpointLagRow>;
}

export class CandidatePool {
  private readonly lexical: LexicalOptions;
  /** Where the finding statements run (Database.search: prepared, planned once). */
  private readonly search: Kysely<RecallSlice>;

  constructor(
    search: Executor,
    private readonly embedder: Embedder,
    private readonly lagSource: IndexLagSource,
    /** Candidates the nearest-neighbour and trigram retrievers contribute per sub-query. */
    private readonly poolSize = 40,
    lexical: Partial<LexicalOptions> = {},
  ) {
    this.search = slice(search);
    if (!Number.isSafeInteger(poolSize) || poolSize < 1) throw new RangeError(`poolSize must be a positive integer, got ${poolSize}`);
    this.lexical = { ...DEFAULT_LEXICAL, ...lexical };
    const { k1, b, scan, keep, neighbourOf, neighbourGapMs } = this.lexical;
    if (!(k1 >= 0) || !(b >= 0 && b <= 1)) throw new RangeError(`BM25 needs k1 ≥ 0 and 0 ≤ b ≤ 1, got k1 ${k1}, b ${b}`);
    for (const [name, v] of Object.entries({ scan, keep, neighbourOf, neighbourGapMs })) {
      if (!Number.isSafeInteger(v) || v < 0) throw new RangeError(`${name} must be a whole number ≥ 0, got ${v}`);
    }
  }

  /**
   * The finds for one sub-query, restricted to the versions visible at (validAt, knownAt): the top
   * versions of each retriever — nearest embeddings (HNSW, iterative scan so that the visibility
   * filter cannot starve it), best BM25 (with the turns said just before and after the best of
   * them), best trigram word similarity — plus the core versions (profile) and the versions written
   * since the index's checkpoint (fresh). Each comes with every score, computed by the statement
   * that found it from the row it already holds: cosine similarity (null when not embedded yet),
   * BM25 and the IDF it matched, trigram word similarity (where it can count). One Finds per
   * statement; `withLag` adds the index's lag to the first.
   *
   * The statements run side by side on connections of their own (PGlite, one connection, runs them
   * in turn).
   */
  async find(tenant: string, at: AsOf, text: string, vector: Float32Array, words: { distinctive: string[] }, withLag: boolean): Promise<Finds[]> {
    const dims = sql.raw(String(Math.trunc(this.embedder.dimensions)));
    const model = this.embedder.model;
    const { k1, b, scan: scanned, keep, neighbourOf, neighbourGapMs } = this.lexical;
    // Limits and weights are written into the statement, not passed: a plan made without the
    // parameters' values (see Database.search) must still know how few rows are wanted.
    const k = sql.raw(String(this.poolSize));
    const scan = sql.raw(String(scanned));
    const trigramOf = (glue: string) =>
      sql.join(
        trigramWords(words.distinctive).map((t) => sql`${t} <% i.text`),
        sql.raw(` ${glue} `),
      );
    const q = toVectorBinary(vector);
    const shown = this.shownAt(tenant, at);
    // The stems of the sub-query with their rarity (CTE `terms`, each with its tsquery), and the
    // corpus they are rare in (CTE `corpus`): defined once per statement, see `run`.
    const bm25 = (stems: RawBuilder<unknown>) => sql`(SELECT coalesce(sum(t.idf), 0) FROM terms t WHERE ${stems} @@ t.q)`;
    // Both sums in one pass over the stems: by text and key, and by the key alone.
    const idfs = (stems: RawBuilder<unknown>, keyStems: RawBuilder<unknown>) =>
      sql`(SELECT ARRAY[coalesce(sum(t.idf), 0), coalesce(sum(t.idf) FILTER (WHERE ${keyStems} @@ t.q), 0)] FROM terms t WHERE ${stems} @@ t.q)`;
    const lengthNorm = (stems: RawBuilder<unknown>) =>
      sql`(${sql.raw(String(k1 + 1))} / (1 + ${sql.raw(String(k1))} * (1 - ${sql.raw(String(b))} + ${sql.raw(String(b))} * length(${stems}) / (SELECT avglen FROM corpus))))`;
    // Trigram similarity is scored where it can count: when a distinctive word is not Latin (so
    // stems may miss it) and in the trigram statement itself. Elsewhere pg_trgm would build the
    // question's trigrams again for every row (~15 µs a row) for a score fusion does not use.
    const needTrigrams = words.distinctive.some(needsTrigrams);
    const trigramScore = (of: RawBuilder<unknown>, wanted: boolean) => (wanted ? sql`word_similarity(${text}, ${of})` : sql`0::real`);
    // Every score of an index row (alias `i`) but its embedding: cosine, the IDF its stems match
    // and its BM25 length factor, trigram similarity; the version as shown; the memory's said
    // time from the index row (looked up for a row indexed before migration 013).
    // A conversation turn's best passage (migration 020), by its primary key: prose rows only
    // (a fact is one sentence, and has none).
    const passageCosine = (row: string) => {
      const r = sql.raw(row);
      return sql`CASE WHEN ${r}.kind = 'prose' THEN (SELECT max(1 - (p.embedding <=> ${q}::vector)) FROM fl_recall_passages p
        WHERE p.tenant = ${tenant} AND p.memory_id = ${r}.memory_id AND p.model = ${model}) END`;
    };
    const scores = (trigram: boolean) => sql`i.text, true AS embedded, 1 - (i.embedding <=> ${q}::vector) AS cosine, ${passageCosine('i')} AS passage_cosine,
      ${idfs(sql`i.stems`, sql`i.key_stems`)} AS idfs, ${lengthNorm(sql`i.stems`)} AS norm, ${trigramScore(sql`i.text`, trigram)} AS trigram, v.type, v.speaker, v.source, v.valid_from, v.hidden_parts,
      coalesce(i.said_at, (SELECT m.said_at FROM fl_read_memories m WHERE m.tenant = ${tenant} AND m.memory_id = i.memory_id)) AS said_at, false AS core, i.kind`;
    // The embedding, for diversity, in pgvector's binary form as base64 (a third of the characters
    // of its text form, and no float parsing).
    const vec = (embedding: RawBuilder<unknown>) => sql`encode(vector_send(${embedding}), 'base64')`;
    const columns = sql`i.memory_id, i.embedding, i.stems, i.key_stems, i.text, i.said_at, i.kind`;
    // The first few hundred index rows that match, ranked by `rank`; the best visible ones are
    // kept (visibility is checked in rank order, only until enough pass). Their embeddings and
    // ranks stay inside (`emb`, `rank`), for the statement around it to choose what it sends.
    const bestVisible = (matches: RawBuilder<unknown>, rank: RawBuilder<unknown>, trigram: boolean, limit: RawBuilder<unknown>) => sql<FoundRow>`
      SELECT i.memory_id, ${scores(trigram)}, i.embedding AS emb, i.rank FROM (
        SELECT i.*, ${rank} AS rank FROM (
          SELECT ${columns} FROM fl_recall_index i
          WHERE i.tenant = ${tenant} AND i.model = ${model} AND ${matches} LIMIT ${scan}) i
        ORDER BY rank DESC, i.memory_id) i
      JOIN ${shown(sql.ref('i.memory_id'))} ON true ORDER BY i.rank DESC, i.memory_id LIMIT ${limit}`;
    /** A find's columns as every statement returns them, in one order (the statements' rows are unions). */
    const out = (alias: string, vector: RawBuilder<unknown>, role: RawBuilder<unknown> = sql`NULL::text`) => {
      const a = sql.raw(alias);
      return sql`${a}.memory_id, ${a}.text, ${a}.embedded, ${vector} AS vec, ${a}.cosine, ${a}.passage_cosine, ${a}.idfs, ${a}.norm, ${a}.trigram, ${a}.type, ${a}.speaker,
        ${a}.source, ${a}.valid_from, ${a}.said_at, ${a}.core, ${a}.kind, ${role} AS role, ${a}.hidden_parts`;
    };
    // Any visible index row that matches, unranked: a fallback when no row matched them all.
    const anyVisible = (matches: RawBuilder<unknown>) =>
      sql<FoundRow>`SELECT ${out('f', vec(sql`f.emb`))} FROM (SELECT i.memory_id, ${scores(true)}, i.embedding AS emb FROM fl_recall_index i JOIN ${shown(sql.ref('i.memory_id'))} ON true
        WHERE i.tenant = ${tenant} AND i.model = ${model} AND ${matches} LIMIT ${k}) f`;

    const nearest = sql<FoundRow>`
      SELECT ${out('f', vec(sql`f.emb`))} FROM (
        SELECT i.memory_id, ${scores(needTrigrams)}, i.embedding AS emb FROM fl_recall_index i JOIN ${shown(sql.ref('i.memory_id'))} ON true
        WHERE i.tenant = ${tenant} AND i.model = ${model} AND i.dimensions = ${dims}
        ORDER BY i.embedding::vector(${dims}) <=> ${q}::vector(${dims}) LIMIT ${k}) f`;
    // The versions whose passages are nearest (a long turn's one sentence a question asks about).
    const nearestPassages = sql<FoundRow>`
      SELECT ${out('f', vec(sql`f.emb`))} FROM (
        SELECT i.memory_id, ${scores(needTrigrams)}, i.embedding AS emb FROM (
          SELECT DISTINCT p.memory_id FROM (
            SELECT p.memory_id FROM fl_recall_passages p JOIN ${shown(sql.ref('p.memory_id'))} ON true
            WHERE p.tenant = ${tenant} AND p.model = ${model} AND p.dimensions = ${dims}
            ORDER BY p.embedding::vector(${dims}) <=> ${q}::vector(${dims}) LIMIT ${k}) p) p
        JOIN fl_recall_index i ON i.tenant = ${tenant} AND i.model = ${model} AND i.memory_id = p.memory_id
        JOIN ${shown(sql.ref('i.memory_id'))} ON true) f`;
    // BM25: the rarer stems' hits (or, when every stem is common, the rows holding them all),
    // scored and ranked; then the turns said just before and after the best prose finds.
    const picked = sql`(SELECT CASE WHEN min(docs) <= ${scan}
        THEN (SELECT string_agg(lit, ' | ') FROM (SELECT lit, sum(docs) OVER w AS together, row_number() OVER w AS n FROM terms WHERE docs > 0 WINDOW w AS (ORDER BY docs, stem)) r
              WHERE together <= ${scan} OR n = 1)
        ELSE string_agg(lit, ' & ') END::tsquery FROM terms WHERE docs > 0)`;
    const gap = sql.raw(`interval '${Math.trunc(neighbourGapMs)} milliseconds'`);
    const beside = (side: 'before' | 'after') => {
      const [cmp, order] = side === 'before' ? ['<', 'DESC'] : ['>', 'ASC'];
      const within = side === 'before' ? sql`i.said_at >= f.said_at - ${gap}` : sql`i.said_at <= f.said_at + ${gap}`;
      return sql`SELECT ${out('n', vec(sql`n.emb`), sql`${side + ':'} || f.memory_id`)} FROM near f, LATERAL (
          SELECT i.memory_id, ${scores(needTrigrams)}, i.embedding AS emb FROM fl_recall_index i JOIN ${shown(sql.ref('i.memory_id'))} ON true
          WHERE i.tenant = ${tenant} AND i.model = ${model} AND i.kind = 'prose'
            AND (i.said_at, i.memory_id) ${sql.raw(cmp)} (f.said_at, f.memory_id) AND ${within}
          ORDER BY i.said_at ${sql.raw(order)}, i.memory_id ${sql.raw(order)} LIMIT 1) n`;
    };
    // Only the best BM25 finds send their embeddings (the others could reach diversity only
    // through the nearest statement, which sends every one it finds).
    const lexical = sql<FoundRow>`
      WITH found AS (${bestVisible(sql`i.stems @@ ${picked}`, sql`${bm25(sql`i.stems`)} * ${lengthNorm(sql`i.stems`)}`, needTrigrams, sql.raw(String(keep)))}),
      near AS (SELECT memory_id, said_at FROM found WHERE kind = 'prose' AND idfs[1] > 0 ORDER BY rank DESC, memory_id LIMIT ${sql.raw(String(neighbourOf))})
      SELECT ${out('f', sql`CASE WHEN f.n <= ${sql.raw(String(LEXICAL_VECTORS))} THEN ${vec(sql`f.emb`)} END`)} FROM (SELECT found.*, row_number() OVER (ORDER BY rank DESC, memory_id) AS n FROM found) f
      UNION ALL (${beside('before')})
      UNION ALL (${beside('after')})`;
    // Trigrams find what exact stems miss: a misspelt name, an identifier cut differently, a
    // Korean word with its particle. Rows holding every distinctive word alike, ranked; only when
    // none does, any holding one of them.
    const trigrams = async (): Promise<Finds> => {
      if (!words.distinctive.length) return { rows: [], state: null, lag: null, stems: null };
      const all = await this.run(
        tenant,
        at,
        text,
        sql<FoundRow>`SELECT ${out('f', vec(sql`f.emb`))} FROM (${bestVisible(sql`(${trigramOf('AND')})`, sql`word_similarity(${text}, i.text)`, true, k)}) f`,
      );
      return all.rows.length ? all : this.run(tenant, at, text, anyVisible(sql`(${trigramOf('OR')})`));
    };
    // When BM25 found versions and every distinctive word is Latin (which the parser splits as
    // written), the trigram search is skipped: for a common name or a short number it costs more
    // than the whole rest of the assembly (a GIN bitmap of every text sharing its trigrams).
    // Otherwise it runs beside the others from the start.
    const early = needTrigrams ? trigrams() : null;
    // The core versions (profile), and the versions written since the index's checkpoint (fresh),
    // which may not be indexed yet: scored from their text.
    const fresh = sql`to_tsvector('english', v.text)`;
    const standing = sql<FoundRow>`
      SELECT s.memory_id, v.text, i.memory_id IS NOT NULL AS embedded, ${vec(sql`i.embedding`)} AS vec,
        CASE WHEN i.embedding IS NULL THEN NULL ELSE 1 - (i.embedding <=> ${q}::vector) END AS cosine, ${passageCosine('i')} AS passage_cosine,
        ${idfs(sql`coalesce(i.stems, ${fresh})`, sql`coalesce(i.key_stems, ''::tsvector)`)} AS idfs, ${lengthNorm(sql`coalesce(i.stems, ${fresh})`)} AS norm,
        ${trigramScore(sql`v.text`, needTrigrams)} AS trigram, v.type, v.speaker, v.source, v.valid_from, m.said_at, m.core, m.kind, NULL::text AS role, v.hidden_parts
      FROM (
        SELECT m.memory_id FROM fl_read_memories m WHERE m.tenant = ${tenant} AND m.core
        UNION
        SELECT r.memory_id FROM (
          SELECT m.memory_id FROM fl_read_memories m
          WHERE m.tenant = ${tenant} AND m.last_position > coalesce((SELECT prepare FROM fl_read_checkpoints WHERE name = ${RECALL_INDEX}), 0)
          ORDER BY m.last_position DESC LIMIT 200) r) s
      JOIN ${shown(sql.ref('s.memory_id'))} ON true
      JOIN fl_read_memories m ON m.tenant = ${tenant} AND m.memory_id = s.memory_id
      LEFT JOIN fl_recall_index i ON i.tenant = ${tenant} AND i.memory_id = s.memory_id AND i.model = ${model}`;
    // The nearest versions and passages and the standing versions in one statement (fewer round trips), BM25 beside it.
    const [nearAndStanding, worded, alikeEarly] = await settled([
      this.run(tenant, at, text, sql<FoundRow>`(${nearest}) UNION ALL (${nearestPassages}) UNION ALL (${standing})`, withLag),
      this.run(tenant, at, text, lexical),
      early ?? Promise.resolve(null),
    ]);
    const alike = alikeEarly ?? (worded.rows.length ? null : await trigrams());
    return alike ? [nearAndStanding, worded, alike] : [nearAndStanding, worded];
  }

  /**
   * The versions of `show` visible at (validAt, knownAt), as shown, read in one snapshot, and the
   * index's lag: for finds that did not all read one state of the facts (see the module's note).
   */
  async recheck(tenant: string, at: AsOf, show: string[]): Promise<{ shown: Map<string, Shown>; lag: CheckpointLagRow }> {
    const statement = this.lagSource.lagStatement();
    const outside = statement ? null : this.lagSource.lagRow();
    outside?.catch(() => undefined); // awaited below; a failure must not also go unhandled
    const row = await sql<{
      shown: (Omit<Shown, 'said_at' | 'valid_from' | 'replaced_by' | 'kept_apart'> & { said_at: string; valid_from: string; hidden_parts: HiddenPart[] | null })[];
      lag: CheckpointLagRow;
    }>`
      SELECT
        (SELECT coalesce(json_agg(s), '[]') FROM (
          SELECT p.memory_id, v.text, v.type, v.speaker, v.source, v.valid_from, m.said_at, v.hidden_parts
          FROM unnest(${show}::text[]) AS p(memory_id) JOIN ${this.shownAt(tenant, at)(sql.ref('p.memory_id'))} ON true
          JOIN fl_read_memories m ON m.tenant = ${tenant} AND m.memory_id = p.memory_id) s) AS shown,
        ${statement ? sql`(SELECT row_to_json(l) FROM (${statement}) l)` : sql`NULL::json`} AS lag`.execute(this.search);
    const r = row.rows[0]!;
    const shown = r.shown.map(({ hidden_parts, ...s }) => ({ ...s, ...shownText(s.text, hidden_parts, at), said_at: new Date(s.said_at), valid_from: new Date(s.valid_from) }));
    return { shown: new Map(shown.map((s) => [s.memory_id, s])), lag: outside ? await outside : r.lag };
  }

  /**
   * The versions the given memories replaced, and the ones those replaced, up to `steps` back: for
   * a question over time (@factledger/domain over-time.ts). A version is found through what
   * retired it (see `Replaced['link']`), and shown as the history held it at `knownAt`: only a
   * version on record then, active, whose valid period had begun by `validAt` and (unless only a
   * statement of it was replaced) had ended by then. One statement, recursive.
   */
  async replaced(tenant: string, at: AsOf, heads: string[], steps: number): Promise<Replaced[]> {
    if (heads.length === 0 || steps < 1) return [];
    const validAt = at.validAt.toISOString();
    const knownAt = at.knownAt.toISOString();
    // The log position of the write that recorded a memory (its first history row).
    const written = (memoryId: RawBuilder<unknown>) => sql`(SELECT min(h.opened_by) FROM fl_read_history h WHERE h.tenant = ${tenant} AND h.memory_id = ${memoryId})`;
    const rows = await sql<ReplacedRow>`
      WITH RECURSIVE chain (memory_id, successor, step, link, stream_id, speaker, recorded_at, said_at, valid_from, text, written) AS (
        SELECT m.memory_id, NULL::text, 0, NULL::text, m.stream_id, m.speaker, m.recorded_at, m.said_at, m.valid_from, m.text, ${written(sql.ref('m.memory_id'))}
        FROM fl_read_memories m WHERE m.tenant = ${tenant} AND m.memory_id = ANY(${heads}::text[])
        UNION ALL
        SELECT m.memory_id, c.memory_id, c.step + 1, p.link, m.stream_id, m.speaker, m.recorded_at, m.said_at, m.valid_from, m.text, ${written(sql.ref('m.memory_id'))}
        FROM chain c
        CROSS JOIN LATERAL (
          SELECT r.memory_id, 'superseded' AS link FROM fl_read_memories r WHERE r.tenant = ${tenant} AND r.retracted AND r.superseded_by = c.memory_id
          UNION
          SELECT r.memory_id, 'superseded' FROM fl_read_memories r WHERE r.tenant = ${tenant} AND r.stream_id = c.stream_id AND r.superseded_by = c.memory_id
          UNION
          -- What the write that recorded it changed: the memories last changed just after its assert, at its recorded time.
          -- Retired there with no successor named: only one that shares a word (an English stem) with it,
          -- not a memory of another topic the same write retired for another reason.
          SELECT w.memory_id, CASE WHEN w.retracted THEN 'retired' ELSE 'parts' END FROM (
            SELECT r.memory_id, r.retracted, r.superseded_by, r.valid_to, r.updated_at, r.speaker, r.hidden_parts, r.text FROM fl_read_memories r
            WHERE r.tenant = ${tenant} AND r.last_position > c.written ORDER BY r.last_position LIMIT ${sql.raw(String(SAME_WRITE))}) w
          WHERE w.updated_at = c.recorded_at AND w.speaker = c.speaker AND w.memory_id <> c.memory_id
            AND ((w.retracted AND w.superseded_by IS NULL AND w.valid_to IN (c.valid_from, c.said_at)
                AND tsvector_to_array(to_tsvector('english', w.text)) && tsvector_to_array(to_tsvector('english', c.text)))
              OR w.hidden_parts @> jsonb_build_array(jsonb_build_object('by', c.memory_id)))
        ) p
        JOIN fl_read_memories m ON m.tenant = ${tenant} AND m.memory_id = p.memory_id
        WHERE c.step < ${sql.raw(String(Math.trunc(steps)))}
      )
      SELECT c.memory_id, c.successor, c.step, c.link, v.text, v.type, v.speaker, v.source, v.valid_from, v.valid_to, c.said_at,
        CASE WHEN c.link = 'parts' THEN (SELECT m.hidden_parts FROM fl_read_memories m WHERE m.tenant = ${tenant} AND m.memory_id = c.memory_id) END AS hidden_parts
      FROM chain c
      JOIN LATERAL (
        SELECT h.text, h.type, h.speaker, h.source, lower(h.valid) AS valid_from, CASE WHEN upper_inf(h.valid) THEN NULL ELSE upper(h.valid) END AS valid_to
        FROM fl_read_history h
        WHERE h.tenant = ${tenant} AND h.memory_id = c.memory_id AND h.status = 'active' AND h.tx @> ${knownAt}::timestamptz
          AND lower(h.valid) <= ${validAt}::timestamptz AND (c.link = 'parts' OR upper(h.valid) <= ${validAt}::timestamptz)
        ORDER BY lower(h.valid) DESC LIMIT 1) v ON true
      WHERE c.step > 0
      ORDER BY c.step, c.said_at DESC, c.memory_id`.execute(this.search);
    const out: Replaced[] = [];
    for (const r of rows.rows) {
      const link = r.link as Replaced['link'];
      // A statement replaced: only where it was hidden at (validAt, knownAt) by the one after it.
      if (link === 'parts' && !hiddenAt(r.hidden_parts ?? [], at.validAt.getTime(), at.knownAt.getTime()).some((p) => p.by === r.successor)) continue;
      out.push({
        memory_id: r.memory_id,
        text: r.text,
        type: r.type,
        speaker: r.speaker,
        source: r.source,
        said_at: new Date(r.said_at),
        valid_from: new Date(r.valid_from),
        valid_to: link === 'parts' || r.valid_to === null ? null : new Date(r.valid_to),
        replaced_by: [],
        kept_apart: [],
        successor: r.successor,
        step: Number(r.step),
        link,
      });
    }
    return out;
  }

  /**
   * The version of a memory visible at (validAt, knownAt) — active, valid then, and on record then
   * — as shown (alias `v`: text, type, speaker, source, start of its valid period); none when no
   * version is. A LATERAL subquery, joined: it filters. Its LIMIT keeps it a lookup per row found,
   * whatever the plan (without one the planner may turn it into a join that reads the whole
   * history).
   */
  private shownAt(tenant: string, at: AsOf) {
    return (memoryId: RawBuilder<unknown>) => sql`LATERAL (
      SELECT h.text, h.type, h.speaker, h.source, lower(h.valid) AS valid_from,
        -- Only prose has statements a newer one can replace: a fact's row needs no second look-up.
        CASE WHEN h.kind = 'prose' THEN (SELECT m.hidden_parts FROM fl_read_memories m WHERE m.tenant = ${tenant} AND m.memory_id = ${memoryId}) END AS hidden_parts
      FROM fl_read_history h
      WHERE h.tenant = ${tenant} AND h.memory_id = ${memoryId} AND h.status = 'active'
        AND ${asOfSql(at, 'h')} LIMIT 1) v`;
  }

  /**
   * Runs one finding statement with the sub-query's stems and their rarity in scope (CTEs `corpus`
   * and `terms`), adding the state of the facts it read, the stems as weighed (on its first row),
   * and the index's lag.
   */
  private async run(tenant: string, at: AsOf, text: string, query: RawBuilder<FoundRow>, withLag = false): Promise<Finds> {
    const model = this.embedder.model;
    const statement = withLag ? this.lagSource.lagStatement() : null;
    const lag = statement ? sql`, (SELECT row_to_json(l) FROM (${statement}) l) AS lag` : sql``;
    const outside = withLag && !statement ? this.lagSource.lagRow() : null;
    outside?.catch(() => undefined); // awaited below; a failure must not also go unhandled
    const rows = (
      await sql<FoundRow>`
        WITH corpus AS (
          SELECT coalesce(max(c.docs), 0)::float8 AS docs, coalesce(max(c.stems)::float8 / nullif(max(c.docs), 0), 1) AS avglen
          FROM fl_recall_corpus c WHERE c.tenant = ${tenant} AND c.model = ${model}),
        terms AS MATERIALIZED (
          SELECT x.lexeme AS stem, coalesce(s.docs, 0) AS docs, ${literal(sql.ref('x.lexeme'))} AS lit,
            ${literal(sql.ref('x.lexeme'))}::tsquery AS q,
            ln(1 + (greatest((SELECT docs FROM corpus) + ${sql.raw(String(IDF_BACKGROUND))} - coalesce(s.docs, 0), 0) + 0.5) / (coalesce(s.docs, 0) + 0.5)) AS idf
          FROM unnest(to_tsvector('english', ${text})) x
          LEFT JOIN fl_recall_terms s ON s.tenant = ${tenant} AND s.model = ${model} AND s.stem = x.lexeme)
        SELECT f.*, concat_ws('/', (SELECT max(last_position) FROM fl_read_memories WHERE tenant = ${tenant}), (SELECT max(position) FROM fl_read_erased WHERE tenant = ${tenant}),
            coalesce((SELECT row_version FROM fl_read_checkpoints WHERE name = ${FACTS}), '-')) AS state,
          CASE WHEN row_number() OVER () = 1 THEN (SELECT json_agg(json_build_object('stem', stem, 'docs', docs, 'idf', idf) ORDER BY idf DESC) FROM terms) END AS stems ${lag}
        FROM (${query}) f`.execute(this.search)
    ).rows;
    const first = rows[0];
    return {
      rows: rows.map((r) => {
        const colon = r.role ? r.role.indexOf(':') : -1;
        const side = colon > 0 ? r.role!.slice(0, colon) : null;
        const [matched, keyed] = r.idfs.map(Number) as [number, number];
        return {
          memory_id: r.memory_id,
          ...shownText(r.text, r.hidden_parts, at),
          type: r.type,
          speaker: r.speaker,
          source: r.source,
          said_at: r.said_at,
          valid_from: r.valid_from,
          core: r.core,
          kind: r.kind,
          embedded: r.embedded,
          embedding: r.vec ?? null,
          cosine: r.cosine === null ? null : Number(r.cosine),
          passage_cosine: r.passage_cosine === null ? null : Number(r.passage_cosine),
          bm25: matched * Number(r.norm),
          matched_idf: matched,
          key_idf: keyed,
          trigram: Number(r.trigram),
          neighbour_of: side === 'before' || side === 'after' ? { memoryId: r.role!.slice(colon + 1), side } : null,
        };
      }),
      state: first?.state ?? null,
      lag: first ? ((outside ? await outside : first.lag) ?? null) : null,
      stems: first?.stems ? first.stems.map((t) => ({ stem: t.stem, docs: Number(t.docs), idf: Number(t.idf) })) : null,
    };
  }
}
