/**
 * The fact projection's PostgreSQL side: loads the rows a batch of events touches, hands them
 * to the pure `projectFacts`, and writes the changes back with a handful of set-based
 * statements per batch (rows travel as one jsonb parameter each).
 */
import { normalizeTerm } from '@factledger/domain';
import type { RecordedEvent } from '@factledger/store';
import { type Kysely, sql, type Transaction } from 'kysely';
import {
  type HistoryRow,
  isMemoryEvent,
  type LoadedRows,
  type MemoryRow,
  projectFacts,
  rowScopeKey,
  streamKey,
} from './fact-projection';
import type { Projection } from './projection';

// eslint-disable-next-line @typescript-eslint/no-explicit-any
type Executor = Kysely<any> | Transaction<any>;

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
    validFrom: r.valid_from,
    validTo: r.valid_to,
    txFrom: r.tx_from,
    txTo: r.tx_to,
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
    const defs = await sql<{ name: string; def: string; kind: string }>`
      SELECT conname AS name, pg_get_constraintdef(oid) AS def, 'constraint' AS kind
      FROM pg_constraint WHERE conrelid = 'fl_fact_history'::regclass AND contype = 'x'
      UNION ALL
      SELECT i.relname, pg_get_indexdef(i.oid), 'index'
      FROM pg_index x JOIN pg_class i ON i.oid = x.indexrelid
      WHERE x.indrelid = 'fl_fact_history'::regclass AND NOT x.indisprimary
        AND NOT EXISTS (SELECT 1 FROM pg_constraint c WHERE c.conindid = x.indexrelid)`.execute(trx);
    for (const d of defs.rows) {
      if (d.kind === 'constraint') await sql`ALTER TABLE fl_fact_history DROP CONSTRAINT ${sql.ref(d.name)}`.execute(trx);
      else await sql`DROP INDEX ${sql.ref(d.name)}`.execute(trx);
    }
    const CHUNK = 5000;
    const slice = <T>(xs: T[], i: number): T[] => xs.slice(i, i + CHUNK);
    const longest = Math.max(changes.memories.length, changes.inserts.length, changes.watermarks.length);
    for (let i = 0; i < longest; i += CHUNK) {
      await this.write(trx, { memories: slice(changes.memories, i), closes: [], inserts: slice(changes.inserts, i), watermarks: slice(changes.watermarks, i) });
    }
    for (const d of defs.rows) {
      if (d.kind === 'constraint') await sql`ALTER TABLE fl_fact_history ADD CONSTRAINT ${sql.ref(d.name)} ${sql.raw(d.def)}`.execute(trx);
      else await sql.raw(d.def).execute(trx);
    }
  }

  private async load(trx: Executor, events: RecordedEvent[]): Promise<LoadedRows> {
    const streams = [...new Set(events.map((e) => e.streamId))];
    const tenants = [...new Set(events.map((e) => e.tenant))];
    const pairs = new Set(events.map((e) => streamKey(e.tenant, e.streamId)));
    const mine = (r: { tenant: string; stream_id: string }): boolean => pairs.has(streamKey(r.tenant, r.stream_id));
    const where = sql`tenant = ANY(${tenants}) AND stream_id = ANY(${streams})`;
    const [memories, open, marks] = await Promise.all([
      sql`SELECT * FROM fl_memories WHERE ${where}`.execute(trx),
      sql`SELECT ${HISTORY_COLUMNS} FROM fl_fact_history WHERE ${where} AND upper_inf(tx)`.execute(trx),
      sql<{ tenant: string; stream_id: string; version: number }>`
        SELECT tenant, stream_id, version FROM fl_projected_streams WHERE ${where}`.execute(trx),
    ]);
    return {
      memories: (memories.rows as { tenant: string; stream_id: string }[]).filter(mine).map(memoryFromDb),
      openHistory: (open.rows as { tenant: string; stream_id: string }[]).filter(mine).map(historyFromDb),
      watermarks: new Map(marks.rows.filter(mine).map((r) => [streamKey(r.tenant, r.stream_id), r.version])),
    };
  }

  private async write(trx: Executor, changes: ReturnType<typeof projectFacts>): Promise<void> {
    if (changes.memories.length) {
      const rows = changes.memories.map((m) => ({
        tenant: m.tenant,
        memory_id: m.memoryId,
        stream_id: m.streamId,
        kind: m.kind,
        subject: m.subject,
        relation: m.relation,
        subject_norm: m.subject === null ? null : normalizeTerm(m.subject),
        relation_norm: m.relation === null ? null : normalizeTerm(m.relation),
        scope: m.scope,
        scope_key: rowScopeKey(m),
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
      await sql`
        INSERT INTO fl_memories SELECT * FROM jsonb_populate_recordset(NULL::fl_memories, ${JSON.stringify(rows)}::jsonb)
        ON CONFLICT (tenant, memory_id) DO UPDATE SET
          type = excluded.type, status = excluded.status, valid_from = excluded.valid_from, valid_to = excluded.valid_to,
          confirmations = excluded.confirmations, quarantined = excluded.quarantined, corrected = excluded.corrected,
          withdrawn = excluded.withdrawn, retracted = excluded.retracted, overruled = excluded.overruled,
          superseded_by = excluded.superseded_by, updated_at = excluded.updated_at, last_position = excluded.last_position`.execute(trx);
    }
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
    if (changes.inserts.length) {
      const rows = changes.inserts.map((h) => ({
        ...h,
        validFrom: iso(h.validFrom),
        validTo: iso(h.validTo),
        txFrom: iso(h.txFrom),
        txTo: iso(h.txTo),
        subjectNorm: h.subject === null ? null : normalizeTerm(h.subject),
      }));
      await sql`
        INSERT INTO fl_fact_history (tenant, memory_id, opened_by, opened_event_type, stream_id, element, kind, cardinality, subject, relation,
          subject_norm, scope, value, text, type, speaker, source, status, valid, tx, closed_by, closed_event_type)
        SELECT r.tenant, r."memoryId", r."openedBy", r."openedEventType", r."streamId", r.element, r.kind, r.cardinality, r.subject, r.relation,
          r."subjectNorm", r.scope, r.value, r.text, r.type, r.speaker, r.source, r.status,
          tstzrange(r."validFrom", r."validTo", '[)'), tstzrange(r."txFrom", r."txTo", '[)'), r."closedBy", r."closedEventType"
        FROM jsonb_to_recordset(${JSON.stringify(rows)}::jsonb) AS r(
          tenant text, "memoryId" text, "openedBy" bigint, "openedEventType" text, "streamId" text, element text, kind text, cardinality text,
          subject text, relation text, "subjectNorm" text, scope jsonb, value text, text text, type text, speaker text, source text,
          status text, "validFrom" timestamptz, "validTo" timestamptz, "txFrom" timestamptz, "txTo" timestamptz,
          "closedBy" bigint, "closedEventType" text)`.execute(trx);
    }
    if (changes.watermarks.length) {
      await sql`
        INSERT INTO fl_projected_streams (tenant, stream_id, version)
        SELECT w.tenant, w."streamId", w.version FROM jsonb_to_recordset(${JSON.stringify(changes.watermarks)}::jsonb)
          AS w(tenant text, "streamId" text, version int)
        ON CONFLICT (tenant, stream_id) DO UPDATE SET version = excluded.version`.execute(trx);
    }
  }
}
