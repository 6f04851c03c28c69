/**
 * Runs projections from the stored log, each with its own checkpoint, in the log's commit order
 * (see postgres-event-store.ts). A batch of events and the checkpoint that covers it
 * commit in one transaction, so a crash never applies a batch without moving the checkpoint,
 * and per-stream watermarks make a replayed event a no-op. An advisory lock per projection
 * lets several processes run the same runner without applying anything twice.
 */
import { InvalidInputError } from '@factledger/domain';
import { type BacklogRow, backlogStatement, type Database, type DatabaseSchema, type EventStore, type Executor, LOG_START, type LogPosition, PostgresEventStore, readLog } from '@factledger/store';
import { type Kysely, type RawBuilder, sql } from 'kysely';
import { CheckpointedConsumer, type Following, lockConsumer, readCheckpoint, writeCheckpoint } from './checkpointed-consumer';
import { ProjectionLagError } from './errors';
import type { Projection } from './projection';
import { type RebuildPlan, rebuildBeside, rebuildInPlace } from './rebuild';

export interface ProjectionStatus {
  name: string;
  checkpoint: LogPosition;
  /** Committed events not applied yet. */
  behindEvents: number;
  /** Age of the oldest event not applied yet (0 when caught up). */
  lagMs: number;
}

/** What the runner and its consumers use of the event-store port. */
export type RunnerLog = Pick<EventStore, 'readAll' | 'subscribe' | 'head' | 'readBatch' | 'readStream' | 'behind' | 'capabilities'>;

export interface RunnerOptions {
  batchSize?: number;
  /** How long a read with `minPosition` waits for the projection before failing. */
  waitTimeoutMs?: number;
  /**
   * Connections of the runner's own that can bulk-load (Database.session); with them, a rebuild
   * takes a projection's fast path (Projection.rebuilder, see rebuild.ts), without them every
   * page goes through `apply`.
   */
  sessions?: Pick<Database, 'session' | 'concurrentSessions'>;
  /**
   * Workers elsewhere run the projections (FACTLEDGER_WORKERS=external): this process never
   * applies them itself; its reads with `minPosition` wait for the workers' checkpoints.
   */
  passive?: boolean;
  /** Where the log is read from: the event-store port (default: the PostgreSQL adapter on the same database). */
  log?: RunnerLog;
}

export class ProjectionRunner {
  private readonly batchSize: number;
  private readonly waitTimeoutMs: number;
  private readonly sessions: RunnerOptions['sessions'];
  /** The log as the consumers read it (the event-store port). */
  readonly log: RunnerLog;
  private readonly consumers: CheckpointedConsumer[];
  private readonly passive: boolean;

  constructor(
    private readonly db: Kysely<DatabaseSchema>,
    readonly projections: Projection[],
    options: RunnerOptions = {},
  ) {
    this.batchSize = options.batchSize ?? 1000;
    this.waitTimeoutMs = options.waitTimeoutMs ?? 2000;
    this.sessions = options.sessions;
    this.log = options.log ?? new PostgresEventStore(db);
    this.passive = options.passive ?? false;
    this.consumers = projections.map((p) => new CheckpointedConsumer(db, this.log, p.name, { apply: (trx, events) => p.apply(trx, events) }, this.batchSize));
  }

  private async ensureCheckpoints(): Promise<void> {
    for (const c of this.consumers) await c.ensureCheckpoint();
  }

  /**
   * Applies everything committed so far, projection by projection. Concurrent callers in one
   * process share a run; a call made while a run is in progress gets one more pass, so it sees
   * its own write.
   */
  async catchUp(): Promise<void> {
    if (this.passive) return;
    for (const c of this.consumers) await c.catchUp();
  }

  /** One projection's catch-up, whatever `passive` says (what a worker runs); events applied. */
  catchUpOne(name: string): Promise<number> {
    return this.consumer(name).catchUp();
  }

  /** One projection following the log through a subscription (what a worker holding it runs), whatever `passive` says. */
  followOne(name: string, options: { onError?: (error: unknown) => void } = {}): Following {
    return this.consumer(name).follow(options);
  }

  private consumer(name: string): CheckpointedConsumer {
    const consumer = this.consumers.find((c) => c.name === name);
    if (!consumer) throw new Error(`no projection named '${name}' (known: ${this.consumers.map((c) => c.name).join(', ')})`);
    return consumer;
  }

  /**
   * Every row of a projection's tables as JSON, each table's rows in one stable order: what a
   * rebuild from the log must give back exactly (the reliability suite compares the two).
   */
  async rows(name: string): Promise<Record<string, unknown[]>> {
    const projection = this.projections.find((p) => p.name === name);
    if (!projection) throw new Error(`no projection named '${name}' (known: ${this.projections.map((p) => p.name).join(', ')})`);
    const out: Record<string, unknown[]> = {};
    for (const table of projection.tables) {
      const { rows } = await sql<{ row: unknown }>`SELECT to_jsonb(t) AS row FROM ${sql.table(table)} t ORDER BY to_jsonb(t)::text`.execute(this.db);
      out[table] = rows.map((r) => r.row);
    }
    return out;
  }

  /**
   * Rebuilds a projection from position 0. With a fast path and sessions, see rebuild.ts;
   * otherwise in one transaction that empties the tables and applies the log page by page
   * (readers wait for it and never see a half-built read model).
   */
  async rebuild(name: string): Promise<{ events: number; ms: number }> {
    const projection = this.projections.find((p) => p.name === name);
    if (!projection) throw new Error(`no projection named '${name}' (known: ${this.projections.map((p) => p.name).join(', ')})`);
    await this.ensureCheckpoints();
    const started = Date.now();
    const pageSize = this.batchSize * 10;
    const { sessions } = this;
    // The fast path reads the log in the database's own snapshot: only where the log is a table there.
    if (sessions && projection.rebuilder && this.log.capabilities.logInDatabase) {
      const plan: RebuildPlan = {
        projection,
        pageSize,
        lock: (trx) => lockConsumer(trx, projection.name),
        checkpoint: (trx, position) => writeCheckpoint(trx, projection.name, position, { force: true }),
      };
      const { events } = sessions.concurrentSessions ? await rebuildBeside(this.db, sessions.session, plan) : await sessions.session((s) => rebuildInPlace(this.db, s, plan));
      return { events, ms: Date.now() - started };
    }
    const count = await this.db.transaction().execute(async (trx) => {
      await lockConsumer(trx, projection.name);
      await projection.reset(trx);
      let checkpoint = LOG_START;
      let total = 0;
      for (;;) {
        const events = this.log.capabilities.logInDatabase ? await readLog(trx, checkpoint, pageSize) : await this.log.readAll(checkpoint, pageSize);
        if (events.length === 0) break;
        total += events.length;
        await projection.apply(trx, events);
        checkpoint = events[events.length - 1]!.logPosition;
      }
      await writeCheckpoint(trx, projection.name, checkpoint);
      return total;
    });
    // Rows that went through `apply` are vacuumed and analyzed now, rather than leave that to the
    // first readers and autovacuum.
    await sql`VACUUM (ANALYZE) ${sql.join(projection.tables.map((t) => sql.ref(t)))}`.execute(this.db);
    return { events: count, ms: Date.now() - started };
  }

  private behind(name: string, position: number | null): Promise<{ events: number; oldest: Date | null; checkpoint: number }> {
    return consumerLag(this.db, this.log, name, position);
  }

  /**
   * Read-your-writes: returns once every projection (or the one named `only`) has applied
   * everything up to `minPosition`, catching up itself meanwhile; fails with ProjectionLagError
   * after the timeout.
   */
  async awaitPosition(minPosition: number | undefined, only?: string): Promise<void> {
    if (!minPosition) return;
    await this.ensureCheckpoints();
    const started = Date.now();
    for (const p of this.projections.filter((x) => only === undefined || x.name === only)) {
      for (let attempt = 0; ; attempt++) {
        const { events, checkpoint } = await this.behind(p.name, minPosition);
        if (events === 0) {
          // Nothing left to apply up to it: reached, or a position the log has not got. A position
          // handed out by a write is visible once the write returns, so one past the head was never handed out.
          if (checkpoint < minPosition) await this.refuseBeyondHead(minPosition);
          break;
        }
        const waited = Date.now() - started;
        if (waited >= this.waitTimeoutMs) throw new ProjectionLagError(p.name, minPosition, events, waited);
        if (attempt === 0) await this.catchUp();
        else await new Promise((r) => setTimeout(r, Math.min(50, 5 * attempt)));
      }
    }
  }

  private async refuseBeyondHead(minPosition: number): Promise<void> {
    const head = await this.log.head();
    if (minPosition > head) {
      throw new InvalidInputError([{ path: 'minPosition', message: `no event has position ${minPosition}: the log's last position is ${head}` }]);
    }
  }

  async status(now: Date = new Date()): Promise<ProjectionStatus[]> {
    await this.ensureCheckpoints();
    const out: ProjectionStatus[] = [];
    for (const p of this.projections) {
      const checkpoint = await readCheckpoint(this.db, p.name);
      const { events, oldest } = await this.behind(p.name, null);
      out.push({ name: p.name, checkpoint, behindEvents: events, lagMs: oldest ? Math.max(0, now.getTime() - oldest.getTime()) : 0 });
    }
    return out;
  }
}

/** What checkpointLagStatement gives: events behind, the oldest one's time, the checkpoint. */
export type CheckpointLagRow = BacklogRow;

/**
 * The statement of checkpointLag, for a caller that reads it inside a statement of its own (as a
 * subquery): one row, also when the checkpoint has no row yet (then everything is behind).
 */
export function checkpointLagStatement(name: string, position: number | null): RawBuilder<CheckpointLagRow> {
  return backlogStatement(sql<number>`coalesce((SELECT prepare FROM fl_checkpoints WHERE name = ${name}), 0)`, position);
}

/**
 * A consumer's lag: in one statement where the log is a table of this database, otherwise its
 * checkpoint here and the backlog past it from the port (EventStore.behind).
 */
export async function consumerLag(
  executor: Executor,
  log: Pick<EventStore, 'behind' | 'capabilities'>,
  name: string,
  position: number | null,
): Promise<{ events: number; oldest: Date | null; checkpoint: number }> {
  if (log.capabilities.logInDatabase) return checkpointLag(executor, name, position);
  const checkpoint = await readCheckpoint(executor, name);
  const { events, oldest } = await log.behind(checkpoint, position);
  return { events, oldest, checkpoint: checkpoint.prepare };
}

/** Committed events at or before `position` (all, when null) past a checkpoint, the oldest one's time, and the checkpoint. */
export async function checkpointLag(executor: Executor, name: string, position: number | null): Promise<{ events: number; oldest: Date | null; checkpoint: number }> {
  const r = (await checkpointLagStatement(name, position).execute(executor)).rows[0]!;
  return { events: r.behind, oldest: r.oldest === null ? null : new Date(r.oldest), checkpoint: Number(r.checkpoint) };
}
