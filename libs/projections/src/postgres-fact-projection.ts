/**
 * The fact projection's PostgreSQL side: loads the rows a batch of events touches, hands them
 * to the pure `projectFacts`, and writes the changes back with a handful of set-based
 * statements per batch (rows travel as one jsonb parameter each).
 */
import { frameText, isFrameKey, MEMORY_ERASED, type MemoryErased, normalizeTerm, scopeKey } from '@factledger/domain';
import { type Executor, type FactTables, FollowUpRefused, type JsonRow, type MemoriesTable, type RecordedEvent, slice } from '@factledger/store';
import { type Kysely, type Selectable, sql } from 'kysely';
import { FactFold, type FinalStream, type HistoryRow, isMemoryEvent, type LoadedRows, type MemoryRow, type ProjectionChanges, projectFacts, streamKey } from './fact-projection';
import type { InlineFollowUp, InlineProjection, PendingStream, Projection, ProjectionRebuild, RebuildSink } from './projection';
import { type FrameGuard, HISTORY_COLUMNS, historyFromDb, type HistorySelected, isoOf, isoOrNull, type MemoryDbRow, memoryFromDb, type PlannedFrame } from './fact-rows';

export class PostgresFactProjection implements Projection, InlineProjection {
  readonly name = 'facts';
  readonly tables = ['fl_memories', 'fl_fact_history', 'fl_projected_streams', 'fl_erased_memories'];
  // What the readers (fact reader, recall, the indexer, this projection's own loads) look rows up by.
  readonly statistics = {
    fl_memories: ['tenant', 'memory_id', 'stream_id', 'subject_norm', 'status', 'core', 'type', 'recorded_at', 'said_at', 'valid_from', 'valid_to'],
    fl_fact_history: ['tenant', 'memory_id', 'stream_id', 'subject_norm', 'status', 'opened_by', 'valid', 'tx'],
  };

  /** In log order: the memory events up to an erasure, then the erasure, then what follows it. */
  async apply(executor: Executor, events: RecordedEvent[]): Promise<void> {
    const trx: Kysely<FactTables> = slice(executor);
    let from = 0;
    while (from < events.length) {
      let to = from;
      while (to < events.length && events[to]!.type !== MEMORY_ERASED) to++;
      await this.applyMemoryEvents(trx, events.slice(from, to));
      from = to;
      while (to < events.length && events[to]!.type === MEMORY_ERASED) to++;
      if (to > from) await forget(trx, events.slice(from, to));
      from = to;
    }
  }

  private async applyMemoryEvents(trx: Kysely<FactTables>, events: RecordedEvent[]): Promise<void> {
    const relevant = events.filter(isMemoryEvent);
    if (relevant.length === 0) return;
    const loaded = await this.load(trx, relevant);
    const changes = projectFacts(loaded, relevant);
    await this.write(trx, changes);
  }

  async reset(trx: Executor): Promise<void> {
    await sql`TRUNCATE ${sql.join(this.tables.map((t) => sql.ref(t)))}`.execute(trx);
  }

  /**
   * Rebuild fast path (see rebuild.ts): the log folds in memory page by page, with no loads and
   * no row closes, and a stream's rows go out as soon as its last event is folded.
   */
  rebuilder(sink: RebuildSink, lastOfStream: (event: RecordedEvent) => boolean): ProjectionRebuild {
    const fold = new FactFold({ memories: [], openHistory: [], watermarks: new Map() });
    const out = (rows: FinalStream | null): void => {
      if (!rows) return;
      for (const m of rows.memories) sink.row('fl_memories', memoryValues(m));
      for (const h of rows.history) sink.row('fl_fact_history', historyCopyRow(h));
      if (rows.watermark) sink.row('fl_projected_streams', [rows.watermark.tenant, rows.watermark.streamId, rows.watermark.version]);
    };
    return {
      columns: { fl_memories: MEMORY_COLUMNS, fl_fact_history: HISTORY_COPY_COLUMNS, fl_projected_streams: ['tenant', 'stream_id', 'version'], fl_erased_memories: ERASED_COLUMNS },
      add: (events) => {
        fold.add(events);
        // The erased memories' own events are tombstones the fold skips: only the record that they were erased is left.
        for (const e of events) if (e.type === MEMORY_ERASED) sink.row('fl_erased_memories', erasedValues(e));
        for (const e of events) if (lastOfStream(e)) out(fold.take(e.tenant, e.streamId));
      },
      end: () => {
        for (const rows of fold.rest()) out(rows);
      },
    };
  }

  private async load(trx: Kysely<FactTables>, events: RecordedEvent[]): Promise<LoadedRows> {
    const streams = [...new Set(events.map((e) => e.streamId))];
    const tenants = [...new Set(events.map((e) => e.tenant))];
    const pairs = new Set(events.map((e) => streamKey(e.tenant, e.streamId)));
    const mine = (r: { tenant: string; stream_id: string }): boolean => pairs.has(streamKey(r.tenant, r.stream_id));
    const where = sql`tenant = ANY(${tenants}) AND stream_id = ANY(${streams})`;
    // One round trip for the three reads: each row comes back as jsonb, tagged by its table.
    const rows = await sql<{ k: 'm'; r: JsonRow<Selectable<MemoriesTable>> } | { k: 'h'; r: JsonRow<HistorySelected> } | { k: 'w'; r: Selectable<FactTables['fl_projected_streams']> }>`
      SELECT 'm' AS k, to_jsonb(m) AS r FROM fl_memories m WHERE ${where}
      UNION ALL
      SELECT 'h', to_jsonb(h) FROM (SELECT ${HISTORY_COLUMNS} FROM fl_fact_history WHERE ${where} AND upper_inf(tx)) h
      UNION ALL
      SELECT 'w', to_jsonb(w) FROM (SELECT tenant, stream_id, version FROM fl_projected_streams WHERE ${where}) w`.execute(trx);
    const loaded: LoadedRows = { memories: [], openHistory: [], watermarks: new Map() };
    for (const x of rows.rows) {
      if (!mine(x.r)) continue;
      if (x.k === 'm') loaded.memories.push(memoryFromDb(x.r));
      else if (x.k === 'h') loaded.openHistory.push(historyFromDb(x.r));
      else loaded.watermarks.set(streamKey(x.r.tenant, x.r.stream_id), x.r.version);
    }
    return loaded;
  }

  /**
   * Inline projection of an append: the changes that each stream's `pending` events make to the
   * rows its `stream` left, as one follow-up for the append's own transaction. The prior rows come
   * from the caller (`rows`, kept from the previous append) or are folded in memory from the
   * stream, so nothing is loaded; fl_apply_fact_changes applies them only if the stored watermarks
   * show every stream fully projected, and moves the checkpoint when it stood right before the
   * append. An append without memory events (an ingest record alone) still moves the checkpoint
   * inline, so the runner has nothing to catch up on afterwards.
   */
  inline(streams: PendingStream[], frames: PlannedFrame[] = []): InlineFollowUp {
    const guards = frames.map((f) => f.guard);
    const merged: Record<string, unknown[]> = { closes: [], drops: [], memories: [], inserts: [], watermarks: [] };
    const expect: { tenant: string; streamId: string; version: number }[] = [];
    const steps: { loaded: LoadedRows; changes: ProjectionChanges | null }[] = [];
    for (const { stream, pending, rows } of streams) {
      const fresh = pending.filter(isMemoryEvent);
      const loaded = (rows as LoadedRows | undefined) ?? rowsOf(stream.filter(isMemoryEvent));
      if (fresh.length === 0) {
        steps.push({ loaded, changes: null });
        continue;
      }
      const changes = projectFacts(loaded, fresh);
      steps.push({ loaded, changes });
      for (const [k, list] of Object.entries(changesPayload(changes))) merged[k]!.push(...list);
      const { tenant, streamId } = fresh[0]!;
      expect.push({ tenant, streamId, version: loaded.watermarks.get(streamKey(tenant, streamId)) ?? -1 });
    }
    return {
      followUp: { fn: 'fl_apply_fact_changes', payload: { ...merged, expect, checkpoint: this.name, ...(guards.length ? { guards } : {}) } },
      rowsAfter: (positions) => steps.map(({ loaded, changes }) => (changes ? rowsAfter(loaded, changes, positions) : loaded)),
      framesAfter: (positions) => {
        const written = steps.flatMap(({ changes }) => changes?.memories ?? []).map((m) => ({ ...m, lastPosition: realPosition(m.lastPosition, positions) }));
        // Each written memory's frame text once for all the frames (a batch of prose writes many of both).
        const writtenFrames = frames.length ? written.map((m) => frameText(m.text)) : [];
        return frames.map((f) => restatingAfter(f, written, writtenFrames));
      },
    };
  }

  settled(reply: unknown): boolean {
    return (reply as { checkpoint?: boolean } | null)?.checkpoint === true;
  }

  changedFrames(error: unknown): { guard: FrameGuard; rows: MemoryRow[] }[] | null {
    if (!(error instanceof FollowUpRefused) || !Array.isArray(error.detail)) return null;
    return (error.detail as { guard: FrameGuard; rows: MemoryDbRow[] }[]).map((c) => ({ guard: c.guard, rows: c.rows.map(memoryFromDb) }));
  }

  private async write(trx: Kysely<FactTables>, changes: ProjectionChanges): Promise<void> {
    await sql`SELECT fl_apply_fact_changes(${JSON.stringify(changesPayload(changes))}::jsonb, NULL)`.execute(trx);
  }
}

const ERASED_COLUMNS = ['tenant', 'memory_id', 'stream_id', 'erasure_id', 'erased_at', 'position', 'actor'] as const;

function erasedValues(e: RecordedEvent): unknown[] {
  const d = e.data as MemoryErased['data'];
  return [e.tenant, d.memoryId, e.streamId, d.erasureId, isoOf(e.recordedAt.getTime()), e.globalPosition, e.actor];
}

/**
 * Applies MemoryErased events: the erased memories leave every read model
 * (migrations/functions/fl_forget_memories.sql) and are recorded as erased. Replaying them changes nothing.
 */
async function forget(trx: Kysely<FactTables>, events: RecordedEvent[]): Promise<void> {
  const rows = events.map((e) => Object.fromEntries(ERASED_COLUMNS.map((c, i) => [c, erasedValues(e)[i]])));
  await sql`
    WITH erased AS (
      INSERT INTO fl_erased_memories (tenant, memory_id, stream_id, erasure_id, erased_at, position, actor)
      SELECT * FROM jsonb_to_recordset(${JSON.stringify(rows)}::jsonb)
        AS r(tenant text, memory_id text, stream_id text, erasure_id text, erased_at timestamptz, position bigint, actor text)
      ON CONFLICT DO NOTHING)
    SELECT fl_forget_memories(r.tenant, array_agg(r.memory_id))
    FROM jsonb_to_recordset(${JSON.stringify(rows)}::jsonb) AS r(tenant text, memory_id text) GROUP BY r.tenant`.execute(trx);
}

/** The rows a stream's events leave, folded in memory (nothing loaded). */
function rowsOf(events: RecordedEvent[]): LoadedRows {
  const before = projectFacts({ memories: [], openHistory: [], watermarks: new Map() }, events);
  return {
    memories: before.memories,
    openHistory: before.inserts.filter((h) => h.txTo === null),
    watermarks: new Map(before.watermarks.map((w) => [streamKey(w.tenant, w.streamId), w.version])),
  };
}

/**
 * What fl_restating (migrations/functions/fl_restating.sql) finds for a frame once an append that
 * wrote the memory rows `written` is applied, worked out from what it found before (the rows the
 * frame's guard checked under the append lock): the rows the append changed, and the new ones
 * whose fl_frame_text (frameText) starts with the stem's, kept if they are active, prose or under
 * a frame key and valid at the guard's moment; newest said first (then by id, as fl_restating
 * orders them: the guard compares the two), at most its limit. Null for a
 * look-up by first word (no stem). The ledger plans its next statement of that subject and verb
 * on it (FrameCache) without a look-up, and that plan's guard checks it: a wrong guess costs a
 * plan made again, never a wrong merge.
 */
export function restatingAfter({ guard, rows }: PlannedFrame, written: readonly MemoryRow[], writtenFrames: readonly string[] = written.map((m) => frameText(m.text))): MemoryRow[] | null {
  if (guard.stem === null) return null;
  const now = Date.parse(guard.now);
  const prefix = `${frameText(guard.stem)} `;
  const byId = new Map(rows.map((m) => [m.memoryId, m]));
  written.forEach((m, i) => {
    if (m.tenant === guard.tenant && (byId.has(m.memoryId) || writtenFrames[i]!.startsWith(prefix))) byId.set(m.memoryId, m);
  });
  return [...byId.values()]
    .filter((m) => m.status === 'active' && (m.kind === 'prose' || isFrameKey(m.relation)) && (m.validTo === null || m.validTo > now))
    .sort((a, b) => b.saidAt - a.saidAt || (a.memoryId < b.memoryId ? -1 : a.memoryId > b.memoryId ? 1 : 0))
    .slice(0, guard.limit);
}

/** A position as the projection's changes hold it: a new event's is -(its index in the append + 1). */
const realPosition = (p: number, positions: number[]): number => (p < 0 ? positions[-p - 1]! : p);

/** The rows after `changes`, their placeholder positions (-1, -2, …) replaced by the real ones. */
function rowsAfter(loaded: LoadedRows, changes: ProjectionChanges, positions: number[]): LoadedRows {
  const real = (p: number): number => realPosition(p, positions);
  const memories = new Map(loaded.memories.map((m) => [m.memoryId, m]));
  for (const m of changes.memories) memories.set(m.memoryId, { ...m, lastPosition: real(m.lastPosition) });
  const gone = new Set([...changes.closes, ...changes.drops].map((c) => `${c.memoryId}|${c.openedBy}`));
  const openHistory = [
    ...loaded.openHistory.filter((h) => !gone.has(`${h.memoryId}|${h.openedBy}`)),
    ...changes.inserts.filter((h) => h.txTo === null).map((h) => ({ ...h, openedBy: real(h.openedBy) })),
  ];
  const watermarks = new Map(loaded.watermarks);
  for (const w of changes.watermarks) watermarks.set(streamKey(w.tenant, w.streamId), w.version);
  return { memories: [...memories.values()], openHistory, watermarks };
}

/** The changes as fl_apply_fact_changes (migrations/functions/fl_apply_fact_changes.sql) reads them. */
function changesPayload(changes: ProjectionChanges): Record<string, unknown[]> {
  return {
    closes: changes.closes.map((c) => ({ ...c, txTo: isoOrNull(c.txTo) })),
    drops: changes.drops,
    memories: changes.memories.map(memoryRecord),
    inserts: changes.inserts.map((h) => ({
      ...h,
      validFrom: isoOrNull(h.validFrom),
      validTo: isoOrNull(h.validTo),
      txFrom: isoOrNull(h.txFrom),
      txTo: isoOrNull(h.txTo),
      subjectNorm: h.subject === null ? null : normalizeTerm(h.subject),
    })),
    watermarks: changes.watermarks,
  };
}

/** fl_memories' columns, in the order memoryValues gives them. */
// prettier-ignore
const MEMORY_COLUMNS = [
  'tenant', 'memory_id', 'stream_id', 'kind', 'subject', 'relation', 'subject_norm', 'relation_norm', 'scope', 'scope_key',
  'value', 'text', 'type', 'original_type', 'speaker', 'source', 'authority', 'cardinality', 'core', 'status',
  'valid_from', 'valid_to', 'confirmations', 'quarantined', 'corrected', 'withdrawn', 'retracted', 'overruled', 'superseded_by',
  'recorded_at', 'updated_at', 'last_position', 'hidden_parts', 'said_at', 'depends_on', 'unconfirmed',
] as const;

/** A memory row as fl_memories holds it, in MEMORY_COLUMNS' order (a COPY row as it is). */
function memoryValues(m: MemoryRow): unknown[] {
  return [
    m.tenant,
    m.memoryId,
    m.streamId,
    m.kind,
    m.subject,
    m.relation,
    m.subject === null ? null : normalizeTerm(m.subject),
    m.relation === null ? null : normalizeTerm(m.relation),
    m.scope,
    scopeKey(m.scope),
    m.value,
    m.text,
    m.type,
    m.originalType,
    m.speaker,
    m.source,
    m.authority,
    m.cardinality,
    m.core,
    m.status,
    isoOf(m.validFrom),
    m.validTo === null ? null : isoOf(m.validTo),
    m.confirmations,
    m.quarantined,
    m.corrected,
    m.withdrawn,
    m.retracted,
    m.overruled,
    m.supersededBy,
    isoOf(m.recordedAt.getTime()),
    isoOf(m.updatedAt.getTime()),
    m.lastPosition,
    m.hiddenParts,
    isoOf(m.saidAt),
    m.dependsOn,
    m.unconfirmed,
  ];
}

/** The same row keyed by column, as fl_apply_fact_changes reads it from jsonb. */
function memoryRecord(m: MemoryRow): Record<string, unknown> {
  const values = memoryValues(m);
  return Object.fromEntries(MEMORY_COLUMNS.map((c, i) => [c, values[i]]));
}

// prettier-ignore
const HISTORY_COPY_COLUMNS = [
  'tenant', 'memory_id', 'opened_by', 'opened_event_type', 'stream_id', 'element', 'kind', 'cardinality', 'subject', 'relation',
  'subject_norm', 'scope', 'value', 'text', 'type', 'speaker', 'source', 'status', 'valid', 'tx', 'closed_by', 'closed_event_type',
] as const;

/** A range's text form, half-open; an open end stays empty. */
const range = (from: Date, to: Date | null): string => `[${isoOf(from.getTime())},${to ? isoOf(to.getTime()) : ''})`;

/** A history row for COPY, in HISTORY_COPY_COLUMNS' order (positions are real in a rebuild). */
function historyCopyRow(h: HistoryRow): unknown[] {
  return [
    h.tenant,
    h.memoryId,
    h.openedBy,
    h.openedEventType,
    h.streamId,
    h.element,
    h.kind,
    h.cardinality,
    h.subject,
    h.relation,
    h.subject === null ? null : normalizeTerm(h.subject),
    h.scope,
    h.value,
    h.text,
    h.type,
    h.speaker,
    h.source,
    h.status,
    range(h.validFrom, h.validTo),
    range(h.txFrom, h.txTo),
    h.closedBy,
    h.closedEventType,
  ];
}
