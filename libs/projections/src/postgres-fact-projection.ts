/**
 * The fact projection's PostgreSQL side: loads the rows a batch of events touches, hands them
 * to the pure `projectFacts`, and writes the changes back with a handful of set-based
 * statements per batch (rows travel as one jsonb parameter each).
 */
import { normalizeTerm, scopeKey } from '@factledger/domain';
import type { RecordedEvent } from '@factledger/store';
import { type Kysely, sql, type Transaction } from 'kysely';
import {
  type HistoryRow,
  isMemoryEvent,
  type LoadedRows,
  type MemoryRow,
  projectFacts,
  streamKey,
} from './fact-projection';
import type { Projection } from './projection';

// eslint-disable-next-line @typescript-eslint/no-explicit-any
type Executor = Kysely<any> | Transaction<any>;

/**
 * Drops the secondary indexes and exclusion constraints of `tables` (the primary keys stay) and
 * returns how to recreate them from their own stored definitions: a bulk load then checks
 * and builds each one once instead of row by row. Transactional, like all DDL in PostgreSQL.
 */
async function deferIndexes(trx: Executor, tables: string[]): Promise<{ rebuild(): Promise<void> }> {
  const defs = await sql<{ tbl: string; name: string; def: string; kind: 'constraint' | 'index' }>`
    SELECT conrelid::regclass::text AS tbl, conname AS name, pg_get_constraintdef(oid) AS def, 'constraint' AS kind
    FROM pg_constraint WHERE conrelid = ANY(${tables}::regclass[]) AND contype = 'x'
    UNION ALL
    SELECT x.indrelid::regclass::text, i.relname, pg_get_indexdef(i.oid), 'index'
    FROM pg_index x JOIN pg_class i ON i.oid = x.indexrelid
    WHERE x.indrelid = ANY(${tables}::regclass[]) AND NOT x.indisprimary
      AND NOT EXISTS (SELECT 1 FROM pg_constraint c WHERE c.conindid = x.indexrelid)`.execute(trx);
  for (const d of defs.rows) {
    if (d.kind === 'constraint') await sql`ALTER TABLE ${sql.ref(d.tbl)} DROP CONSTRAINT ${sql.ref(d.name)}`.execute(trx);
    else await sql`DROP INDEX ${sql.ref(d.name)}`.execute(trx);
  }
  return {
    rebuild: async () => {
      for (const d of defs.rows) {
        if (d.kind === 'constraint') await sql`ALTER TABLE ${sql.ref(d.tbl)} ADD CONSTRAINT ${sql.ref(d.name)} ${sql.raw(d.def)}`.execute(trx);
        else await sql.raw(d.def).execute(trx);
      }
    },
  };
}

/* eslint-disable @typescript-eslint/no-explicit-any */
export function memoryFromDb(r: any): MemoryRow {
  return {
    tenant: r.tenant,
    memoryId: r.memory_id,
    streamId: r.stream_id,
    kind: r.kind,
    subject: r.subject,
    relation: r.relation,
    scope: r.scope,
    value: r.value,
    text: r.text,
    type: r.type,
    originalType: r.original_type,
    speaker: r.speaker,
    source: r.source,
    authority: r.authority,
    cardinality: r.cardinality,
    core: r.core,
    status: r.status,
    validFrom: new Date(r.valid_from).getTime(),
    validTo: r.valid_to === null ? null : new Date(r.valid_to).getTime(),
    confirmations: r.confirmations,
    quarantined: r.quarantined,
    corrected: r.corrected,
    withdrawn: r.withdrawn,
    retracted: r.retracted,
    overruled: r.overruled,
    supersededBy: r.superseded_by,
    recordedAt: new Date(r.recorded_at),
    updatedAt: new Date(r.updated_at),
    lastPosition: Number(r.last_position),
  };
}

export const HISTORY_COLUMNS = sql.raw(`tenant, memory_id, opened_by, opened_event_type, stream_id, element, kind, cardinality, subject, relation,
  scope, value, text, type, speaker, source, status, lower(valid) AS valid_from, upper(valid) AS valid_to,
  lower(tx) AS tx_from, upper(tx) AS tx_to, closed_by, closed_event_type`);

export function historyFromDb(r: any): HistoryRow {
  return {
    tenant: r.tenant,
    memoryId: r.memory_id,
    openedBy: Number(r.opened_by),
    openedEventType: r.opened_event_type,
    streamId: r.stream_id,
    element: r.element,
    kind: r.kind,
    cardinality: r.cardinality,
    subject: r.subject,
    relation: r.relation,
    scope: r.scope,
    value: r.value,
    text: r.text,
    type: r.type,
    speaker: r.speaker,
    source: r.source,
    status: r.status,
    validFrom: new Date(r.valid_from),
    validTo: r.valid_to === null ? null : new Date(r.valid_to),
    txFrom: new Date(r.tx_from),
    txTo: r.tx_to === null ? null : new Date(r.tx_to),
    closedBy: r.closed_by === null ? null : Number(r.closed_by),
    closedEventType: r.closed_event_type,
  };
}
/* eslint-enable @typescript-eslint/no-explicit-any */

const iso = (d: Date | null): string | null => (d ? d.toISOString() : null);

export class PostgresFactProjection implements Projection {
  readonly name = 'facts';

  async apply(trx: Executor, events: RecordedEvent[]): Promise<void> {
    const relevant = events.filter(isMemoryEvent);
    if (relevant.length === 0) return;
    const loaded = await this.load(trx, relevant);
    const changes = projectFacts(loaded, relevant);
    await this.write(trx, changes);
  }

  async reset(trx: Executor): Promise<void> {
    await sql`TRUNCATE fl_memories, fl_fact_history, fl_projected_streams`.execute(trx);
  }

  /**
   * Rebuild fast path: the whole log folds in memory (no loads, no row closes), rows go in by
   * the thousands, and the history's secondary indexes and overlap constraint are dropped first
   * and recreated from their own stored definitions afterwards, so they are checked once.
   */
  async applyAll(trx: Executor, events: RecordedEvent[]): Promise<void> {
    const relevant = events.filter(isMemoryEvent);
    const changes = projectFacts({ memories: [], openHistory: [], watermarks: new Map() }, relevant);
    const deferred = await deferIndexes(trx, ['fl_fact_history', 'fl_memories']);
    const CHUNK = 5000;
    const slice = <T>(xs: T[], i: number): T[] => xs.slice(i, i + CHUNK);
    const longest = Math.max(changes.memories.length, changes.inserts.length, changes.watermarks.length);
    for (let i = 0; i < longest; i += CHUNK) {
      await this.write(trx, { memories: slice(changes.memories, i), closes: [], drops: [], inserts: slice(changes.inserts, i), watermarks: slice(changes.watermarks, i) });
    }
    await deferred.rebuild();
  }

  private async load(trx: Executor, events: RecordedEvent[]): Promise<LoadedRows> {
    const streams = [...new Set(events.map((e) => e.streamId))];
    const tenants = [...new Set(events.map((e) => e.tenant))];
    const pairs = new Set(events.map((e) => streamKey(e.tenant, e.streamId)));
    const mine = (r: { tenant: string; stream_id: string }): boolean => pairs.has(streamKey(r.tenant, r.stream_id));
    const where = sql`tenant = ANY(${tenants}) AND stream_id = ANY(${streams})`;
    // One round trip for the three reads: each row comes back as jsonb, tagged by its table.
    const rows = await sql<{ k: 'm' | 'h' | 'w'; r: Record<string, unknown> }>`
      SELECT 'm' AS k, to_jsonb(m) AS r FROM fl_memories m WHERE ${where}
      UNION ALL
      SELECT 'h', to_jsonb(h) FROM (SELECT ${HISTORY_COLUMNS} FROM fl_fact_history WHERE ${where} AND upper_inf(tx)) h
      UNION ALL
      SELECT 'w', to_jsonb(w) FROM (SELECT tenant, stream_id, version FROM fl_projected_streams WHERE ${where}) w`.execute(trx);
    const of = (k: string) => rows.rows.filter((x) => x.k === k).map((x) => x.r as { tenant: string; stream_id: string; version: number });
    return {
      memories: of('m').filter(mine).map(memoryFromDb),
      openHistory: of('h').filter(mine).map(historyFromDb),
      watermarks: new Map(of('w').filter(mine).map((r) => [streamKey(r.tenant, r.stream_id), r.version])),
    };
  }

  private async write(trx: Executor, changes: ReturnType<typeof projectFacts>): Promise<void> {
    // Close before insert, so no two open rows ever overlap, even within one statement.
    if (changes.closes.length) {
      const rows = changes.closes.map((c) => ({ ...c, txTo: iso(c.txTo) }));
      await sql`
        UPDATE fl_fact_history h
        SET tx = tstzrange(lower(h.tx), c."txTo", '[)'), closed_by = c."closedBy", closed_event_type = c."closedEventType"
        FROM jsonb_to_recordset(${JSON.stringify(rows)}::jsonb)
          AS c(tenant text, "memoryId" text, "openedBy" bigint, "txTo" timestamptz, "closedBy" bigint, "closedEventType" text)
        WHERE h.tenant = c.tenant AND h.memory_id = c."memoryId" AND h.opened_by = c."openedBy"`.execute(trx);
    }
    if (changes.drops.length) {
      await sql`
        DELETE FROM fl_fact_history h
        USING jsonb_to_recordset(${JSON.stringify(changes.drops)}::jsonb) AS d(tenant text, "memoryId" text, "openedBy" bigint)
        WHERE h.tenant = d.tenant AND h.memory_id = d."memoryId" AND h.opened_by = d."openedBy"`.execute(trx);
    }
    if (!changes.memories.length && !changes.inserts.length && !changes.watermarks.length) return;
    const memories = changes.memories.map((m) => ({
        tenant: m.tenant,
        memory_id: m.memoryId,
        stream_id: m.streamId,
        kind: m.kind,
        subject: m.subject,
        relation: m.relation,
        subject_norm: m.subject === null ? null : normalizeTerm(m.subject),
        relation_norm: m.relation === null ? null : normalizeTerm(m.relation),
        scope: m.scope,
        scope_key: scopeKey(m.scope),
        value: m.value,
        text: m.text,
        type: m.type,
        original_type: m.originalType,
        speaker: m.speaker,
        source: m.source,
        authority: m.authority,
        cardinality: m.cardinality,
        core: m.core,
        status: m.status,
        valid_from: new Date(m.validFrom).toISOString(),
        valid_to: m.validTo === null ? null : new Date(m.validTo).toISOString(),
        confirmations: m.confirmations,
        quarantined: m.quarantined,
        corrected: m.corrected,
        withdrawn: m.withdrawn,
        retracted: m.retracted,
        overruled: m.overruled,
        superseded_by: m.supersededBy,
        recorded_at: m.recordedAt.toISOString(),
        updated_at: m.updatedAt.toISOString(),
        last_position: m.lastPosition,
      }));
    const history = changes.inserts.map((h) => ({
        ...h,
        validFrom: iso(h.validFrom),
        validTo: iso(h.validTo),
        txFrom: iso(h.txFrom),
        txTo: iso(h.txTo),
        subjectNorm: h.subject === null ? null : normalizeTerm(h.subject),
      }));
    // The rest in one statement: memories, new history rows, stream watermarks.
    await sql`
      WITH m AS (
        INSERT INTO fl_memories SELECT * FROM jsonb_populate_recordset(NULL::fl_memories, ${JSON.stringify(memories)}::jsonb)
        ON CONFLICT (tenant, memory_id) DO UPDATE SET
          type = excluded.type, status = excluded.status, valid_from = excluded.valid_from, valid_to = excluded.valid_to,
          confirmations = excluded.confirmations, quarantined = excluded.quarantined, corrected = excluded.corrected,
          withdrawn = excluded.withdrawn, retracted = excluded.retracted, overruled = excluded.overruled,
          superseded_by = excluded.superseded_by, updated_at = excluded.updated_at, last_position = excluded.last_position
        RETURNING 1),
      h AS (
        INSERT INTO fl_fact_history (tenant, memory_id, opened_by, opened_event_type, stream_id, element, kind, cardinality, subject, relation,
          subject_norm, scope, value, text, type, speaker, source, status, valid, tx, closed_by, closed_event_type)
        SELECT r.tenant, r."memoryId", r."openedBy", r."openedEventType", r."streamId", r.element, r.kind, r.cardinality, r.subject, r.relation,
          r."subjectNorm", r.scope, r.value, r.text, r.type, r.speaker, r.source, r.status,
          tstzrange(r."validFrom", r."validTo", '[)'), tstzrange(r."txFrom", r."txTo", '[)'), r."closedBy", r."closedEventType"
        FROM jsonb_to_recordset(${JSON.stringify(history)}::jsonb) AS r(
          tenant text, "memoryId" text, "openedBy" bigint, "openedEventType" text, "streamId" text, element text, kind text, cardinality text,
          subject text, relation text, "subjectNorm" text, scope jsonb, value text, text text, type text, speaker text, source text,
          status text, "validFrom" timestamptz, "validTo" timestamptz, "txFrom" timestamptz, "txTo" timestamptz,
          "closedBy" bigint, "closedEventType" text)
        RETURNING 1),
      w AS (
        INSERT INTO fl_projected_streams (tenant, stream_id, version)
        SELECT w.tenant, w."streamId", w.version FROM jsonb_to_recordset(${JSON.stringify(changes.watermarks)}::jsonb)
          AS w(tenant text, "streamId" text, version int)
        ON CONFLICT (tenant, stream_id) DO UPDATE SET version = excluded.version
        RETURNING 1)
      SELECT (SELECT count(*) FROM m) + (SELECT count(*) FROM h) + (SELECT count(*) FROM w) AS written`.execute(trx);
  }
}
