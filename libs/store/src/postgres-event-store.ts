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
    for (const append of appends) {
      if (append.events.length === 0) continue;
      const first = await this.claimVersions(trx, context.tenant, append);
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
      INSERT INTO fl_events (tenant, stream_id, stream_version, event_id, type, data, command_id, causation_id, correlation_id, batch, recorded_at)
      SELECT r.tenant, r.stream_id, r.stream_version, r.event_id, r.type, r.data, r.command_id, r.causation_id, r.correlation_id, r.batch, r.recorded_at
      FROM jsonb_to_recordset(${JSON.stringify(rows)}::jsonb) AS r(
        tenant text, stream_id text, stream_version int, event_id uuid, type text, data jsonb,
        command_id text, causation_id text, correlation_id text, batch text, recorded_at timestamptz, ord bigint)
      ORDER BY r.ord
      RETURNING global_position AS last`.execute(trx);
    const position = Math.max(...inserted.rows.map((r) => Number(r.last)));
    if (context.commandId) {
      await sql`UPDATE fl_commands SET last_position = ${position} WHERE tenant = ${context.tenant} AND command_id = ${context.commandId}`.execute(trx);
    }
    return { position, duplicate: false, streamVersions };
  }

  /** Bumps the stream's version if it is what the writer expected; returns the first new version. */
  private async claimVersions(trx: Trx, tenant: string, append: StreamAppend): Promise<number> {
    const n = append.events.length;
    const { streamId, expectedVersion } = append;
    if (expectedVersion === 'no-stream') {
      const created = await sql`
        INSERT INTO fl_streams (tenant, stream_id, version) VALUES (${tenant}, ${streamId}, ${n - 1})
        ON CONFLICT DO NOTHING RETURNING version`.execute(trx);
      if (created.rows.length === 0) await this.conflict(trx, tenant, streamId, 'no stream');
      return 0;
    }
    if (expectedVersion === 'any') {
      const row = await sql<{ version: number }>`
        INSERT INTO fl_streams (tenant, stream_id, version) VALUES (${tenant}, ${streamId}, ${n - 1})
        ON CONFLICT (tenant, stream_id) DO UPDATE SET version = fl_streams.version + ${n}
        RETURNING version`.execute(trx);
      return row.rows[0]!.version - n + 1;
    }
    const updated = await sql<{ version: number }>`
      UPDATE fl_streams SET version = version + ${n}
      WHERE tenant = ${tenant} AND stream_id = ${streamId} AND version = ${expectedVersion}
      RETURNING version`.execute(trx);
    if (updated.rows.length === 0) await this.conflict(trx, tenant, streamId, String(expectedVersion));
    return expectedVersion + 1;
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
