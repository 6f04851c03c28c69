/**
 * The candidate pool of an assembly: the statements that find versions for one sub-query
 * (nearest embeddings, full text, trigrams, core and fresh versions), each returning its finds
 * ready to show, and the one statement that re-reads them when the finds cannot be trusted to
 * come from one state of the facts.
 *
 * Why the finds can usually be shown as found. The retrievers run side by side on connections of
 * their own, so each reads its own snapshot. A version superseded between two of them could
 * otherwise be shown beside the version that replaced it. Each statement therefore also returns
 * the state of the facts it read: the log's head and the facts checkpoint row's transaction id.
 * Every change to the fact tables commits either with an append (which moves the head: positions
 * are drawn in commit order, see postgres-event-store.ts) or with the runner's checkpoint write
 * (which rewrites that row). Two snapshots with the same head and the same row version have seen
 * the same fact tables; when every statement that found something agrees, the finds are one
 * state. When they do not, `recheck` reads the versions to show again, in one snapshot.
 */
import type { Embedder } from '@factledger/embeddings';
import { fromVectorBinary, toVectorBinary } from '@factledger/embeddings';
import type { CheckpointLagRow } from '@factledger/projections';
import { type Kysely, type RawBuilder, sql } from 'kysely';
import { needsTrigrams } from './query-hygiene';
import { RECALL_INDEX } from './recall-indexer';

/** The projection whose tables say what is visible (see postgres-fact-projection.ts). */
const FACTS = 'facts';

export interface AsOf {
  validAt: Date;
  knownAt: Date;
}

/** A version as shown: what it says, who said it, where from, and when the memory was recorded. */
export interface Shown {
  memory_id: string;
  text: string;
  type: string;
  speaker: string;
  source: string | null;
  recorded_at: Date;
}

/**
 * A candidate as its statement found it: the version as shown, its three scores against one
 * sub-query, whether the index holds its embedding (and the embedding itself, for diversity), and
 * whether it is core (said by the standing statement, which finds every core version; the
 * retrievers leave it false).
 */
export interface Found extends Shown {
  embedded: boolean;
  vector: Float32Array | null;
  cosine: number | null;
  text_rank: number;
  trigram: number;
  core: boolean;
}

/** What one statement found, and the state of the facts it read (null when it found nothing). */
export interface Finds {
  rows: Found[];
  state: string | null;
  /** The index's lag, from the statement asked for it (see find's `withLag`). */
  lag: CheckpointLagRow | null;
}

/**
 * The distinctive words a trigram search looks for: the first eight. Each word is a condition of
 * the statement's text, and each text is prepared once per search connection (Database.search),
 * so the count must be bounded; a memory alike in eight distinctive words is singled out anyway.
 */
export const trigramWords = (distinctive: readonly string[]): string[] => distinctive.slice(0, 8);

/** True when every statement that found something read the same state of the facts. */
export function oneState(finds: readonly Finds[]): boolean {
  const states = finds.filter((f) => f.rows.length > 0).map((f) => f.state);
  return states.every((s) => s !== null && s === states[0]);
}

/** Each version once, with the best of each score it was found with (copies: the finds stay as found). */
export function byBest(found: Iterable<Found>): Map<string, Found> {
  const out = new Map<string, Found>();
  for (const f of found) {
    const seen = out.get(f.memory_id);
    if (!seen) out.set(f.memory_id, { ...f });
    else {
      seen.cosine = f.cosine === null ? seen.cosine : Math.max(seen.cosine ?? -1, f.cosine);
      seen.text_rank = Math.max(seen.text_rank, f.text_rank);
      seen.trigram = Math.max(seen.trigram, f.trigram);
      seen.embedded ||= f.embedded;
      seen.vector ??= f.vector;
      seen.core ||= f.core;
    }
  }
  return out;
}

interface FoundRow extends Omit<Found, 'vector'> {
  /** The embedding in pgvector's binary form, base64 (results arrive as text). */
  vec: string | null;
  state: string | null;
  lag?: CheckpointLagRow;
}

export class CandidatePool {
  constructor(
    /** Where the finding statements run (Database.search: prepared, planned once). */
    // eslint-disable-next-line @typescript-eslint/no-explicit-any
    private readonly search: Kysely<any>,
    private readonly embedder: Embedder,
    private readonly lagStatement: () => RawBuilder<CheckpointLagRow>,
    /** Candidates each retriever contributes per sub-query. */
    private readonly poolSize = 40,
  ) {
    if (!Number.isSafeInteger(poolSize) || poolSize < 1) throw new RangeError(`poolSize must be a positive integer, got ${poolSize}`);
  }

  /**
   * The finds for one sub-query, restricted to the versions visible at (validAt, knownAt): the top
   * versions of each retriever — nearest embeddings (HNSW, iterative scan so that the visibility
   * filter cannot starve it), best full-text rank, best trigram word similarity — plus the core
   * versions (profile) and the versions written since the index's checkpoint (fresh). Each comes
   * with all three scores, computed by the statement that found it from the row it already holds:
   * cosine similarity (null when not embedded yet), ts_rank of the content words, trigram word
   * similarity. One Finds per statement; `withLag` adds the index's lag to the first.
   *
   * The statements run side by side on connections of their own (PGlite, one connection, runs them
   * in turn).
   */
  async find(tenant: string, at: AsOf, text: string, vector: Float32Array, words: { terms: string[]; distinctive: string[] }, withLag: boolean): Promise<Finds[]> {
    const dims = sql.raw(String(Math.trunc(this.embedder.dimensions)));
    const model = this.embedder.model;
    // Limits are written into the statement, not passed: a plan made without the parameters' values
    // (see Database.search) must still know how few rows are wanted.
    const k = sql.raw(String(this.poolSize));
    // Lexical matches ranked are bounded: a short number or a common name can match thousands,
    // and ranking them all costs more than the rest of the assembly.
    const scan = sql.raw(String(this.poolSize * 5));
    // Scoring: any content word counts. Searching: all of them together, or all distinctive ones
    // together — one common word alone ("service", "port", a common name) matches thousands.
    const anyWord = words.terms.join(' OR ');
    const allWords = words.terms.join(' ');
    const distinctWords = words.distinctive.join(' ');
    const trigramOf = (glue: string) => sql.join(trigramWords(words.distinctive).map((t) => sql`${t} <% i.text`), sql.raw(` ${glue} `));
    const q = toVectorBinary(vector);
    const shown = this.shownAt(tenant, at);
    // The three scores of an index row (alias `i`), or of a version's text not indexed yet; the
    // embedding in pgvector's binary form as base64 (a third of the characters of its text form,
    // and no float parsing); the memory's recorded time from the index row (looked up for a row
    // indexed before migration 013).
    // A query built from a parameter is wrapped in a subquery so that it is built once per
    // statement: in a plan made without the parameters' values (Database.search) it would
    // otherwise be parsed again for every row it is compared with.
    const once = (query: RawBuilder<unknown>) => sql`(SELECT ${query})`;
    const anyQuery = once(sql`websearch_to_tsquery('simple', ${anyWord})`);
    const textRank = (lexemes: RawBuilder<unknown>) => (anyWord ? sql`ts_rank(${lexemes}, ${anyQuery})` : sql`0::real`);
    const scores = sql`i.text, true AS embedded, encode(vector_send(i.embedding), 'base64') AS vec, 1 - (i.embedding <=> ${q}::vector) AS cosine,
      ${textRank(sql`i.lexemes`)} AS text_rank, word_similarity(${text}, i.text) AS trigram, v.type, v.speaker, v.source,
      coalesce(i.recorded_at, (SELECT m.recorded_at FROM fl_memories m WHERE m.tenant = ${tenant} AND m.memory_id = i.memory_id)) AS recorded_at, false AS core`;
    // The first few hundred index rows that match, ranked by `rank`; the best visible ones are
    // kept (visibility is checked in rank order, only until enough pass).
    const bestVisible = (matches: RawBuilder<unknown>, rank: RawBuilder<unknown>) =>
      this.run(sql<FoundRow>`
        SELECT i.memory_id, ${scores} FROM (
          SELECT i.*, ${rank} AS rank FROM (
            SELECT i.memory_id, i.embedding, i.lexemes, i.text, i.recorded_at FROM fl_recall_index i
            WHERE i.tenant = ${tenant} AND i.model = ${model} AND ${matches} LIMIT ${scan}) i
          ORDER BY rank DESC) i
        JOIN ${shown(sql.ref('i.memory_id'))} ON true ORDER BY i.rank DESC LIMIT ${k}`);
    // Any visible index row that matches, unranked: a fallback when no row matched them all.
    const anyVisible = (matches: RawBuilder<unknown>) =>
      this.run(sql<FoundRow>`SELECT i.memory_id, ${scores} FROM fl_recall_index i JOIN ${shown(sql.ref('i.memory_id'))} ON true
        WHERE i.tenant = ${tenant} AND i.model = ${model} AND ${matches} LIMIT ${k}`);

    const nearest = sql<FoundRow>`
      SELECT i.memory_id, ${scores} FROM fl_recall_index i JOIN ${shown(sql.ref('i.memory_id'))} ON true
      WHERE i.tenant = ${tenant} AND i.model = ${model} AND i.dimensions = ${dims}
      ORDER BY i.embedding::vector(${dims}) <=> ${q}::vector(${dims}) LIMIT ${k}`;
    // Full text: rows holding all content words, or all distinctive ones; only when none does,
    // any holding one content word.
    const fullText = async (): Promise<Finds & { allWords: boolean }> => {
      if (!anyWord) return { rows: [], state: null, lag: null, allWords: false };
      const all = await bestVisible(
        sql`i.lexemes @@ ${once(sql`plainto_tsquery('simple', ${allWords}) || plainto_tsquery('simple', ${distinctWords})`)}`,
        textRank(sql`i.lexemes`),
      );
      return all.rows.length
        ? { ...all, allWords: true }
        : { ...(await anyVisible(sql`i.lexemes @@ ${anyQuery}`)), allWords: false };
    };
    // Trigrams find what exact words miss: a misspelt name, an identifier cut differently, a
    // Korean word with its particle. Rows holding every distinctive word alike, ranked; only when
    // none does, any holding one of them.
    const trigrams = async (): Promise<Finds> => {
      if (!words.distinctive.length) return { rows: [], state: null, lag: null };
      const all = await bestVisible(sql`(${trigramOf('AND')})`, sql`word_similarity(${text}, i.text)`);
      return all.rows.length ? all : anyVisible(sql`(${trigramOf('OR')})`);
    };
    // When full text found versions holding the words and every distinctive word is Latin (which
    // the simple configuration splits as written), the trigram search is skipped: for a common
    // name or a short number it costs more than the whole rest of the assembly (a GIN bitmap of
    // every text sharing its trigrams). Otherwise it runs beside full text from the start.
    const early = words.distinctive.some(needsTrigrams) ? trigrams() : null;
    early?.catch(() => undefined); // awaited below; a failure must not also go unhandled
    // The core versions (profile), and the versions written since the index's checkpoint (fresh),
    // which may not be indexed yet: scored from their text.
    const standing = sql<FoundRow>`
      SELECT s.memory_id, v.text, i.memory_id IS NOT NULL AS embedded, encode(vector_send(i.embedding), 'base64') AS vec,
        CASE WHEN i.embedding IS NULL THEN NULL ELSE 1 - (i.embedding <=> ${q}::vector) END AS cosine,
        ${textRank(sql`coalesce(i.lexemes, to_tsvector('simple', v.text))`)} AS text_rank, word_similarity(${text}, v.text) AS trigram,
        v.type, v.speaker, v.source, m.recorded_at, m.core
      FROM (
        SELECT m.memory_id FROM fl_memories m WHERE m.tenant = ${tenant} AND m.core
        UNION
        SELECT e.data ->> 'memoryId' FROM (
          SELECT e.data FROM fl_events e
          WHERE e.global_position > coalesce((SELECT prepare FROM fl_checkpoints WHERE name = ${RECALL_INDEX}), 0)
            AND e.tenant = ${tenant} AND e.type IN ('FactAsserted', 'FactOverruled', 'MemoryRetyped')
          ORDER BY e.global_position DESC LIMIT 200) e) s
      JOIN ${shown(sql.ref('s.memory_id'))} ON true
      JOIN fl_memories m ON m.tenant = ${tenant} AND m.memory_id = s.memory_id
      LEFT JOIN fl_recall_index i ON i.tenant = ${tenant} AND i.memory_id = s.memory_id AND i.model = ${model}`;
    // The nearest and the standing versions in one statement (one round trip fewer), full text beside it.
    const [nearAndStanding, worded] = await Promise.all([this.run(sql<FoundRow>`(${nearest}) UNION ALL (${standing})`, withLag), fullText()]);
    const alike = early ? await early : worded.allWords ? null : await trigrams();
    return alike ? [nearAndStanding, worded, alike] : [nearAndStanding, worded];
  }

  /**
   * The versions of `show` visible at (validAt, knownAt), as shown, read in one snapshot, and the
   * index's lag: for finds that did not all read one state of the facts (see the module's note).
   */
  async recheck(tenant: string, at: AsOf, show: string[]): Promise<{ shown: Map<string, Shown>; lag: CheckpointLagRow }> {
    const row = await sql<{ shown: (Omit<Shown, 'recorded_at' | 'text'> & { recorded_at: string; text: string })[]; lag: CheckpointLagRow }>`
      SELECT
        (SELECT coalesce(json_agg(s), '[]') FROM (
          SELECT p.memory_id, v.text, v.type, v.speaker, v.source, m.recorded_at
          FROM unnest(${show}::text[]) AS p(memory_id) JOIN ${this.shownAt(tenant, at)(sql.ref('p.memory_id'))} ON true
          JOIN fl_memories m ON m.tenant = ${tenant} AND m.memory_id = p.memory_id) s) AS shown,
        (SELECT row_to_json(l) FROM (${this.lagStatement()}) l) AS lag`.execute(this.search);
    const r = row.rows[0]!;
    return { shown: new Map(r.shown.map((s) => [s.memory_id, { ...s, recorded_at: new Date(s.recorded_at) }])), lag: r.lag };
  }

  /**
   * The version of a memory visible at (validAt, knownAt) — active, valid then, and on record then
   * — as shown (alias `v`: text, type, speaker, source); none when no version is. A LATERAL
   * subquery, joined: it filters. Its LIMIT keeps it a lookup per row found, whatever the plan
   * (without one the planner may turn it into a join that reads the whole history).
   */
  private shownAt(tenant: string, at: AsOf) {
    const validAt = at.validAt.toISOString();
    const knownAt = at.knownAt.toISOString();
    return (memoryId: RawBuilder<unknown>) => sql`LATERAL (
      SELECT h.text, h.type, h.speaker, h.source FROM fl_fact_history h
      WHERE h.tenant = ${tenant} AND h.memory_id = ${memoryId} AND h.status = 'active'
        AND h.valid @> ${validAt}::timestamptz AND h.tx @> ${knownAt}::timestamptz LIMIT 1) v`;
  }

  /** Runs one finding statement, adding the state of the facts it read (and the index's lag). */
  private async run(query: RawBuilder<FoundRow>, withLag = false): Promise<Finds> {
    const lag = withLag ? sql`, (SELECT row_to_json(l) FROM (${this.lagStatement()}) l) AS lag` : sql``;
    const rows = (
      await sql<FoundRow>`
        SELECT f.*, (SELECT max(global_position) FROM fl_events) || '/' || coalesce((SELECT xmin::text FROM fl_checkpoints WHERE name = ${FACTS}), '-') AS state ${lag}
        FROM (${query}) f`.execute(this.search)
    ).rows;
    const first = rows[0];
    return {
      rows: rows.map((r) => ({
        memory_id: r.memory_id,
        text: r.text,
        type: r.type,
        speaker: r.speaker,
        source: r.source,
        recorded_at: r.recorded_at,
        core: r.core,
        embedded: r.embedded,
        vector: r.vec ? fromVectorBinary(Buffer.from(r.vec, 'base64')) : null,
        cosine: r.cosine === null ? null : Number(r.cosine),
        text_rank: Number(r.text_rank),
        trigram: Number(r.trigram),
      })),
      state: first?.state ?? null,
      lag: first?.lag ?? null,
    };
  }
}
