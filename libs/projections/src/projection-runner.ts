/**
 * Runs projections from the stored log, each with its own checkpoint, in the log's commit order
 * (see postgres-event-store.ts). A batch of events and the checkpoint that covers it
 * commit in one transaction, so a crash never applies a batch without moving the checkpoint,
 * and per-stream watermarks make a replayed event a no-op. An advisory lock per projection
 * lets several processes run the same runner without applying anything twice.
 */
import { InvalidInputError } from '@factledger/domain';
import { type Database, LOG_START, type LogPosition, readLog } from '@factledger/store';
import { type Kysely, type RawBuilder, sql } from 'kysely';
import { ProjectionLagError } from './errors';
import { SingleFlightDrain } from './single-flight-drain';
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
}

export class ProjectionRunner {
  private readonly drainAll = new SingleFlightDrain(async () => {
    for (const p of this.projections) await this.drain(p);
    return { done: true, count: 0 };
  });
  private readonly batchSize: number;
  private readonly waitTimeoutMs: number;
  private readonly sessions: RunnerOptions['sessions'];
  private ready: Promise<void> | null = null;

  constructor(
    // eslint-disable-next-line @typescript-eslint/no-explicit-any
    private readonly db: Kysely<any>,
    readonly projections: Projection[],
    options: RunnerOptions = {},
  ) {
    this.batchSize = options.batchSize ?? 1000;
    this.waitTimeoutMs = options.waitTimeoutMs ?? 2000;
    this.sessions = options.sessions;
  }

  private ensureCheckpoints(): Promise<void> {
    this.ready ??= (async () => {
      for (const p of this.projections) {
        await sql`INSERT INTO fl_checkpoints (name) VALUES (${p.name}) ON CONFLICT DO NOTHING`.execute(this.db);
      }
    })();
    return this.ready;
  }

  /**
   * Applies everything committed so far. Concurrent callers in one process share a run; a
   * call made while a run is in progress gets one more pass, so it sees its own write.
   */
  async catchUp(): Promise<void> {
    await this.drainAll.run();
  }

  private async drain(projection: Projection): Promise<void> {
    await this.ensureCheckpoints();
    for (;;) {
      const applied = await this.db.transaction().execute(async (trx) => {
        // Another process is applying this projection: it will get our events too, and a
        // reader that needs them waits in awaitPosition, within its timeout.
        if (!(await lockProjection(trx, projection.name, { wait: false }))) return 0;
        const checkpoint = await readCheckpoint(trx, projection.name);
        const events = await readLog(trx, checkpoint, this.batchSize);
        if (events.length === 0) return 0;
        await projection.apply(trx, events);
        await writeCheckpoint(trx, projection.name, events[events.length - 1]!.logPosition);
        return events.length;
      });
      if (applied < this.batchSize) return;
    }
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
    if (sessions && projection.rebuilder) {
      const plan: RebuildPlan = {
        projection,
        pageSize,
        lock: (trx) => lockProjection(trx, projection.name),
        checkpoint: (trx, position) => writeCheckpoint(trx, projection.name, position, { force: true }),
      };
      const { events } = sessions.concurrentSessions
        ? await rebuildBeside(this.db, sessions.session, plan)
        : await sessions.session((s) => rebuildInPlace(this.db, s, plan));
      return { events, ms: Date.now() - started };
    }
    const count = await this.db.transaction().execute(async (trx) => {
      await lockProjection(trx, projection.name);
      await projection.reset(trx);
      let checkpoint = LOG_START;
      let total = 0;
      for (;;) {
        const events = await readLog(trx, checkpoint, pageSize);
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

  private behind(name: string, position: number | null): Promise<{ events: number; oldest: Date | null }> {
    return checkpointLag(this.db, name, position);
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
        const { events, checkpoint } = await checkpointLag(this.db, p.name, minPosition);
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
    const head = Number((await sql<{ head: string | null }>`SELECT max(global_position) AS head FROM fl_events`.execute(this.db)).rows[0]?.head ?? 0);
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

/**
 * Serialises runners of one projection across processes. The projection's writes need not
 * wait for the WAL flush: a read model lost in a crash is replayed from the durable log, and its
 * checkpoint is lost with it, in the same transaction.
 */
// eslint-disable-next-line @typescript-eslint/no-explicit-any
export async function lockProjection(trx: Kysely<any>, name: string, options: { wait: boolean } = { wait: true }): Promise<boolean> {
  const key = `fl_projection:${name}`;
  const row = options.wait
    ? await sql<{ locked: boolean }>`SELECT true AS locked, set_config('synchronous_commit', 'off', true) FROM pg_advisory_xact_lock(hashtext(${key}))`.execute(trx)
    : await sql<{ locked: boolean }>`SELECT pg_try_advisory_xact_lock(hashtext(${key})) AS locked, set_config('synchronous_commit', 'off', true)`.execute(trx);
  return row.rows[0]!.locked;
}

// eslint-disable-next-line @typescript-eslint/no-explicit-any
export async function readCheckpoint(executor: Kysely<any>, name: string): Promise<LogPosition> {
  const row = await sql<{ commit: string; prepare: number }>`
    SELECT commit::text AS commit, prepare FROM fl_checkpoints WHERE name = ${name}`.execute(executor);
  const r = row.rows[0];
  return r ? { commit: r.commit, prepare: Number(r.prepare) } : LOG_START;
}

// eslint-disable-next-line @typescript-eslint/no-explicit-any
export async function writeCheckpoint(executor: Kysely<any>, name: string, position: LogPosition, options: { force?: boolean } = {}): Promise<void> {
  // An inline projection (see fl_apply_fact_changes) may have moved it further meanwhile; only a
  // rebuild that swaps in tables built up to `position` sets it back (force).
  const guard = options.force ? sql`` : sql`WHERE fl_checkpoints.prepare <= excluded.prepare`;
  await sql`
    INSERT INTO fl_checkpoints (name, commit, prepare, updated_at) VALUES (${name}, ${position.commit}::xid8, ${position.prepare}, now())
    ON CONFLICT (name) DO UPDATE SET commit = excluded.commit, prepare = excluded.prepare, updated_at = excluded.updated_at
    ${guard}`.execute(executor);
}

/** What checkpointLagStatement gives: events behind, the oldest one's time, the checkpoint. */
export interface CheckpointLagRow {
  behind: number;
  oldest: Date | string | null;
  checkpoint: number | string;
}

/**
 * The statement of checkpointLag, for a caller that reads it inside a statement of its own (as a
 * subquery): one row, also when the checkpoint has no row yet (then everything is behind).
 */
export function checkpointLagStatement(name: string, position: number | null): RawBuilder<CheckpointLagRow> {
  const bound = position === null ? sql`` : sql`AND e.global_position <= ${position}`;
  return sql<CheckpointLagRow>`
    SELECT count(e.global_position)::int AS behind, min(e.recorded_at) AS oldest, c.prepare AS checkpoint
    FROM (SELECT coalesce((SELECT prepare FROM fl_checkpoints WHERE name = ${name}), 0) AS prepare) c
    LEFT JOIN fl_events e ON e.global_position > c.prepare ${bound}
    GROUP BY c.prepare`;
}

/** Committed events at or before `position` (all, when null) past a checkpoint, the oldest one's time, and the checkpoint. */
export async function checkpointLag(
  // eslint-disable-next-line @typescript-eslint/no-explicit-any
  executor: Kysely<any>,
  name: string,
  position: number | null,
): Promise<{ events: number; oldest: Date | null; checkpoint: number }> {
  const r = (await checkpointLagStatement(name, position).execute(executor)).rows[0]!;
  return { events: r.behind, oldest: r.oldest === null ? null : new Date(r.oldest), checkpoint: Number(r.checkpoint) };
}
