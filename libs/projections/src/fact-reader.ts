/**
 * Queries of the fact read models: a memory as it stands, and bitemporal as-of reads over
 * `fl_fact_history` (what was true at `validAt`, as the ledger knew it at `knownAt`).
 */
import { normalizeTerm } from '@factledger/domain';
import { type Executor, type FactTables, type MemoriesTable, PREPARED, slice, timestamptz } from '@factledger/store';
import { type Kysely, type Selectable, sql } from 'kysely';
import type { HistoryRow, MemoryRow } from './fact-projection';
import {
  type AsOf,
  asOfSql,
  type ErasedMemory,
  HISTORY_COLUMNS,
  type HistoryDbRow,
  historyFromDb,
  type MemoryDbRow,
  memoryFromDb,
  type ResemblingMemory,
  type ResemblingRow,
  resemblingFromDb,
  type RestatingQuestion,
  RESTATING_LIMIT,
  selectHistory,
} from './fact-rows';

export class FactReader {
  private readonly db: Kysely<FactTables>;

  constructor(db: Executor) {
    this.db = slice(db);
  }

  /** A tenant's memories, every column: callers add the rest of the filter and the order. */
  private memoriesOf(tenant: string) {
    return this.db.selectFrom('fl_memories').selectAll().where('tenant', '=', tenant);
  }

  async memory(tenant: string, memoryId: string): Promise<MemoryRow | null> {
    const row = await this.memoriesOf(tenant).where('memory_id', '=', memoryId).executeTakeFirst();
    return row ? memoryFromDb(row) : null;
  }

  /** When and by which erasure a memory was erased; null when it was not. */
  async erased(tenant: string, memoryId: string): Promise<ErasedMemory | null> {
    const r = await this.db.selectFrom('fl_erased_memories').select(['erasure_id', 'erased_at', 'position', 'actor']).where('tenant', '=', tenant).where('memory_id', '=', memoryId).executeTakeFirst();
    return r ? { erasureId: r.erasure_id, erasedAt: new Date(r.erased_at).toISOString(), position: Number(r.position), actor: r.actor } : null;
  }

  /**
   * The streams an erasure takes: the one memory's (every version of its fact), every memory kept
   * under a subject (normalised as keys are), or the whole tenant's.
   */
  async streamsToErase(tenant: string, target: { memoryId: string } | { subject: string } | { all: true }): Promise<string[]> {
    const rows = await this.db
      .selectFrom('fl_memories')
      .select('stream_id')
      .distinct()
      .where('tenant', '=', tenant)
      .$if('memoryId' in target, (q) =>
        q.where('stream_id', '=', (eb) =>
          eb
            .selectFrom('fl_memories')
            .select('stream_id')
            .where('tenant', '=', tenant)
            .where('memory_id', '=', (target as { memoryId: string }).memoryId),
        ),
      )
      .$if('subject' in target, (q) => q.where('subject_norm', '=', normalizeTerm((target as { subject: string }).subject)))
      .orderBy('stream_id')
      .execute();
    return rows.map((r) => r.stream_id);
  }

  /**
   * The versions of one key in the read paths at (validAt, knownAt): one row, or a set. Prepared:
   * planning it (the history table's four indexes) took longer than running it.
   */
  async valuesAt(tenant: string, streamId: string, at: AsOf): Promise<HistoryRow[]> {
    const rows = await sql<HistoryDbRow>`${PREPARED}
      SELECT ${HISTORY_COLUMNS} FROM fl_fact_history
      WHERE tenant = ${tenant} AND stream_id = ${streamId} AND status = 'active'
        AND ${asOfSql(at)}
      ORDER BY lower(valid), value`.execute(this.db);
    return rows.rows.map(historyFromDb);
  }

  /** Every fact of a subject (any relation, any scope) at (validAt, knownAt). Prepared, as valuesAt. */
  async subjectAt(tenant: string, subjectNorm: string, at: AsOf): Promise<HistoryRow[]> {
    const rows = await sql<HistoryDbRow>`${PREPARED}
      SELECT ${HISTORY_COLUMNS} FROM fl_fact_history
      WHERE tenant = ${tenant} AND subject_norm = ${subjectNorm} AND status = 'active'
        AND ${asOfSql(at)}
      ORDER BY relation, scope::text, value`.execute(this.db);
    return rows.rows.map(historyFromDb);
  }

  /**
   * What the ledger believed at (validAt, knownAt): every memory of the tenant in the read paths
   * then (facts and prose), or one subject's; ordered by subject, relation, scope, value and text;
   * at most `limit` rows (null: all). The audit (Audit in @factledger/ledger).
   */
  async believedAt(tenant: string, at: AsOf, p: { subjectNorm: string | null; limit: number | null }): Promise<HistoryRow[]> {
    const rows = await sql<HistoryDbRow>`
      SELECT ${HISTORY_COLUMNS} FROM fl_fact_history
      WHERE tenant = ${tenant} AND status = 'active'
        AND (${p.subjectNorm}::text IS NULL OR subject_norm = ${p.subjectNorm})
        AND ${asOfSql(at)}
      ORDER BY subject_norm NULLS LAST, relation, scope::text, value, text, memory_id
      LIMIT ${p.limit}`.execute(this.db);
    return rows.rows.map(historyFromDb);
  }

  /**
   * The whole bitemporal history of a key (or of a prose memory's stream): every row, with the
   * positions and types of the events that opened and closed it (what those events said, their
   * reason, batch and actor, the caller reads from the stream through the event-store port).
   */
  async history(tenant: string, streamId: string): Promise<HistoryRow[]> {
    const rows = await selectHistory(this.db).where('tenant', '=', tenant).where('stream_id', '=', streamId).orderBy('opened_by').orderBy('memory_id').execute();
    return rows.map(historyFromDb);
  }

  /** Memories with a status other than `active` (quarantined, retired, overruled), whatever their valid time, newest first. */
  async withStatus(tenant: string, status: string, limit = 100): Promise<MemoryRow[]> {
    const rows = await this.memoriesOf(tenant)
      .where('status', '=', status as MemoryRow['status'])
      .orderBy('updated_at', 'desc')
      .orderBy('memory_id')
      .limit(limit)
      .execute();
    return rows.map(memoryFromDb);
  }

  /** The memories in the read paths now that hang on this one (R32): what a change of it unconfirms. */
  async dependentsOf(tenant: string, memoryId: string, now: Date): Promise<MemoryRow[]> {
    const rows = await this.memoriesOf(tenant)
      .where(sql<boolean>`depends_on ? ${memoryId} AND depends_on <> '[]'::jsonb`)
      .where('status', '=', 'active')
      .where((eb) => eb.or([eb('valid_to', 'is', null), eb('valid_to', '>', timestamptz(now))]))
      .orderBy('said_at')
      .orderBy('memory_id')
      .execute();
    return rows.map(memoryFromDb);
  }

  /** The memories of one type in the read paths now, oldest said first (the rules for later a change may apply). */
  async activeOfType(tenant: string, type: string, now: Date, limit = 200): Promise<MemoryRow[]> {
    const rows = await this.memoriesOf(tenant)
      .where('type', '=', type)
      .where('status', '=', 'active')
      .where((eb) => eb.or([eb('valid_to', 'is', null), eb('valid_to', '>', timestamptz(now))]))
      .orderBy('said_at')
      .orderBy('memory_id')
      .limit(limit)
      .execute();
    return rows.map(memoryFromDb);
  }

  /** Memories in the read paths now, newest said first. */
  async activeMemories(tenant: string, now: Date, limit = 100): Promise<MemoryRow[]> {
    const rows = await this.memoriesOf(tenant)
      .where('status', '=', 'active')
      .where('valid_from', '<=', timestamptz(now))
      .where((eb) => eb.or([eb('valid_to', 'is', null), eb('valid_to', '>', timestamptz(now))]))
      .orderBy('said_at', 'desc')
      .orderBy('memory_id')
      .limit(limit)
      .execute();
    return rows.map(memoryFromDb);
  }

  /**
   * A population for triage: the tenant's memories of one (current) type, by status, recorded
   * in [from, to), oldest first. `status` null means any status. Recorded, not said: the window is
   * an operator's "what was ingested then" (an imported chat is triaged with the day it came in).
   */
  async population(tenant: string, p: { type: string; status: string | null; from?: Date; to?: Date }): Promise<MemoryRow[]> {
    const rows = await this.memoriesOf(tenant)
      .where('type', '=', p.type)
      .$if(typeof p.status === 'string', (q) => q.where('status', '=', p.status as MemoryRow['status']))
      .$if(p.from instanceof Date, (q) => q.where('recorded_at', '>=', timestamptz(p.from!)))
      .$if(p.to instanceof Date, (q) => q.where('recorded_at', '<', timestamptz(p.to!)))
      .orderBy('recorded_at')
      .orderBy('memory_id')
      .execute();
    return rows.map(memoryFromDb);
  }

  /**
   * Memories of one speaker in the read paths at `now` that a new statement may change: their
   * text holds one of `words` or a word starting with one (index fl_memories_words), or, for
   * `shapes`, an email or a phone number anywhere. Newest said first. Only what resolution compares:
   * it runs for most messages, and up to `limit` whole rows cost more to send and read than to find.
   */
  async resembling(tenant: string, p: { speaker: string; words: string[]; shapes?: ('email' | 'phone')[]; now: Date; limit?: number; every?: boolean }): Promise<ResemblingMemory[]> {
    const terms = p.words.map((w) => w.replace(/[^\p{L}\p{N}@._-]/gu, '')).filter((w) => w.length > 0);
    if (terms.length === 0 && !p.shapes?.length) return [];
    // `every`: each word (a thing named by several words), not any of them.
    const query = terms.map((w) => `'${w.replace(/'/g, "''")}':*`).join(p.every ? ' & ' : ' | ');
    const shape = (kind: 'email' | 'phone') => (kind === 'email' ? sql`text LIKE '%@%'` : sql`text ~ '[0-9]{3,4}[ -][0-9]{4}'`);
    const shapes = (p.shapes ?? []).map(shape);
    const matches = [...(query ? [sql`to_tsvector('simple', text) @@ to_tsquery('simple', ${query})`] : []), ...shapes];
    const now = p.now.toISOString();
    // Prepared: the text takes only as many shapes as `matches` has combinations.
    const rows = await sql<ResemblingRow>`${PREPARED}
      SELECT memory_id, kind, subject, relation, scope, text, type, valid_from, said_at FROM fl_memories
      WHERE tenant = ${tenant} AND speaker = ${p.speaker} AND status = 'active'
        AND valid_from <= ${now}::timestamptz AND (valid_to IS NULL OR valid_to > ${now}::timestamptz)
        AND (${sql.join(matches, sql` OR `)})
      ORDER BY said_at DESC, memory_id LIMIT ${p.limit ?? 30}`.execute(this.db);
    return rows.rows.map(resemblingFromDb);
  }

  /** The speaker's memories in the read paths at `now` said last (all of that moment: one message's): what "forget that" names when nothing else is. */
  async saidLast(tenant: string, p: { speaker: string; now: Date }): Promise<ResemblingMemory[]> {
    const now = p.now.toISOString();
    const rows = await sql<ResemblingRow>`
      WITH live AS (
        SELECT memory_id, kind, subject, relation, scope, text, type, valid_from, said_at FROM fl_memories
        WHERE tenant = ${tenant} AND speaker = ${p.speaker} AND status = 'active' AND said_at <= ${now}::timestamptz
          AND valid_from <= ${now}::timestamptz AND (valid_to IS NULL OR valid_to > ${now}::timestamptz))
      SELECT * FROM live WHERE said_at = (SELECT max(said_at) FROM live) ORDER BY memory_id`.execute(this.db);
    return rows.rows.map(resemblingFromDb);
  }

  /**
   * Memories of any speaker in the read paths that a new statement may restate (frame alignment,
   * @factledger/domain restatement.ts): those the database function fl_restating finds for it
   * (prose and frame keys of the same subject and verb, `stem`, or without a stem (Korean) that
   * begin with the statement's first word). Newest said first, at most `limit` (RESTATING_LIMIT).
   */
  async restating(tenant: string, p: RestatingQuestion): Promise<MemoryRow[]> {
    const rows = await sql<{ r: MemoryDbRow[] }>`${PREPARED}
      SELECT fl_restating(${tenant}, ${p.text}, ${p.stem}, ${p.now.toISOString()}::timestamptz, ${p.limit ?? RESTATING_LIMIT}) AS r`.execute(this.db);
    return rows.rows[0]!.r.map(memoryFromDb);
  }

  /**
   * Prose memories of one speaker in the read paths at `now` that may hold a part a new statement
   * changes (@factledger/domain turn-parts.ts): their text holds two of one group's words (or
   * words starting with them; index fl_memories_words), a group being one new part's topic.
   * Newest said first, at most `limit`.
   */
  async partsResembling(tenant: string, p: { speaker: string; groups: string[][]; now: Date; limit?: number }): Promise<{ memoryId: string; streamId: string; text: string; saidAt: Date }[]> {
    const clean = (w: string) => w.replace(/[^\p{L}\p{N}]/gu, '');
    const pairs = new Set<string>();
    for (const group of p.groups) {
      const words = [...new Set(group.map(clean).filter((w) => w.length > 2))].slice(0, 6);
      for (let i = 0; i < words.length; i++) for (let j = i + 1; j < words.length; j++) pairs.add(`('${words[i]}':* & '${words[j]}':*)`);
    }
    if (pairs.size === 0) return [];
    const now = p.now.toISOString();
    const rows = await sql<Pick<Selectable<MemoriesTable>, 'memory_id' | 'stream_id' | 'text' | 'said_at'>>`${PREPARED}
      SELECT memory_id, stream_id, text, said_at FROM fl_memories
      WHERE tenant = ${tenant} AND speaker = ${p.speaker} AND status = 'active' AND kind = 'prose'
        AND valid_from <= ${now}::timestamptz AND (valid_to IS NULL OR valid_to > ${now}::timestamptz)
        AND to_tsvector('simple', text) @@ to_tsquery('simple', ${[...pairs].join(' | ')})
      ORDER BY said_at DESC, memory_id LIMIT ${p.limit ?? 50}`.execute(this.db);
    return rows.rows.map((r) => ({ memoryId: r.memory_id, streamId: r.stream_id, text: r.text, saidAt: new Date(r.said_at) }));
  }

  /** The keys (subject, relation) of a speaker's facts in the read paths at `now`, most recently said first. */
  async knownKeys(tenant: string, p: { speaker: string; now: Date; limit?: number }): Promise<{ subject: string; relation: string }[]> {
    const now = p.now.toISOString();
    const rows = await sql<{ subject: string; relation: string }>`
      SELECT subject, relation FROM (
        SELECT DISTINCT ON (subject_norm, relation_norm) subject, relation, said_at FROM fl_memories
        WHERE tenant = ${tenant} AND speaker = ${p.speaker} AND kind = 'fact' AND status = 'active'
          AND valid_from <= ${now}::timestamptz AND (valid_to IS NULL OR valid_to > ${now}::timestamptz)
        ORDER BY subject_norm, relation_norm, said_at DESC) k
      ORDER BY said_at DESC LIMIT ${p.limit ?? 50}`.execute(this.db);
    return rows.rows;
  }

  /** Several memories by id (those that exist in the tenant). */
  async memories(tenant: string, memoryIds: string[]): Promise<MemoryRow[]> {
    if (memoryIds.length === 0) return [];
    const rows = await this.memoriesOf(tenant)
      .where('memory_id', '=', sql<string>`ANY(${memoryIds}::text[])`)
      .execute();
    return rows.map(memoryFromDb);
  }

  /**
   * Every version of the tenant (any status) that a statement could rest on: its value appears
   * in the statement, or its text is close to it by trigram word similarity. Lexical on purpose:
   * verification must find retired values too, which recall's index never serves.
   */
  async matching(tenant: string, statement: string, limit = 50): Promise<MemoryRow[]> {
    const rows = await sql<Selectable<MemoriesTable>>`
      SELECT * FROM fl_memories
      WHERE tenant = ${tenant}
        AND ((value IS NOT NULL AND length(value) >= 2 AND strpos(lower(${statement}), lower(value)) > 0)
          OR word_similarity(lower(${statement}), lower(text)) >= 0.6)
      ORDER BY said_at DESC LIMIT ${limit}`.execute(this.db);
    return rows.rows.map(memoryFromDb);
  }
}
