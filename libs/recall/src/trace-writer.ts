/**
 * Stores assembly traces (R13) once the assembly has answered. A trace is the record of a read,
 * not a memory: the caller does not wait for its INSERT, and traces added while one write is in
 * flight go together in the next. `flush()` waits for everything added so far — reading a trace
 * back (Recall.trace) and stopping do so first, so this process never misses one it made.
 *
 * A write that fails is reported to `onError` and its traces are dropped (they are records of
 * reads; the memories themselves are untouched); so are traces beyond `maxQueued` waiting. Their commit does not wait for the WAL flush
 * either: a crash may lose the last moment's traces, never a memory write.
 */
import { type Executor, type RecallSlice, slice, timestamptz } from '@factledger/store';
import { UnknownTraceError } from './errors';
import { type Kysely, sql } from 'kysely';

export interface TraceRow {
  id: string;
  tenant: string;
  createdAt: Date;
  query: string;
  /** Serialised only when written, off the caller's path. */
  trace: object;
  /** Every memory whose words the trace shows (its pool): a trace showing one erased meanwhile is not written. */
  memoryIds: string[];
  /** Work that completes the trace, run just before it is written (off the caller's path); a failure is reported and the trace written as it is. */
  complete?: () => Promise<void>;
}

/** Most traces in one INSERT. */
const BATCH = 200;

/** A trace left out because the database was not keeping up (see TraceWriter's `maxQueued`). */
export class TracesDroppedError extends Error {
  constructor(readonly dropped: number) {
    super(`${dropped} recall trace(s) not stored: the database is not keeping up with them`);
    this.name = 'TracesDroppedError';
  }
}

export class TraceWriter {
  private queue: TraceRow[] = [];
  private writing: Promise<void> | null = null;
  private dropped = 0;

  private readonly db: Kysely<RecallSlice>;

  constructor(
    db: Executor,
    public onError: (error: unknown) => void = (error) => process.emitWarning(`factledger: recall traces not stored: ${String(error)}`),
    /** Most traces waiting; past it the oldest waiting is dropped (and reported), so that a stalled database cannot grow the queue without end. */
    private readonly maxQueued = 10_000,
  ) {
    this.db = slice(db);
  }

  /** A stored trace (UnknownTraceError when this tenant has none by that id), once every trace added so far is stored. */
  async read(tenant: string, id: string): Promise<Record<string, unknown>> {
    if (!/^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i.test(id)) throw new UnknownTraceError(id);
    await this.flush();
    const r = await this.db
      .selectFrom('fl_recall_traces')
      .select(['trace', 'created_at'])
      .where('tenant', '=', tenant)
      .where('id', '=', sql<string>`${id}::uuid`)
      .executeTakeFirst();
    if (!r) throw new UnknownTraceError(id);
    return { id, tenant, createdAt: new Date(r.created_at).toISOString(), ...r.trace };
  }

  /** Deletes traces recorded before `before` (the retention period); returns how many. */
  async purge(before: Date): Promise<number> {
    const result = await this.db.deleteFrom('fl_recall_traces').where('created_at', '<', timestamptz(before)).executeTakeFirst();
    return Number(result.numDeletedRows);
  }

  add(row: TraceRow): void {
    if (this.queue.length >= this.maxQueued) {
      this.queue.shift();
      this.dropped++;
    }
    this.queue.push(row);
    this.writing ??= this.drain();
  }

  /** Resolves once every trace added before the call is written (or reported as failed). */
  async flush(): Promise<void> {
    while (this.writing) await this.writing;
  }

  private async drain(): Promise<void> {
    // Let the answer that added the trace go back to its caller first.
    await new Promise((resolve) => setImmediate(resolve));
    try {
      while (this.queue.length) {
        const batch = this.queue.splice(0, BATCH);
        await Promise.all(batch.map((r) => r.complete?.().catch((error: unknown) => this.onError(error))));
        try {
          await this.write(batch);
        } catch (error) {
          this.onError(error);
        }
        if (this.dropped) {
          this.onError(new TracesDroppedError(this.dropped));
          this.dropped = 0;
        }
      }
    } finally {
      this.writing = null;
    }
  }

  private async write(batch: TraceRow[]): Promise<void> {
    const rows = batch.map((r) => ({ id: r.id, tenant: r.tenant, created_at: r.createdAt.toISOString(), query: r.query, trace: r.trace, ids: r.memoryIds }));
    await sql`WITH async AS (SELECT set_config('synchronous_commit', 'off', true))
      INSERT INTO fl_recall_traces (id, tenant, created_at, query, trace)
      SELECT r.id, r.tenant, r.created_at, r.query, r.trace
      FROM async, jsonb_to_recordset(${JSON.stringify(rows)}::jsonb) AS r(id uuid, tenant text, created_at timestamptz, query text, trace jsonb, ids text[])
      -- A trace that shows a memory erased since it was made is not kept (migrations/019).
      WHERE NOT EXISTS (SELECT 1 FROM fl_read_erased x WHERE x.tenant = r.tenant AND x.memory_id = ANY (r.ids))`.execute(this.db);
  }
}
