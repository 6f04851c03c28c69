/**
 * The event store on PostgreSQL (native or PGlite), through Kysely.
 *
 * Global order. A bigserial alone is not a safe reading order: transaction A can draw position
 * 10, transaction B position 11, and B can commit first; a reader that saw 11 and moved its
 * checkpoint past 10 would never see A's event. Two known cures:
 *
 * - Emmett's: store `pg_current_xact_id()` with each event, read in (transaction id, position)
 *   order and only below `pg_snapshot_xmin(pg_current_snapshot())`. Appends never wait for each
 *   other, but the xmin horizon is shared by every database of the server: one idle-in-
 *   transaction session or long report anywhere on it stalls every reader. We hit exactly that
 *   with tests sharing a server, and a memory layer must not depend on its neighbours' hygiene.
 * - Ours: positions are drawn in commit order. An append takes a transaction-scoped advisory
 *   lock just before it inserts its events and keeps it until it commits, so a later position
 *   can never commit before an earlier one. A reader then follows `global_position` alone and
 *   can never be passed by a late commit (a rolled-back append leaves a harmless gap). The price
 *   is that appends serialise from the insert to the commit, about a millisecond each; batches
 *   amortise it (see the benchmark).
 *
 * The transaction id is still recorded: it is the "commit" half of the log position, the same
 * (commit, prepare) shape as EventStoreDB's `$all` positions.
 */
import type { Kysely, Transaction } from 'kysely';
import { sql } from 'kysely';
import { ExpectedVersionConflict } from './errors';
import type {
  AppendContext,
  AppendResult,
  EventStore,
  LogPosition,
  ReadStreamResult,
  RecordedEvent,
  StreamAppend,
} from './event-store.port';

interface EventRow {
  global_position: number;
  transaction_id: string;
  tenant: string;
  stream_id: string;
  stream_version: number;
  event_id: string;
  type: string;
  data: unknown;
  command_id: string | null;
  causation_id: string | null;
  correlation_id: string | null;
  batch: string | null;
  recorded_at: Date;
}

/** The advisory lock key that orders appends (an arbitrary constant, 'fl' in ASCII + 1). */
export const APPEND_LOCK = 0x666c0001;

const EVENT_COLUMNS = sql.raw(
  'global_position, transaction_id::text AS transaction_id, tenant, stream_id, stream_version, event_id::text AS event_id, type, data, command_id, causation_id, correlation_id, batch, recorded_at',
);

export function toRecordedEvent(row: EventRow): RecordedEvent {
  return {
    globalPosition: Number(row.global_position),
    logPosition: { commit: row.transaction_id, prepare: Number(row.global_position) },
    tenant: row.tenant,
    streamId: row.stream_id,
    streamVersion: row.stream_version,
    eventId: row.event_id,
    type: row.type,
    data: row.data,
    commandId: row.command_id,
    causationId: row.causation_id,
    correlationId: row.correlation_id,
    batch: row.batch,
    recordedAt: row.recorded_at,
  };
}

class ConflictSignal extends Error {
  constructor(readonly conflict: ExpectedVersionConflict) {
    super(conflict.message);
  }
}

class DuplicateCommandSignal extends Error {
  constructor() {
    super('duplicate command');
  }
}

// eslint-disable-next-line @typescript-eslint/no-explicit-any
type Db = Kysely<any>;
// eslint-disable-next-line @typescript-eslint/no-explicit-any
type Trx = Transaction<any>;

export class PostgresEventStore implements EventStore {
  constructor(private readonly db: Db) {}

  async append(context: AppendContext, appends: StreamAppend[]): Promise<AppendResult> {
    try {
      return await this.db.transaction().execute((trx) => this.appendIn(trx, context, appends));
    } catch (error) {
      if (error instanceof ConflictSignal) throw error.conflict;
      if (error instanceof DuplicateCommandSignal) return this.previousResult(context);
      throw error;
    }
  }

  private async previousResult(context: AppendContext): Promise<AppendResult> {
    const row = await sql<{ last_position: number }>`
      SELECT last_position FROM fl_commands WHERE tenant = ${context.tenant} AND command_id = ${context.commandId}`.execute(this.db);
    return { position: Number(row.rows[0]?.last_position ?? 0), duplicate: true, streamVersions: {} };
  }

  private async appendIn(trx: Trx, context: AppendContext, appends: StreamAppend[]): Promise<AppendResult> {
    if (context.commandId) {
      // A concurrent retry blocks on this row until the first commits, then finds it.
      const claimed = await sql`
        INSERT INTO fl_commands (tenant, command_id) VALUES (${context.tenant}, ${context.commandId})
        ON CONFLICT DO NOTHING RETURNING 1`.execute(trx);
      if (claimed.rows.length === 0) throw new DuplicateCommandSignal();
    }
    const streamVersions: Record<string, number> = {};
    const rows: unknown[] = [];
    // Stream rows are locked before any position is drawn, so within one stream the
    // positions follow the stream versions.
    const firsts = await this.claimVersions(trx, context.tenant, appends);
    for (const append of appends) {
      const first = firsts.get(append.streamId);
      if (first === undefined) continue;
      append.events.forEach((event, i) => {
        rows.push({
          ord: rows.length,
          tenant: context.tenant,
          stream_id: append.streamId,
          stream_version: first + i,
          event_id: event.eventId,
          type: event.type,
          data: event.data,
          command_id: context.commandId,
          causation_id: context.causationId,
          correlation_id: context.correlationId,
          batch: context.batch,
          recorded_at: context.recordedAt.toISOString(),
        });
      });
      streamVersions[append.streamId] = first + append.events.length - 1;
    }
    if (rows.length === 0) return { position: 0, duplicate: false, streamVersions };
    // Held until commit: positions become visible in the order they were drawn (see above).
    await sql`SELECT pg_advisory_xact_lock(${APPEND_LOCK})`.execute(trx);
    // One statement for the whole batch, whatever its size: the rows travel as one jsonb parameter.
    const inserted = await sql<{ last: number }>`
      WITH written AS (
        INSERT INTO fl_events (tenant, stream_id, stream_version, event_id, type, data, command_id, causation_id, correlation_id, batch, recorded_at)
        SELECT r.tenant, r.stream_id, r.stream_version, r.event_id, r.type, r.data, r.command_id, r.causation_id, r.correlation_id, r.batch, r.recorded_at
        FROM jsonb_to_recordset(${JSON.stringify(rows)}::jsonb) AS r(
          tenant text, stream_id text, stream_version int, event_id uuid, type text, data jsonb,
          command_id text, causation_id text, correlation_id text, batch text, recorded_at timestamptz, ord bigint)
        ORDER BY r.ord
        RETURNING global_position)
      SELECT max(global_position) AS last FROM written`.execute(trx);
    const position = Number(inserted.rows[0]!.last);
    if (context.commandId) {
      await sql`UPDATE fl_commands SET last_position = ${position} WHERE tenant = ${context.tenant} AND command_id = ${context.commandId}`.execute(trx);
    }
    return { position, duplicate: false, streamVersions };
  }

  /**
   * Checks and bumps every stream's version in one statement; returns each stream's first new
   * version. A stream missing from the answer did not have the expected version.
   */
  private async claimVersions(trx: Trx, tenant: string, appends: StreamAppend[]): Promise<Map<string, number>> {
    const wanted = appends
      .filter((a) => a.events.length > 0)
      .map((a) => ({
        s: a.streamId,
        e: a.expectedVersion === 'no-stream' ? -1 : a.expectedVersion === 'any' ? null : a.expectedVersion,
        n: a.events.length,
      }))
      .sort((a, b) => (a.s < b.s ? -1 : a.s > b.s ? 1 : 0)); // one lock order for every writer
    if (wanted.length === 0) return new Map();
    const claimed = await sql<{ stream_id: string; version: number }>`
      WITH i AS (SELECT * FROM jsonb_to_recordset(${JSON.stringify(wanted)}::jsonb) AS i(s text, e int, n int)),
      created AS (
        INSERT INTO fl_streams (tenant, stream_id, version)
        SELECT ${tenant}, i.s, i.n - 1 FROM i WHERE i.e = -1 ORDER BY i.s
        ON CONFLICT DO NOTHING
        RETURNING stream_id, version),
      bumped AS (
        UPDATE fl_streams f SET version = f.version + i.n FROM i
        WHERE f.tenant = ${tenant} AND f.stream_id = i.s AND i.e >= 0 AND f.version = i.e
        RETURNING f.stream_id, f.version),
      unchecked AS (
        INSERT INTO fl_streams (tenant, stream_id, version)
        SELECT ${tenant}, i.s, i.n - 1 FROM i WHERE i.e IS NULL ORDER BY i.s
        ON CONFLICT (tenant, stream_id) DO UPDATE SET version = fl_streams.version + excluded.version + 1
        RETURNING stream_id, version)
      SELECT stream_id, version FROM created
      UNION ALL SELECT stream_id, version FROM bumped
      UNION ALL SELECT stream_id, version FROM unchecked`.execute(trx);
    const firsts = new Map<string, number>();
    const count = new Map(wanted.map((w) => [w.s, w.n]));
    for (const r of claimed.rows) firsts.set(r.stream_id, r.version - count.get(r.stream_id)! + 1);
    const missing = wanted.find((w) => !firsts.has(w.s));
    if (missing) await this.conflict(trx, tenant, missing.s, missing.e === -1 ? 'no stream' : String(missing.e));
    return firsts;
  }

  private async conflict(trx: Trx, tenant: string, streamId: string, expected: string): Promise<never> {
    const row = await sql<{ version: number }>`SELECT version FROM fl_streams WHERE tenant = ${tenant} AND stream_id = ${streamId}`.execute(trx);
    throw new ConflictSignal(new ExpectedVersionConflict(streamId, expected, row.rows[0]?.version ?? -1));
  }

  async readStream(tenant: string, streamId: string): Promise<ReadStreamResult> {
    const rows = await sql<EventRow>`
      SELECT ${EVENT_COLUMNS} FROM fl_events
      WHERE tenant = ${tenant} AND stream_id = ${streamId} ORDER BY stream_version`.execute(this.db);
    const events = rows.rows.map(toRecordedEvent);
    return { version: events.length ? events[events.length - 1]!.streamVersion : -1, events };
  }

  readAll(after: LogPosition, limit: number, executor: Db | Trx = this.db): Promise<RecordedEvent[]> {
    return readLog(executor, after, limit);
  }

  async readBatch(tenant: string, batch: string): Promise<RecordedEvent[]> {
    const rows = await sql<EventRow>`
      SELECT ${EVENT_COLUMNS} FROM fl_events WHERE tenant = ${tenant} AND batch = ${batch}
      ORDER BY global_position`.execute(this.db);
    return rows.rows.map(toRecordedEvent);
  }

  async head(): Promise<number> {
    const row = await sql<{ head: number | null }>`SELECT max(global_position) AS head FROM fl_events`.execute(this.db);
    return Number(row.rows[0]?.head ?? 0);
  }
}

/** Reads the log in commit order after `after`; usable inside a projection's transaction. */
export async function readLog(executor: Db | Trx, after: LogPosition, limit: number): Promise<RecordedEvent[]> {
  const rows = await sql<EventRow>`
    SELECT ${EVENT_COLUMNS} FROM fl_events
    WHERE global_position > ${after.prepare}::bigint
    ORDER BY global_position
    LIMIT ${limit}`.execute(executor);
  return rows.rows.map(toRecordedEvent);
}
