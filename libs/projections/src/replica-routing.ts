/**
 * Which database serves a read: a standby (ReadReplicas) once its copy of a read model has applied
 * everything up to the position the read must show, otherwise the primary. That position is the
 * caller's `minPosition` (every write's reply carries its position), or, when the caller names
 * none, the last position this process wrote for the tenant (WritePositions): either way a caller
 * reads its own writes, from whichever database serves it.
 */
import { type AppendResult, type Database, type EventStore, logHoldsPosition, type ReadReplicas, replicaFault } from '@factledger/store';
import { sql } from 'kysely';
import { FactReader } from './fact-reader';
import { consumerLag, type ProjectionRunner } from './projection-runner';

/** Tenants whose last write position is kept; past this, the tenant written longest ago is forgotten (its reads then go by their own token). */
const TENANTS_KEPT = 100_000;

/** The last position this process wrote for each tenant (an LRU of TENANTS_KEPT tenants). */
export class WritePositions {
  private readonly last = new Map<string, number>();

  wrote(tenant: string, position: number): void {
    const before = this.last.get(tenant) ?? 0;
    this.last.delete(tenant);
    this.last.set(tenant, Math.max(before, position));
    if (this.last.size > TENANTS_KEPT) this.last.delete(this.last.keys().next().value!);
  }

  of(tenant: string): number | undefined {
    return this.last.get(tenant);
  }
}

/** `store`, with every append's position noted for its tenant in `positions` (the one road every write takes). */
export function notingWrites(store: EventStore, positions: WritePositions): EventStore {
  const noted = async (tenant: string, written: Promise<AppendResult>): Promise<AppendResult> => {
    const result = await written;
    positions.wrote(tenant, result.position);
    return result;
  };
  return new Proxy(store, {
    get(target, property, receiver) {
      if (property === 'append') return (...args: Parameters<EventStore['append']>) => noted(args[0].tenant, target.append(...args));
      if (property === 'redact') return (...args: Parameters<EventStore['redact']>) => noted(args[0].tenant, target.redact(...args));
      const value: unknown = Reflect.get(target, property, receiver);
      return typeof value === 'function' ? value.bind(target) : value;
    },
  });
}

/** How far a standby's replay may trail what it has received before it counts as behind: 16 MB of WAL. */
const BEHIND_BYTES = 16 * 1024 * 1024;

export class ReplicaRouting {
  constructor(
    private readonly replicas: ReadReplicas,
    /** The log: its position is what the read models' checkpoints count in. */
    private readonly log: Pick<EventStore, 'behind' | 'capabilities'>,
    readonly positions: WritePositions = new WritePositions(),
    /** The read model the position must have reached (default the facts). */
    private readonly projection = 'facts',
  ) {}

  /**
   * Runs `work` on a standby that has reached the read's position (`target` is its database), or
   * on the primary (`target` null). A standby that fails during the read is taken out of the
   * rotation and the read runs again on the primary; other errors are the read's own.
   */
  async run<T>(tenant: string, minPosition: unknown, work: (target: Database | null) => Promise<T>): Promise<T> {
    const named = typeof minPosition === 'number' && Number.isSafeInteger(minPosition) && minPosition > 0 ? minPosition : undefined;
    // A token that is not a position is left for the primary's read to refuse (400).
    if (minPosition !== undefined && named === undefined) return work(null);
    const position = Math.max(named ?? 0, this.positions.of(tenant) ?? 0);
    const replica = await this.replicas.pick((db) => (position > 0 ? this.reached(db, position) : this.keepingUp(db)));
    if (!replica) return work(null);
    try {
      return await work(replica.database);
    } catch (error) {
      if (!replicaFault(error)) throw error;
      this.replicas.failed(replica, error);
      return work(null);
    }
  }

  /** The standbys and how each stands (health and metrics). */
  status(): ReturnType<ReadReplicas['status']> {
    return this.replicas.status();
  }

  /**
   * Whether the standby's copy of the read model has applied every event up to `position`: none
   * left between its checkpoint and it; and where the log is a table of the database, the event at
   * `position` itself is there (a standby that has not yet received a write also has nothing "behind").
   */
  private async reached(db: Database, position: number): Promise<boolean> {
    const { events, checkpoint } = await consumerLag(db.db, this.log, this.projection, position);
    if (events > 0) return false;
    if (checkpoint >= position) return true;
    if (!this.log.capabilities.logInDatabase) return false;
    return logHoldsPosition(db.db, position);
  }

  /** For a read with no position to reach: the standby is not paused and replays what it receives (no more than BEHIND_BYTES behind it). */
  private async keepingUp(db: Database): Promise<boolean> {
    const r = await sql<{ paused: boolean; lag: string | null }>`
      SELECT pg_is_wal_replay_paused() AS paused, pg_wal_lsn_diff(pg_last_wal_receive_lsn(), pg_last_wal_replay_lsn())::text AS lag`.execute(db.db);
    const row = r.rows[0]!;
    return !row.paused && Number(row.lag ?? 0) <= BEHIND_BYTES;
  }
}

/**
 * The fact read model as each read is served: by a standby's copy once it has applied everything
 * up to the read's position (when standbys are configured), otherwise by the primary's once the
 * primary's has reached it. The one road every fact read takes (the ledger's reads, the audit).
 */
export class FactReads {
  /** A reader on each standby that has served a read. */
  private readonly standbyReaders = new WeakMap<Database, FactReader>();

  constructor(
    private readonly primary: { reader: FactReader; runner: Pick<ProjectionRunner, 'awaitPosition'> },
    private readonly routing?: ReplicaRouting,
  ) {}

  read<T>(tenant: string, minPosition: number | undefined, work: (reader: FactReader) => Promise<T>): Promise<T> {
    const onPrimary = async (): Promise<T> => {
      await this.primary.runner.awaitPosition(minPosition, 'facts');
      return work(this.primary.reader);
    };
    if (!this.routing) return onPrimary();
    return this.routing.run(tenant, minPosition, (standby) => (standby ? work(this.readerOn(standby)) : onPrimary()));
  }

  private readerOn(standby: Database): FactReader {
    let reader = this.standbyReaders.get(standby);
    if (!reader) this.standbyReaders.set(standby, (reader = new FactReader(standby.db)));
    return reader;
  }
}
