/**
 * Keeps recall's index (fl_recall_index) from the log, off the write path (R12): a checkpointed
 * reader that embeds each new memory version (and re-embeds a retyped one, since the type is
 * part of the embedded text) and writes the vectors, BM25's stem statistics (fl_recall_terms,
 * fl_recall_corpus) and the checkpoint in one transaction. Embedding happens outside any
 * transaction; if another process indexed the same events meanwhile, this pass's work is
 * dropped rather than written twice.
 */
import { detectLanguage, type HiddenPart, RESOLUTION_BATCH, searchTermsOf, slotTermsOf, withoutParts } from '@factledger/domain';
import { type Embedder, type Embedding, embeddedTexts, toVectorText } from '@factledger/embeddings';
import { type CheckpointLagRow, CheckpointedConsumer, checkpointLagStatement, consumerLag, type Following, type ProjectionRunner } from '@factledger/projections';
import { type DatabaseSchema, type Executor, type MemoriesTable, type RecallSlice, type RecordedEvent, slice } from '@factledger/store';
import { type Kysely, type RawBuilder, type Selectable, sql } from 'kysely';

export const RECALL_INDEX = 'recall-index';

/** Events after which a version's embedded texts (type + text; passages without the statements newer ones replaced) are new. */
const INDEXED_EVENTS = new Set(['FactAsserted', 'FactOverruled', 'MemoryRetyped', 'MemoryPartsSuperseded', 'MemoryPartsRestored']);

/** What a page's `prepare` hands its `apply`: the versions to index, their vectors, and their passages' vectors (row by row). */
interface Prepared {
  rows: IndexedRow[];
  vectors: Embedding[];
  passages: Embedding[][];
}

/** A memory version as the indexer reads it to index. */
interface IndexedRow {
  tenant: string;
  memory_id: string;
  type: string;
  text: string;
  /** When it was said: it never changes once recorded, so the index row keeps it (migrations 013, 028). */
  said_at: Date;
  kind: string;
  /** A fact's key words searched with its text (see migration 014); null for prose. */
  key_text: string | null;
  /** The memories its message retired as changed in other words (resolution), with their relations. */
  replaced: { text: string; relation: string | null }[] | null;
  /** Statements inside it that newer memories replaced: no passage of theirs is embedded. */
  hidden_parts: HiddenPart[];
}

export interface IndexLag {
  /** Committed events the index has not read yet. */
  behindEvents: number;
  /** Age of the oldest of them (0 when caught up). */
  lagMs: number;
  checkpoint: number;
}

export class RecallIndexer {
  private readonly consumer: CheckpointedConsumer<Prepared>;
  private vectorIndex: Promise<unknown> | null = null;
  private embeddedSoFar = 0;

  /** Recall's slice of the schema: the read views and its own tables. */
  private readonly db: Kysely<RecallSlice>;

  constructor(
    private readonly database: Kysely<DatabaseSchema>,
    private readonly embedder: Embedder,
    /** The fact projection's runner: the index reads the versions' text from its tables, and the log as it does. */
    private readonly facts: ProjectionRunner,
    batchSize = 256,
  ) {
    this.db = slice(database);
    // Embedding happens in `prepare`, outside any transaction; the rows go in with the checkpoint.
    this.consumer = new CheckpointedConsumer(database, facts.log, RECALL_INDEX, { prepare: (events) => this.embed(events), apply: (trx, _events, prepared) => this.write(trx, prepared) }, batchSize);
  }

  /** Indexes everything committed so far; concurrent callers share a run. Returns versions embedded. */
  async catchUp(): Promise<number> {
    const before = this.embeddedSoFar;
    await this.consumer.catchUp();
    return this.embeddedSoFar - before;
  }

  /** Indexes what is committed and then each new version as it lands, through a subscription to the log, until stopped (what a worker runs). */
  follow(options: { onError?: (error: unknown) => void } = {}): Following {
    return this.consumer.follow(options);
  }

  /** The HNSW indexes for this model's vector length (migrations 006 and 020 made the ones for 512). */
  private ensureVectorIndex(): Promise<unknown> {
    const dims = Math.trunc(this.embedder.dimensions);
    const create = (table: string) =>
      sql.raw(`CREATE INDEX IF NOT EXISTS ${table}_hnsw_${dims} ON ${table} USING hnsw ((embedding::vector(${dims})) vector_cosine_ops) WHERE dimensions = ${dims}`).execute(this.db);
    this.vectorIndex ??= create('fl_recall_index')
      .then(() => create('fl_recall_passages'))
      .catch((error: unknown) => {
        this.vectorIndex = null;
        throw error;
      });
    return this.vectorIndex;
  }

  /** The versions these events made or retyped, read from the fact projection and embedded. */
  private async embed(events: RecordedEvent[]): Promise<Prepared> {
    await this.ensureVectorIndex();
    const last = events[events.length - 1]!;
    const wanted = new Map<string, { tenant: string; memoryId: string; batch: string | null }>();
    const assertedHere = new Set<string>();
    for (const e of events) {
      if (!INDEXED_EVENTS.has(e.type)) continue;
      const memoryId = (e.data as { memoryId: string }).memoryId;
      const key = `${e.tenant}|${memoryId}`;
      if (e.type === 'FactAsserted') assertedHere.add(key);
      // An assert whose message retired memories it changed (resolution) is searched by their slot too.
      const batch = e.type === 'FactAsserted' && e.batch?.startsWith(RESOLUTION_BATCH) ? e.batch : (wanted.get(key)?.batch ?? null);
      wanted.set(key, { tenant: e.tenant, memoryId, batch });
    }
    let rows: IndexedRow[] = [];
    if (wanted.size) {
      await this.facts.awaitPosition(last.globalPosition, 'facts');
      await this.assertingBatches(wanted, assertedHere);
      const keys = [...wanted.values()];
      // The memories each resolving message retired, from the log (its batch), each batch read once,
      // side by side; kept in the log's order, so the words they add to a key come in one order.
      const batches = new Map(keys.filter((k) => k.batch !== null).map((k) => [`${k.tenant}|${k.batch}`, { tenant: k.tenant, batch: k.batch! }]));
      const retired = new Map(
        await Promise.all(
          [...batches].map(
            async ([id, b]) => [id, (await this.facts.log.readBatch(b.tenant, b.batch)).filter((e) => e.type === 'FactRetracted').map((e) => (e.data as { memoryId: string }).memoryId)] as const,
          ),
        ),
      );
      const retiredOf = (k: { tenant: string; batch: string | null }) => (k.batch === null ? null : JSON.stringify(retired.get(`${k.tenant}|${k.batch}`) ?? []));
      rows = (
        await sql<IndexedRow>`
          SELECT m.tenant, m.memory_id, m.type, m.text, m.said_at, m.kind, m.hidden_parts,
            CASE WHEN m.relation IS NULL THEN NULL WHEN m.subject_norm IN ('user', 'assistant') THEN m.relation ELSE m.subject || ' ' || m.relation END AS key_text,
            x.replaced
          FROM fl_read_memories m
          JOIN unnest(${keys.map((k) => k.tenant)}::text[], ${keys.map((k) => k.memoryId)}::text[], ${keys.map(retiredOf)}::jsonb[]) AS k(tenant, memory_id, retired)
            ON m.tenant = k.tenant AND m.memory_id = k.memory_id
          LEFT JOIN LATERAL (
            SELECT json_agg(json_build_object('text', r.text, 'relation', r.relation) ORDER BY g.n) AS replaced
            FROM jsonb_array_elements_text(k.retired) WITH ORDINALITY AS g(memory_id, n) JOIN fl_read_memories r ON r.tenant = k.tenant AND r.memory_id = g.memory_id) x ON true`.execute(this.db)
      ).rows;
    }
    // Every text in one call: each version whole, then its passages (see passageTexts).
    // A memory whose statements newer ones replaced: its whole embedding stays that of its text on
    // record (a read as of before the change must still find it), its passages are those of what
    // it says now (the replaced sentences bring it in no more).
    const texts = rows.map((r) => {
      const live = r.hidden_parts.filter((p) => p.undoneAt === null);
      const whole = embeddedTexts(r.type, r.text);
      return live.length ? [whole[0]!, ...embeddedTexts(r.type, withoutParts(r.text, live)).slice(1)] : whole;
    });
    const all = await this.embedder.embed(texts.flat());
    const vectors: Embedding[] = [];
    const passages: Embedding[][] = [];
    let next = 0;
    for (const t of texts) {
      vectors.push(all[next]!);
      passages.push(all.slice(next + 1, (next += t.length)));
    }
    return { rows, vectors, passages };
  }

  /**
   * A memory indexed again (retyped, overruled, parts superseded or restored) in a page without
   * its assert: the batch its assert carried, from its stream, so that what its message retired
   * is searched with it whichever page the events fall in (live pages are small, a rebuild's
   * large, and the two must index alike).
   */
  private async assertingBatches(wanted: Map<string, { tenant: string; memoryId: string; batch: string | null }>, assertedHere: Set<string>): Promise<void> {
    const again = [...wanted].filter(([key]) => !assertedHere.has(key)).map(([, k]) => k);
    if (again.length === 0) return;
    const streams = (
      await sql<Pick<Selectable<MemoriesTable>, 'tenant' | 'memory_id' | 'stream_id'>>`
        SELECT m.tenant, m.memory_id, m.stream_id FROM fl_read_memories m
        JOIN unnest(${again.map((k) => k.tenant)}::text[], ${again.map((k) => k.memoryId)}::text[]) AS k(tenant, memory_id) ON m.tenant = k.tenant AND m.memory_id = k.memory_id`.execute(this.db)
    ).rows;
    const read = new Map<string, Promise<RecordedEvent[]>>();
    await Promise.all(
      streams.map(async (r) => {
        const id = `${r.tenant}|${r.stream_id}`;
        if (!read.has(id))
          read.set(
            id,
            this.facts.log.readStream(r.tenant, r.stream_id).then((s) => s.events),
          );
        const asserted = (await read.get(id)!).find((e) => e.type === 'FactAsserted' && (e.data as { memoryId: string }).memoryId === r.memory_id);
        const key = wanted.get(`${r.tenant}|${r.memory_id}`)!;
        if (asserted?.batch?.startsWith(RESOLUTION_BATCH)) key.batch = asserted.batch;
      }),
    );
  }

  private async write(executor: Executor, { rows, vectors, passages }: Prepared): Promise<void> {
    if (rows.length === 0) return;
    const trx: Kysely<RecallSlice> = slice(executor);
    // A memory is searched by its key, by the names of the slots it speaks of, and by the slot
    // of the memories its message retired as changed in other words (see searchTermsOf).
    const keyText = (r: IndexedRow) =>
      [...new Set([r.key_text, ...searchTermsOf(r.text, detectLanguage(r.text)), ...(r.replaced ?? []).flatMap((x) => [x.relation, ...slotTermsOf(x.text, detectLanguage(x.text))])])]
        .filter(Boolean)
        .join(' ') || null;
    const payload = rows.map((r, i) => ({ t: r.tenant, m: r.memory_id, x: r.text, r: r.said_at, k: r.kind, y: keyText(r), v: toVectorText(vectors[i]!) }));
    const model = this.embedder.model;
    // The stems of rows about to be replaced (a retyped memory is indexed again) leave the
    // statistics before the new rows' stems enter them.
    await sql`
      WITH old AS (
        SELECT i.tenant, i.stems FROM fl_recall_index i
        JOIN unnest(${rows.map((r) => r.tenant)}::text[], ${rows.map((r) => r.memory_id)}::text[]) AS r(t, m) ON i.tenant = r.t AND i.memory_id = r.m
        WHERE i.model = ${model}),
      gone AS (
        UPDATE fl_recall_terms s SET docs = s.docs - g.n
        FROM (SELECT old.tenant, x.lexeme AS stem, count(*)::int AS n FROM old, unnest(old.stems) x GROUP BY 1, 2) g
        WHERE s.tenant = g.tenant AND s.model = ${model} AND s.stem = g.stem)
      UPDATE fl_recall_corpus c SET docs = c.docs - o.n, stems = c.stems - o.len
      FROM (SELECT tenant, count(*)::int AS n, sum(length(stems)) AS len FROM old GROUP BY 1) o
      WHERE c.tenant = o.tenant AND c.model = ${model}`.execute(trx);
    await sql`
      WITH up AS (
        INSERT INTO fl_recall_index (tenant, memory_id, model, dimensions, embedding, text, said_at, kind, key_text)
        SELECT r.t, r.m, ${model}, ${this.embedder.dimensions}, r.v::vector, r.x, r.r, r.k, r.y
        FROM jsonb_to_recordset(${JSON.stringify(payload)}::jsonb) AS r(t text, m text, x text, r timestamptz, k text, y text, v text)
        -- A memory erased since its row was read stays out (migrations/019).
        WHERE NOT EXISTS (SELECT 1 FROM fl_read_erased x WHERE x.tenant = r.t AND x.memory_id = r.m)
        ON CONFLICT (tenant, memory_id, model) DO UPDATE SET embedding = excluded.embedding, dimensions = excluded.dimensions,
          text = excluded.text, said_at = excluded.said_at, kind = excluded.kind, key_text = excluded.key_text, indexed_at = now()
        RETURNING tenant, stems),
      terms AS (
        INSERT INTO fl_recall_terms (tenant, model, stem, docs)
        SELECT up.tenant, ${model}, x.lexeme, count(*) FROM up, unnest(up.stems) x GROUP BY 1, 3
        ON CONFLICT (tenant, model, stem) DO UPDATE SET docs = fl_recall_terms.docs + excluded.docs)
      INSERT INTO fl_recall_corpus (tenant, model, docs, stems)
      SELECT tenant, ${model}, count(*), sum(length(stems)) FROM up GROUP BY 1
      ON CONFLICT (tenant, model) DO UPDATE SET docs = fl_recall_corpus.docs + excluded.docs, stems = fl_recall_corpus.stems + excluded.stems`.execute(trx);
    // The passages of a version indexed again are replaced; a version erased meanwhile has no
    // index row, so its passages stay out too (the foreign key).
    const cuts = rows.flatMap((r, i) => passages[i]!.map((v, n) => ({ t: r.tenant, m: r.memory_id, n, v: toVectorText(v) })));
    await sql`
      DELETE FROM fl_recall_passages p USING unnest(${rows.map((r) => r.tenant)}::text[], ${rows.map((r) => r.memory_id)}::text[]) AS r(t, m)
      WHERE p.tenant = r.t AND p.memory_id = r.m AND p.model = ${model}`.execute(trx);
    if (cuts.length) {
      await sql`
      INSERT INTO fl_recall_passages (tenant, memory_id, model, n, dimensions, embedding)
      SELECT r.t, r.m, ${model}, r.n, ${this.embedder.dimensions}, r.v::vector
      FROM jsonb_to_recordset(${JSON.stringify(cuts)}::jsonb) AS r(t text, m text, n int, v text)
      WHERE EXISTS (SELECT 1 FROM fl_recall_index i WHERE i.tenant = r.t AND i.memory_id = r.m AND i.model = ${model})`.execute(trx);
    }

    this.embeddedSoFar += rows.length;
  }

  async lag(now: Date = new Date()): Promise<IndexLag> {
    return lagOf(await this.lagRow(), now);
  }

  /**
   * The statement lagRow() runs, for a caller that reads it as a subquery of its own statement
   * (see lagOf); null where the log is not a table of this database.
   */
  lagStatement(): RawBuilder<CheckpointLagRow> | null {
    return this.facts.log.capabilities.logInDatabase ? checkpointLagStatement(RECALL_INDEX, null) : null;
  }

  /** The index's lag as a row: in one statement, or from its checkpoint and the port's backlog past it. */
  async lagRow(): Promise<CheckpointLagRow> {
    const l = await consumerLag(this.database, this.facts.log, RECALL_INDEX, null);
    return { behind: l.events, oldest: l.oldest, checkpoint: l.checkpoint };
  }
}

/** The index's lag at `now`, from the row of RecallIndexer.lagStatement. */
export function lagOf(row: CheckpointLagRow, now: Date): IndexLag {
  const oldest = row.oldest === null ? null : new Date(row.oldest);
  return { behindEvents: Number(row.behind), lagMs: oldest ? Math.max(0, now.getTime() - oldest.getTime()) : 0, checkpoint: Number(row.checkpoint) };
}
